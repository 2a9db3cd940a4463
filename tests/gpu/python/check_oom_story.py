"""Asserts the out-of-memory story of each scenario run by
scripts/gpu-validate-oom-story.sh with default options: one event per failure
the program saw, its first cause, and the user's function and line in the
printed text and in the JSON. Exits non-zero on a wrong answer."""
import os
import re
import sys

from scenario_checks import Checker, line

checks = Checker(sys.argv[1])
check, reports, log = checks.check, checks.reports, checks.log
out = checks.out


def where(scenario, function, marker=None):
    """'function (scenario.py:N)', or 'function (scenario.py:' when any line of it will do."""
    return "%s (%s.py:%s" % (function, scenario, "%d)" % line(scenario, marker) if marker else "")


def exit_reports(run):
    return [r for r in reports(run) if r["reason"] == "exit"]


def ooms(run):
    return [e for r in exit_reports(run) for e in r.get("oom_events", []) if not e.get("recovered")]


def story(run, expected_cause, user, pytorch=True, attempts=True):
    """The run's one failure: its first cause, the user's line in the cause and the printed text."""
    es = ooms(run)
    check(len(es) == 1, run + ": one out-of-memory event (%d: %s)" % (len(es), [e["api"] for e in es]))
    text = log(run)
    told = text.count("out of memory:")
    check(told == 1, run + ": told once (%d)" % told)
    if not es:
        return None
    e = es[0]
    check(("pytorch" in e) == pytorch, run + ": %s PyTorch's own event" % ("is" if pytorch else "is not"))
    if attempts:
        check(len(e.get("attempts", [])) >= 1, run + ": the failed calls before it are its attempts (%d)" %
              len(e.get("attempts", [])))
    d = e["diagnosis"]
    first = d[0] if d else {"cause": None, "message": ""}
    check(first["cause"] == expected_cause, run + ": first cause %s (got %s)" % (expected_cause, [x["cause"] for x in d]))
    check(user in first["message"], run + ": the first cause names %s: %s" % (user, first["message"]))
    check("1. " + first["message"] in text, run + ": and the printed text says it")
    check("lines PyTorch did not record" not in text, run + ": no line left unnamed in the text")
    return e


# 1. A list that keeps every step's loss.
s = "scenario_leak_in_list"
story(s, "live_tensors", "in segments reserved by " + where(s, "train_step"))

# 2. Debug activations kept, the cache emptied, then a batch of one.
s = "story_debug_activations"
e = story(s, "live_tensors", "in segments reserved by " + where(s, "big_epoch"))
check("out of memory: PyTorch could not allocate" in log(s) and where(s, "predict_one", "predict") in log(s),
      s + ": the failure names predict_one's line")

# 3. Tensors kept by stored exceptions: at exit, named by the function that raised.
s = "scenario_exceptions"
text = log(s)
m = re.search(r"(\d+\.\d+ MiB) in 10 tensors in segments reserved by " + re.escape(where(s, "work", "scratch")), text)
check(m is not None, s + ": the exit text names work:scratch for the 10 tensors")
check("lines PyTorch did not record" not in text, s + ": no line left unnamed")

# 4. Fragmentation: the big request, named with the line whose tensors pin the segments.
s = "scenario_fragmentation"
es = ooms(s)
check(es and all("pytorch" in e for e in es), s + ": every event is PyTorch's own (%s)" % [e["api"] for e in es])
big = [e for e in es if any(f.get("function") == "<module>" and f.get("line") == line(s, "big") for f in e["stack"])]
check(len(big) == 1, s + ": one event for the big request")
if big:
    d = big[0]["diagnosis"]
    check(d and d[0]["cause"] == "fragmentation", s + ": first cause fragmentation (%s)" % [x["cause"] for x in d])
    check(d and where(s, "fill", "fill") in d[0]["message"], s + ": names fill:fill: " + (d[0]["message"] if d else ""))
check(log(s).count("out of memory:") == len(es), s + ": each failure told once")

# 5. Another process holds the device.
s = "scenario_other_process"
story(s, "other_processes", "pid ", attempts=False)

# 6. JAX first, then PyTorch in the same process.
s = "story_jax_then_torch"
e = story(s, "held_by_cache", where(s, "warm_up_jax", "jax"))
if e:
    msg = e["diagnosis"][0]["message"]
    check("XLA BFC allocator" in msg and "XLA_PYTHON_CLIENT_PREALLOCATE=false" in msg, s + ": XLA and its settings named")

# 7. PyTorch first, then CuPy in the same process: CuPy's retries are one story.
s = "story_torch_then_cupy"
e = story(s, "held_by_cache", where(s, "keep_tensors", "keep"), pytorch=False)
if e:
    check("PyTorch caching allocator" in e["diagnosis"][0]["message"], s + ": PyTorch's cache named as the holder")
    check(where(s, "<module>", "cupy") in log(s), s + ": the failure names the CuPy call's line")

# 8. CuPy arrays kept in a list.
s = "scenario_cupy"
e = story(s, "held_by_cache", where(s, "make_batch", "alloc"), pytorch=False)

# 9. expandable_segments: PyTorch maps its memory; the mappings name the line.
s = "scenario_expandable"
story(s, "live_tensors", "in segments reserved by train_step (scenario_leak_in_list.py:")

# 10. backend:cudaMallocAsync: no view; the cause still names the line.
s = "scenario_async_backend"
es = ooms(s)
check(len(es) == 1, s + ": one out-of-memory event (%d)" % len(es))
d = es[0]["diagnosis"] if es else []
check(d and where(s, "train_step") in d[0]["message"], s + ": first cause names train_step: " + (d[0]["message"] if d else ""))
check(log(s).count("out of memory:") == 1, s + ": told once (%d)" % log(s).count("out of memory:"))

# 11. A CUDA-graph-captured model whose replays' outputs are kept.
s = "story_cuda_graph"
story(s, "live_tensors", where(s, "step"))

# 12. torch.compile: Triton's modules are never leaks; the kept outputs are named.
s = "story_compile"
story(s, "live_tensors", where(s, "step"))
for r in exit_reports(s):
    modules = [g for g in r["leaks"] if g["kind"] in ("module", "library") and g.get("fails_gate")]
    check(not modules, s + ": no module or library fails the gate (%d)" % len(modules))

# 13. cuda-python allocations never freed: cudaMalloc returns out-of-memory to the program.
s = "story_cuda_python"
e = story(s, "accumulating_leak", where(s, "load_shard", "malloc"), pytorch=False, attempts=False)
check("in " + where(s, "load_shard", "malloc") in log(s), s + ": the failure's first line names load_shard:malloc")

# 14. numba-cuda: its retry after emptying its deallocation queue is one
# failure with an attempt, told once, caused by the arrays load_shard keeps;
# at exit what numba still holds (its queue, arrays alive at shutdown) is
# held by its memory manager, not leaked.
s = "scenario_numba"
story(s, "accumulating_leak", where(s, "load_shard", "shard"), pytorch=False)
check("more out-of-memory event" not in log(s), s + ": no failure counted as a repeat")
for r in exit_reports(s):
    check(r["summary"]["leaked_count"] == 0, s + ": nothing leaked at exit (%d)" % r["summary"]["leaked_count"])
    check("numba memory manager" in r["summary"].get("cached_by", {}),
          s + ": held by numba's memory manager (%s)" % list(r["summary"].get("cached_by", {})))
check("numba memory manager" in log(s) and "detected CUDA resource leaks" not in log(s),
      s + ": the text names numba's memory manager and no leak")

# 15. torch.distributed.run, 2 processes on one GPU: each rank names its line.
s = "scenario_torchrun"
text = log(s)
check(text.count("in segments reserved by " + where(s, "step", "keep")) >= 2,
      s + ": both ranks name step:keep for their tensors")
ranks = sorted(r["process"]["rank"] for r in exit_reports(s) if "pytorch" in r)
check(ranks == [0, 1], s + ": both ranks reported (%s)" % ranks)

# Segment attribution against PyTorch's per-tensor stacks, same scenarios.
print("\nsegment attribution (default) against per-tensor stacks (--pytorch-stacks true):")
for s in ("scenario_leak_in_list", "story_debug_activations", "scenario_exceptions"):
    for run in (s, "stacks_" + s):
        for r in exit_reports(run):
            for d in r.get("pytorch", {}).get("devices", []):
                for g in d["live_tensors"][:3]:
                    frames = [f for f in g.get("stack", []) if f.get("language") == "python" and "/torch/" not in f.get("file", "")]
                    f = frames[0] if frames else {}
                    print("  %-34s %8.1f MiB in %5d tensors %s %s:%s" % (
                        run, g["bytes"] / 2**20, g["count"], "segment" if g.get("by_segment") else "tensor ",
                        f.get("function"), f.get("line")))

checks.finish()
