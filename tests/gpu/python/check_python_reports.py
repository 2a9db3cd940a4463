"""Asserts what cudaleak said about each Python scenario (scenario_*.py) run by
scripts/gpu-validate-python.sh. Exits non-zero on the first wrong answer."""
import os
import re
import sys

from scenario_checks import Checker, line

checks = Checker(sys.argv[1])
check, reports, log = checks.check, checks.reports, checks.log
out = checks.out


def exit_report(scenario):
    rs = [r for r in reports(scenario) if r["reason"] == "exit"]
    return rs[-1] if rs else None


def all_ooms(scenario):
    """The OOM events of every process of the scenario (each exit report)."""
    return [e for r in reports(scenario) if r["reason"] == "exit" for e in r.get("oom_events", [])]


def pytorch_ooms(scenario):
    return [e for e in all_ooms(scenario) if "pytorch" in e]


def first_cause(s, expected):
    """The scenario's one PyTorch out-of-memory; checks its first cause."""
    ooms = pytorch_ooms(s)
    check(len(ooms) == 1, s + ": one PyTorch out-of-memory")
    d = ooms[0]["diagnosis"] if ooms else []
    check(d and d[0]["cause"] == expected, s + ": first cause %s (got %s)" % (expected, [x["cause"] for x in d]))
    return ooms[0] if ooms else None, d


def python_frame(stack, function, line_no):
    return any(f.get("language") == "python" and f.get("function") == function and f.get("line") == line_no
               for f in stack)


# 1. A list that keeps every step's loss: live tensors from train_step, not a leak of the allocator.
s = "scenario_leak_in_list"
oom, d = first_cause(s, "live_tensors")
if oom:
    check(d and "scenario_leak_in_list.py:" in d[0]["message"], s + ": names the script's line: " + (d[0]["message"] if d else ""))
    check(not any(x["cause"] == "accumulating_leak" for x in d), s + ": allocator segments not called a leak")
    check(python_frame(oom["stack"], "train_step", line(s, "forward")), s + ": OOM stack holds train_step:forward")
text = log(s)
check(text.count("out of memory:") == 1, s + ": printed once (%d)" % text.count("out of memory:"))

# 2. Fragmentation: the big request fails with free memory scattered in pinned segments.
s = "scenario_fragmentation"
ooms = pytorch_ooms(s)
big = [e for e in ooms if python_frame(e["stack"], "<module>", line(s, "big"))]
check(len(big) == 1, s + ": the big request's OOM is PyTorch's, at <module>:big")
if big:
    d = big[0]["diagnosis"]
    check(d and d[0]["cause"] == "fragmentation", s + ": first cause fragmentation (got %s)" % [x["cause"] for x in d])
    msg = d[0]["message"] if d else ""
    check("fill (scenario_fragmentation.py:%d)" % line(s, "fill") in msg, s + ": names the pinning line: " + msg)
    check("expandable_segments:True" in msg, s + ": suggests expandable_segments")
text = log(s)
check(text.count("out of memory: cudaMalloc") == 0, s + ": failed cudaMalloc calls under PyTorch not printed apart")
check(text.count("out of memory: PyTorch") == len(ooms), s + ": each PyTorch OOM printed once")

# 3. Tensors kept alive by stored exceptions: named at exit, not a leak.
s = "scenario_exceptions"
r = exit_report(s)
check(r is not None and "pytorch" in r, s + ": exit report has PyTorch's view")
if r and "pytorch" in r:
    groups = r["pytorch"]["devices"][0]["live_tensors"]
    top = groups[0] if groups else {}
    check(top.get("bytes", 0) >= 320 << 20 and top.get("count") == 10, s + ": 10 tensors, 320 MiB live")
    check(any(f.get("function") == "work" and f.get("line") == line(s, "scratch") for f in top.get("stack", [])),
          s + ": their stack names work:scratch")
text = log(s)
check("held by live tensors" in text and "work (scenario_exceptions.py:%d)" % line(s, "scratch") in text,
      s + ": the summary names the line that holds them")

# 4. ctypes cudaMalloc never freed: the Python function and line in the leak's stack.
s = "scenario_ctypes"
r = exit_report(s)
groups = [g for g in (r or {}).get("leaks", []) if g["kind"] == "device" and g["bytes"] == 64 << 20]
check(len(groups) == 1, s + ": the 64 MiB leak is found")
if groups:
    check(python_frame(groups[0]["stack"], "leaky_buffer", line(s, "malloc")), s + ": stack names leaky_buffer:malloc")
    check(groups[0].get("site", "").startswith("device | leaky_buffer @ scenario_ctypes.py:%d" % line(s, "malloc")),
          s + ": site is the Python code: " + groups[0].get("site", ""))
check(r is not None and r.get("python", {}).get("frames") is True, s + ": report says Python frames were read")

# 5. A memory fraction: PyTorch refused the request itself.
first_cause("scenario_fraction", "allocator_limit")

# 6. The default, without per-tensor stacks: fragmentation is still the first cause.
s = "default_fragmentation"
ooms = pytorch_ooms(s)
big = [e for e in ooms if python_frame(e["stack"], "<module>", line("scenario_fragmentation", "big"))]
check(len(big) == 1 and big[0]["diagnosis"][0]["cause"] == "fragmentation",
      s + ": first cause fragmentation without --pytorch-stacks")

# 7. Another process holds most of the device.
s = "scenario_other_process"
oom, d = first_cause(s, "other_processes")
holder = [r for r in reports(s) if r["reason"] == "exit" and not r.get("oom_events")]
if oom and holder:
    check("pid %d" % holder[0]["process"]["pid"] in d[0]["message"], s + ": names the holding process: " + d[0]["message"])
check(python_frame(oom["stack"] if oom else [], "<module>", line(s, "request")), s + ": OOM stack holds <module>:request")

# 8. expandable_segments: PyTorch maps its memory (cuMemCreate); live tensors, never a leak.
s = "scenario_expandable"
oom, d = first_cause(s, "live_tensors")
check(oom and oom["pytorch"]["expandable"], s + ": the view says the segments are expandable")
check(d and "scenario_leak_in_list.py:" in d[0]["message"], s + ": names the script's line")
check(not any(e["diagnosis"] and e["diagnosis"][0]["cause"] == "accumulating_leak" for e in all_ooms(s)),
      s + ": no event calls PyTorch's mapped memory a leak")
check(log(s).count("out of memory:") == 1, s + ": printed once")

# 9. backend:cudaMallocAsync: PyTorch shows no view; the program runs as without cudaleak.
s = "scenario_async_backend"
text = log(s)
check("Traceback" not in text and "oom after" in text, s + ": the program ran to its own OOM handling")
ooms = all_ooms(s)
check(len(ooms) >= 1 and all("pytorch" not in e for e in ooms), s + ": its OOM seen natively (%d events)" % len(ooms))
d = ooms[0]["diagnosis"] if ooms else []
check(d and "train_step (scenario_async_backend.py:" in d[0]["message"] and d[0]["cause"] != "accumulating_leak",
      s + ": first cause names the script's line, not as a leak: " + (d[0]["cause"] + ": " + d[0]["message"] if d else ""))

# 10. CuPy: its pool holds the arrays; the cause names the pool and the user's line.
s = "scenario_cupy"
ooms = all_ooms(s)
d = ooms[0]["diagnosis"] if ooms else []
check(d and d[0]["cause"] == "held_by_cache" and "CuPy memory pool" in d[0]["message"], s + ": first cause: the CuPy pool")
check(d and "make_batch (scenario_cupy.py:%d)" % line(s, "alloc") in d[0]["message"],
      s + ": names the user's line: " + (d[0]["message"] if d else ""))
r = exit_report(s)
check(r is not None and r["summary"]["leaked_count"] == 0, s + ": CuPy's kernel cache is not a leak")
# CuPy's own pool numbers at exit: the arrays kept are "used", 256 MiB each.
m = re.search(r"oom after (\d+) steps", log(s))
pool = r.get("cupy") if r else None
check(m and pool and pool["when"] == "exit" and pool["device"] == 0 and
      pool["used_bytes"] == int(m.group(1)) * (256 << 20) and pool["total_bytes"] >= pool["used_bytes"],
      s + ": CuPy's pool numbers at exit (%s, %s steps)" % (pool, m.group(1) if m else None))
check("CuPy's memory pool at exit on device 0: " in log(s), s + ": the pool's numbers in the text summary")

# 10b. Two CuPy processes under one run, merged: each process's pool, named by its pid.
merged_path = os.path.join(out, "cupy_two_merged.txt")
merged = open(merged_path).read() if os.path.exists(merged_path) else ""
pools = re.findall(r"CuPy's memory pool at exit on device 0 in python3[.0-9]* \(pid (\d+)\): "
                   r"([0-9.]+ MiB) held, 128\.0 MiB by live arrays", merged)
check(len(pools) == 2 and pools[0][0] != pools[1][0],
      "cupy_two: the merged text names each process's CuPy pool: %s" % (pools,))

# 11. A DataLoader with forking workers: no hang, the kept batches named at exit.
s = "scenario_dataloader"
text = log(s)
check("epochs done, batches kept: 24" in text, s + ": the program finished")
r = exit_report(s)
groups = r["pytorch"]["devices"][0]["live_tensors"] if r and "pytorch" in r else []
check(groups and groups[0]["count"] == 24 and any(f.get("line") == line(s, "keep") for f in groups[0]["stack"]),
      s + ": 24 live tensors from train:keep")

# 12. torch.distributed.run: each rank's report has its rank and view.
s = "scenario_torchrun"
ranks = sorted(r["process"]["rank"] for r in reports(s) if r["reason"] == "exit" and "pytorch" in r)
check(ranks == [0, 1], s + ": both ranks reported with their PyTorch view (%s)" % ranks)
for r in reports(s):
    if "pytorch" in r:
        g = r["pytorch"]["devices"][0]["live_tensors"]
        check(g and g[0]["count"] == 16 and python_frame(g[0]["stack"], "step", line(s, "keep")),
              s + ": rank %d: 16 tensors from step:keep" % r["process"]["rank"])

# 13. The gate on live tensors (--gate-live-tensors true --error-exitcode 1).
s = "gated_exceptions"
with open(os.path.join(out, s + ".status")) as f:
    check(f.read().strip() == "gated_exceptions: exit 1", s + ": the run ends with error_exitcode")
r = exit_report(s)
check(r is not None and r["gate"]["failed"] and r["gate"].get("failing_tensor_groups", 0) >= 1
      and r["gate"]["failing_bytes"] >= 320 << 20, s + ": the gate counts the 320 MiB of live tensors")
check("of them PyTorch's live tensors" in log(s), s + ": and says so")

# 14. Fresh views at the program's reports and the snapshot signal; tensors
# kept from train_step grow across them and fail gate_growing_tensors.
s = "scenario_growth"
with open(os.path.join(out, s + ".status")) as f:
    check(f.read().strip() == "scenario_growth: exit 1", s + ": the run ends with error_exitcode")
rs = reports(s)
steps = [r for r in rs if r["reason"] == "checkpoint"]
check(len(steps) == 6 and all(r.get("pytorch", {}).get("when") == "snapshot" for r in steps),
      s + ": each of the 6 reports carries a fresh view")


def kept(r):
    """Bytes of live tensors allocated on train_step's lines, and whether any such group grows."""
    total, growing = 0, False
    for d in r.get("pytorch", {}).get("devices", []):
        for g in d["live_tensors"]:
            if python_frame(g["stack"], "train_step", line(s, "forward")) or \
               python_frame(g["stack"], "train_step", line(s, "input")):
                total += g["bytes"]
                growing |= g.get("growing", False)
    return total, growing


sizes = [kept(r)[0] for r in steps]
check(all(b > a for a, b in zip(sizes, sizes[1:])), s + ": train_step's tensors grow report to report (%s)" % sizes)
check(kept(steps[-1])[1], s + ": and are marked growing in the last report")
snap = [r for r in rs if r["reason"] == "signal"]
check(snap and snap[0]["pytorch"]["when"] == "snapshot" and kept(snap[0])[0] > sizes[-1],
      s + ": the signal's snapshot has the view of that moment")
r = exit_report(s)
check(r is not None and r["gate"].get("failing_tensor_groups", 0) >= 1, s + ": the gate counts the growing groups")
check("gate_growing_tensors" in log(s) and "[growing:" in log(s), s + ": and says so")

checks.finish()
