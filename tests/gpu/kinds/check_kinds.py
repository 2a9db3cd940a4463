"""Asserts what scripts/gpu-validate-kinds.sh left in OUT: every kind counted
exactly in `leak` runs, nothing in `clean` runs, library handles named and
counted, and the cuda-samples' graphs as their source says. Exits non-zero on
the first wrong result after printing all of them."""
import glob
import json
import sys

out = sys.argv[1]
failures = []


def report(name, argv_has=None):
    """The one report of run NAME; of a run of several processes, the one
    whose command line has ARGV_HAS."""
    reports = []
    for path in glob.glob(f"{out}/{name}.*.json"):
        with open(path) as f:
            r = json.load(f)
        if argv_has is None or argv_has in r["process"].get("argv", []):
            reports.append(r)
    if len(reports) != 1:
        print(f"FAIL {name}{' ' + argv_has if argv_has else ''}: {len(reports)} reports (expected 1)")
        failures.append(f"{name} {argv_has or ''}: {len(reports)} reports")
        return None
    return reports[0]


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
                "cusparseCreate": 1, "cusolverDnCreate": 1, "cusolverSpCreate": 1}
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

# The same program linked with the static archives: no create reaches
# cudaleak, so handles are found by stack, uncounted; the handles that hold
# driver resources (cuBLAS, cuSOLVER dense and sparse) are named, and every
# resource is found as in the dynamic run. cuFFT's own kernels (a module it
# loads in cufftPlan1d) are not the program's.
dynamic = report("library_handles.leak")
r = report("static_handles.leak")
if r:
    by_stack = {g["api"] for g in r["leaks"] if g["kind"] == "library_handle" and g.get("attributed_by_stack")}
    expect("static_handles.leak", "handles found by stack", sorted(by_stack),
           ["cublasCreate_v2", "cusolverDnCreate", "cusolverSpCreate"])
    expect("static_handles.leak", "handles counted", handles(r), {a: 0 for a in by_stack})
    if dynamic:
        expect("static_handles.leak", "resources by kind (the dynamic run's, without its handles)",
               r["summary"]["by_kind"], {k: v for k, v in dynamic["summary"]["by_kind"].items() if k != "library_handle"})
    blas = [g for g in r["leaks"] if g["kind"] == "library_handle" and g["api"] == "cublasCreate_v2"]
    expect("static_handles.leak", "the cuBLAS handle's caller", blas and blas[0]["stack"][0]["function"],
           "open_handles()")
    expect("static_handles.leak", "notes", len(r.get("notes", [])), 0)
r = report("static_handles.clean")
if r:
    expect("static_handles.clean", "leaked resources", r["summary"]["leaked_count"], 0)
    expect("static_handles.clean", "groups", len(r["leaks"]), 0)

# Two processes: the child imports what the parent exported and releases
# nothing in `leak`: a legacy IPC mapping, a pool pointer and a VMM handle
# (ipc_mapping), the imported pool, and the VMM allocation again as external
# memory with its mapped buffer (device). The parent releases everything.
for mode in ["leak", "clean"]:
    child = report(f"sharing.{mode}", f"child-{mode}")
    parent = report(f"sharing.{mode}", mode)
    with open(f"{out}/sharing.{mode}.out") as f:
        external = "external memory imported" in f.read()
    expect(f"sharing.{mode}", "external memory imported from a CUDA file descriptor", external, True)
    if child:
        want = {"ipc_mapping": 3, "pool": 1, "external_memory": 1, "device": 1} if mode == "leak" else {}
        got = {k: v["count"] for k, v in child["summary"]["by_kind"].items()}
        expect(f"sharing.{mode} child", "resources by kind", got, want)
        apis = sorted(g["api"] for g in child["leaks"])
        if mode == "leak":
            expect("sharing.leak child", "APIs", apis,
                   sorted(["cuIpcOpenMemHandle_v2", "cuMemPoolImportFromShareableHandle", "cuMemPoolImportPointer",
                           "cuMemImportFromShareableHandle", "cuImportExternalMemory",
                           "cuExternalMemoryGetMappedBuffer"]))
            legacy = [g for g in child["leaks"] if g["api"] == "cuIpcOpenMemHandle_v2"]
            expect("sharing.leak child", "IPC mapping bytes", legacy and legacy[0]["bytes"], 1 << 20)
        expect(f"sharing.{mode} child", "notes", len(child.get("notes", [])), 0)
    if parent:
        expect(f"sharing.{mode} parent", "leaked resources", parent["summary"]["leaked_count"], 0)
        expect(f"sharing.{mode} parent", "notes", len(parent.get("notes", [])), 0)

# Modules never unloaded hold their device globals: the bytes cudaleak read
# from the image equal what the driver says (cuModuleGetGlobal), for a cubin
# file, a cubin in memory (library), an uncompressed fatbin and PTX text (its
# .global declarations), a fatbin compressed with Zstandard and one with LZ4
# (decompressed by the preload). Nothing is left in `clean`.
import re
for run in ["module_globals", "module_globals_compressed", "module_globals_lz4"]:
    r = report(f"{run}.leak")
    with open(f"{out}/{run}.leak.out") as f:
        printed = f.read()
    said = re.search(r"device globals by cuModuleGetGlobal: (\d+)", printed)
    driver = int(said.group(1)) if said else None
    expect(f"{run}.leak", "the driver's device globals", driver, (1 << 20) + (4 << 10))
    said = re.search(r"PTX module's globals by cuModuleGetGlobal: (\d+)", printed)
    ptx = int(said.group(1)) if said else None
    expect(f"{run}.leak", "the driver's globals of the PTX module", ptx, 4 << 10)
    if r:
        got = sorted((g["kind"], g["api"], g["bytes"]) for g in r["leaks"])
        want = sorted([("module", "cuModuleLoad", driver), ("library", "cuLibraryLoadData", driver),
                       ("module", "cuModuleLoadData", driver), ("module", "cuModuleLoadData", ptx)])
        expect(f"{run}.leak", "modules and libraries with their globals", got, want)
        expect(f"{run}.leak", "notes", len(r.get("notes", [])), 0)
    r = report(f"{run}.clean")
    if r:
        expect(f"{run}.clean", "groups", len(r["leaks"]), 0)

r = report("python_handles.leak")
if r:
    expect("python_handles.leak", "handles", handles(r), {"cudnnCreate": 1, "ncclCommInitAll": 1, "ncclCommSplit": 1})
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
samples_run = bool(glob.glob(f"{out}/sample.*.out"))  # CUDA_SAMPLES_DIR given
if not samples_run:
    print("skip cuda-samples: none ran (gpu-validate-kinds.sh STAGE OUT CUDA_SAMPLES_DIR runs them)")


def sample_report(name):
    return report(name) if samples_run else None


for name, graphs, execs in [("simpleCudaGraphs", 0, 0), ("graphMemoryNodes", 0, 2), ("graphMemoryFootprint", 0, 0),
                            ("simpleTexture", 0, 0), ("simpleSurfaceWrite", 0, 0), ("simpleCubemapTexture", 0, 0),
                            ("conjugateGradientCudaGraphs", 0, 0)]:
    r = sample_report(f"sample.{name}")
    if r:
        expect(f"sample.{name}", "graphs, executable graphs", (count(r, "graph"), count(r, "graph_exec")),
               (graphs, execs))
        expect(f"sample.{name}", "graph memory, modules, libraries",
               (count(r, "graph_memory"), count(r, "module"), count(r, "library")), (0, 0, 0))
r = sample_report("sample.simpleCudaGraphs")
if r:
    expect("sample.simpleCudaGraphs", "streams, events", (count(r, "stream"), count(r, "event")), (1, 3))
# jacobiCudaGraphs: method 0 builds one graph and never destroys it or its
# executable graph; method 1 captures a new graph on every iteration and
# destroys none of them.
r = sample_report("sample.jacobiCudaGraphs")
if r:
    expect("sample.jacobiCudaGraphs", "graphs, executable graphs", (count(r, "graph"), count(r, "graph_exec")), (1, 1))
r = sample_report("sample.jacobiCudaGraphs_capture")
if r:
    import re
    with open(f"{out}/sample.jacobiCudaGraphs_capture.out") as f:
        iterations = int(re.search(r"GPU iterations : (\d+)", f.read()).group(1))
    expect("sample.jacobiCudaGraphs_capture", "graphs", count(r, "graph"), iterations)
# vectorAddDrv loads its module and never unloads it; cuCtxDestroy takes it.
r = sample_report("sample.vectorAddDrv")
if r:
    torn = [g for g in r["leaks"] if g["kind"] == "module" and g.get("released_by") == "context_destroy"]
    expect("sample.vectorAddDrv", "modules torn down with the context", len(torn), 1)

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("all kind checks passed")
