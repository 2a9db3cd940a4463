"""Asserts what scripts/gpu-validate-kinds.sh left in OUT: every kind counted
exactly in `leak` runs, nothing in `clean` runs, library handles named and
counted, and the cuda-samples' graphs as their source says. Exits non-zero on
the first wrong result after printing all of them."""
import glob
import json
import sys

out = sys.argv[1]
failures = []


def report(name):
    files = glob.glob(f"{out}/{name}.*.json")
    if len(files) != 1:
        failures.append(f"{name}: {len(files)} reports")
        return None
    with open(files[0]) as f:
        return json.load(f)


def expect(name, what, got, want):
    ok = got == want
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {what} = {got} (expected {want})")
    if not ok:
        failures.append(f"{name}: {what} = {got}, expected {want}")


def count(r, kind):
    return r["summary"]["by_kind"].get(kind, {}).get("count", 0)


def handles(r):
    return {g["api"]: g["count"] for g in r["leaks"] if g["kind"] == "library_handle"}


r = report("kinds.leak")
if r:
    for kind, want in [("graph", 102), ("graph_exec", 2), ("graph_memory", 2), ("module", 1), ("library", 1),
                       ("texture", 1), ("surface", 1), ("ipc_mapping", 1)]:
        expect("kinds.leak", kind, count(r, kind), want)
    expect("kinds.leak", "graph_memory bytes", r["summary"]["by_kind"].get("graph_memory", {}).get("bytes"),
           12 << 20)
    expect("kinds.leak", "notes", len(r.get("notes", [])), 0)
r = report("kinds.clean")
if r:
    expect("kinds.clean", "leaked resources", r["summary"]["leaked_count"], 0)
    expect("kinds.clean", "notes", len(r.get("notes", [])), 0)

want_handles = {"cublasCreate_v2": 1, "cublasLtCreate": 1, "cufftPlan1d": 1, "curandCreateGenerator": 1,
                "cusparseCreate": 1, "cusolverDnCreate": 1}
r = report("library_handles.leak")
if r:
    expect("library_handles.leak", "handles", handles(r), want_handles)
    expect("library_handles.leak", "notes", len(r.get("notes", [])), 0)
    own = sum(1 for g in r["leaks"] for f in g["stack"] if "libcudaleak" in f.get("module", ""))
    expect("library_handles.leak", "frames of cudaleak itself in stacks", own, 0)
r = report("library_handles.clean")
if r:
    expect("library_handles.clean", "handles", handles(r), {})
    expect("library_handles.clean", "notes", len(r.get("notes", [])), 0)

r = report("python_handles.leak")
if r:
    expect("python_handles.leak", "handles", handles(r), {"cudnnCreate": 1, "ncclCommInitAll": 1})
r = report("python_handles.clean")
if r:
    expect("python_handles.clean", "handles", handles(r), {})

# cuda-samples, against their source: simpleCudaGraphs, graphMemoryNodes and
# graphMemoryFootprint destroy every graph and executable graph;
# jacobiCudaGraphs captures a new graph on every iteration and destroys one.
# graphMemoryNodes overwrites its graphExec twice before destroying it (two
# executable graphs leaked); simpleCudaGraphs never destroys stream3 and its
# three events. No sample leaves module or library records of the runtime's
# own device code.
for name, graphs, execs in [("simpleCudaGraphs", 0, 0), ("graphMemoryNodes", 0, 2), ("graphMemoryFootprint", 0, 0),
                            ("simpleTexture", 0, 0), ("simpleSurfaceWrite", 0, 0), ("simpleCubemapTexture", 0, 0),
                            ("conjugateGradientCudaGraphs", 0, 0)]:
    r = report(f"sample.{name}")
    if r:
        expect(f"sample.{name}", "graphs, executable graphs", (count(r, "graph"), count(r, "graph_exec")),
               (graphs, execs))
        expect(f"sample.{name}", "graph memory, modules, libraries",
               (count(r, "graph_memory"), count(r, "module"), count(r, "library")), (0, 0, 0))
r = report("sample.simpleCudaGraphs")
if r:
    expect("sample.simpleCudaGraphs", "streams, events", (count(r, "stream"), count(r, "event")), (1, 3))
# jacobiCudaGraphs: method 0 builds one graph and never destroys it or its
# executable graph; method 1 captures a new graph on every iteration and
# destroys none of them.
r = report("sample.jacobiCudaGraphs")
if r:
    expect("sample.jacobiCudaGraphs", "graphs, executable graphs", (count(r, "graph"), count(r, "graph_exec")), (1, 1))
r = report("sample.jacobiCudaGraphs_capture")
if r:
    import re
    with open(f"{out}/sample.jacobiCudaGraphs_capture.out") as f:
        iterations = int(re.search(r"GPU iterations : (\d+)", f.read()).group(1))
    expect("sample.jacobiCudaGraphs_capture", "graphs", count(r, "graph"), iterations)
# vectorAddDrv loads its module and never unloads it; cuCtxDestroy takes it.
r = report("sample.vectorAddDrv")
if r:
    torn = [g for g in r["leaks"] if g["kind"] == "module" and g.get("released_by") == "context_destroy"]
    expect("sample.vectorAddDrv", "modules torn down with the context", len(torn), 1)

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("all kind checks passed")
