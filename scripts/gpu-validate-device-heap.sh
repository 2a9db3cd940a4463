#!/usr/bin/env bash
# Memory the context reserves, on a real GPU: what each limit reserves
# (measured with cudaMemGetInfo, checked against what cudaleak records), a
# per-thread stack size that makes a later cudaMalloc fail (named as the cause,
# with its line), a 512 MiB device heap reported with its call site, and
# device-side leaks grouped by kernel and the source line of their malloc;
# static and shared cudart. compute-sanitizer's leak check on the same heap program is
# kept for comparison. Asserts; exits non-zero on a wrong result.
# Usage: scripts/gpu-validate-device-heap.sh [BUILD_DIR] [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-device-heap}")"
mkdir -p "$W"
CUDA="${CUDA_ROOT:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$CUDA/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for rt in static shared; do
  "$CUDA/bin/nvcc" -arch=native -g -lineinfo -cudart $rt -o "$W/device_heap_$rt" tests/gpu/limits/device_heap.cu || exit 1
done
P="$W/device_heap_static"
total_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0)
echo "device 0: ${total_mib} MiB"

echo "== what each limit reserves (plain run)"
"$P" measure | tee "$W/measure.out"
for rt in static shared; do
  echo "== $rt: a 512 MiB device heap, kernels leaking 4096 x 4 KiB"
  "$B/bin/cudaleak" run -o "$W/heap_$rt.%p.%n.json" -- "$W/device_heap_$rt" heap_leak >"$W/heap_$rt.out" 2>&1
  grep -A3 "Reserved by the context" "$W/heap_$rt.out"
  # A stack that takes most of the device, then a request of a third of it.
  kib=$(( total_mib * 3 / 4 * 1024 / 270336 ))  # ~3/4 of the device over the H100's 270336 resident threads
  echo "== $rt: a per-thread stack of $kib KiB, then cudaMalloc of $((total_mib / 3)) MiB"
  "$B/bin/cudaleak" run -o "$W/stack_$rt.%p.%n.json" -- "$W/device_heap_$rt" stack_oom $kib $((total_mib / 3)) >"$W/stack_$rt.out" 2>&1
  grep -E "stack limit|out of memory:|^  [0-9]\." "$W/stack_$rt.out" | head -4
done
for rt in static shared; do
  echo "== $rt: device-side leaks in several kernels, with device_heap"
  "$B/bin/cudaleak" run --device-heap -o "$W/dh_$rt.%p.%n.json" -- "$W/device_heap_$rt" kernels >"$W/dh_$rt.out" 2>&1
  grep -E "device-heap|device_heap" "$W/dh_$rt.out" | head -6
  "$CUDA/bin/compute-sanitizer" --leak-check full "$W/device_heap_$rt" kernels >"$W/dh_sanitizer_$rt.out" 2>&1
  grep -E "LEAK SUMMARY" "$W/dh_sanitizer_$rt.out"
done
# The simulated GPU's device-heap program, with its real device code: the
# lines of its mallocs, and a heap filled until malloc returns NULL.
"$CUDA/bin/nvcc" -arch=native -g -lineinfo -o "$W/device_heap_kernels" tests/e2e/programs/device_heap_kernels.cu || exit 1
for mode in leaks exhaust; do
  echo "== device_heap_kernels $mode, with device_heap"
  "$B/bin/cudaleak" run --device-heap -o "$W/kernels_$mode.%p.%n.json" -- "$W/device_heap_kernels" $mode \
    >"$W/kernels_$mode.out" 2>&1
  grep -E "made by malloc|device heap exhausted" "$W/kernels_$mode.out" | cut -c1-250
done
echo "== cost: plain, device_heap, compute-sanitizer (1000 launches each)"
"$P" bench 1000 | tee "$W/bench_plain.out"
"$B/bin/cudaleak" run -o "$W/bench_cl.%p.json" -- "$P" bench 1000 | tee "$W/bench_cudaleak.out"
"$B/bin/cudaleak" run --device-heap -o "$W/bench_dh.%p.json" -- "$P" bench 1000 | tee "$W/bench_device_heap.out"
"$CUDA/bin/compute-sanitizer" --leak-check full "$P" bench 1000 2>&1 | grep bench | tee "$W/bench_sanitizer.out"
echo "== compute-sanitizer --leak-check full on the same heap program"
"$CUDA/bin/compute-sanitizer" --leak-check full "$P" heap_leak >"$W/sanitizer.out" 2>&1
grep -E "LEAK SUMMARY|ERROR SUMMARY" "$W/sanitizer.out"

python3 - "$W" <<'PY'
import glob, json, re, sys
w = sys.argv[1]
sys.path.insert(0, "tests/gpu")
from checks import check, finish
m = open(f"{w}/measure.out").read()
sms, per_sm = map(int, re.search(r"sms (\d+) threads_per_sm (\d+)", m).groups())
threads = sms * per_sm
# Raising the stack from 1 KiB (the default) to N KiB reserves (N - 1) KiB for every resident thread.
steps = [(int(k), int(r)) for k, r in re.findall(r"stack (\d+) KiB: no error, reserved (-?\d+) more", m)]
prev = 1
for kib, reserved in steps:
    check(reserved == (kib - prev) * 1024 * threads, f"stack {prev} -> {kib} KiB reserved {reserved} = {(kib - prev) * 1024} x {threads}")
    prev = kib
for rt in ("static", "shared"):
    reports = sorted(glob.glob(f"{w}/heap_{rt}.*.json"))
    r = json.load(open(reports[-1])) if reports else {}
    heap = [v for v in r.get("reservations", []) if v["limit"] == "malloc_heap_size"]
    check(len(heap) == 1 and heap[0]["bytes"] == 512 << 20, f"{rt}: the 512 MiB heap is reserved by the context: {heap[:1] and heap[0]['bytes']}")
    names = [f.get("function", "") for f in (heap[0]["stack"] if heap else [])]
    check(any("enlarge_heap" in n for n in names), f"{rt}: its call site is enlarge_heap")
    check(r.get("summary", {}).get("leaked_count", -1) == 0, f"{rt}: not counted as a leak")
    marks = [x["name"] for x in r.get("timeline", {}).get("marks", []) if x["type"] == "limit"]
    check(marks == ["cudaLimitMallocHeapSize = 512.0 MiB: 512.0 MiB reserved"], f"{rt}: a timeline mark {marks}")
    events = []
    for path in sorted(glob.glob(f"{w}/stack_{rt}.*.json")):
        events += json.load(open(path)).get("oom_events", [])
    first = events[0]["diagnosis"][0] if events and events[0].get("diagnosis") else {}
    check(first.get("cause") == "context_reservation", f"{rt}: the stack limit is the first cause: {first.get('cause')}")
    check("limit set in enlarge_stack (device_heap.cu:" in first.get("message", ""), f"{rt}: named with its line: {first.get('message', '')[:120]}")
    res = events[0].get("reservations", []) if events else []
    stack = [v for v in res if v["limit"] == "stack_size"]
    check(len(stack) == 1 and stack[0]["bytes"] == stack[0]["value"] * threads and stack[0]["threads"] == threads,
          f"{rt}: recorded stack reservation = value x {threads} threads")
s = open(f"{w}/sanitizer.out").read()
leak = re.search(r"LEAK SUMMARY: (\d+) bytes leaked in (\d+) allocations", s)
check(bool(leak) and leak.groups() == ("16777216", "4096"), f"compute-sanitizer: {leak and leak.group(0)}")
for rt in ("static", "shared"):
    reports = sorted(glob.glob(f"{w}/dh_{rt}.*.json"))
    r = json.load(open(reports[-1])) if reports else {}
    groups = [g for g in r.get("leaks", []) if g["kind"] == "device_heap"]
    total = (sum(g["count"] for g in groups), sum(g["bytes"] for g in groups))
    s = open(f"{w}/dh_sanitizer_{rt}.out").read()
    leak = re.search(r"LEAK SUMMARY: (\d+) bytes leaked in (\d+) allocations", s)
    cs = (int(leak.group(2)), int(leak.group(1))) if leak else None
    check(total == (4160, 16841216), f"{rt}: device_heap leaks (count, bytes) {total} = 4096 x 4096 B + 64 x 1000 B")
    check(cs == total, f"{rt}: compute-sanitizer on the same binary says {cs}")
    by_kernel = {}
    for g in groups:
        k = g["stack"][0].get("function", "") if g["stack"] else ""
        by_kernel[k] = (by_kernel.get(k, (0, 0))[0] + g["count"], by_kernel.get(k, (0, 0))[1] + g["bytes"])
    check(by_kernel.get("keep_blocks(bool)") == (4096, 16777216) and by_kernel.get("odd_sizes()") == (64, 64000),
          f"{rt}: grouped by kernel {by_kernel}")
    check(all(any(f.get("function") == "main" for f in g["stack"]) for g in groups), f"{rt}: each group has the launch's host stack")
    # Built with -lineinfo: each group names the device line of its malloc.
    lines = {(g["stack"][0].get("function", ""), g["stack"][0].get("file", "").rsplit("/", 1)[-1], g["stack"][0].get("line"))
             for g in groups if g["stack"]}
    check(lines == {("keep_blocks(bool)", "device_heap.cu", 18), ("odd_sizes()", "device_heap.cu", 24)},
          f"{rt}: device lines of the mallocs {sorted(lines, key=str)}")
    text = open(f"{w}/dh_{rt}.out").read()
    check("made by malloc in keep_blocks(bool) at device_heap.cu:18, launched by" in text
          and "made by malloc in odd_sizes() at device_heap.cu:24, launched by" in text, f"{rt}: the text names the malloc lines")
    check(not any(k.startswith(("balanced", "keep_for_later", "free_kept")) for k in by_kernel), f"{rt}: freed device allocations not reported")
src = open("tests/e2e/programs/device_heap_kernels.cu").read().splitlines()
line_of = lambda text: next(i + 1 for i, l in enumerate(src) if text in l)
text = open(f"{w}/kernels_leaks.out").read()
rows, kept = line_of("char* row = static_cast<char*>(malloc(bytes));"), line_of("char* kept = static_cast<char*>(malloc(1000));")
check(f"256.0 KiB of device-heap memory in 64 allocations never freed, made by malloc in keep_rows(int) at device_heap_kernels.cu:{rows}" in text,
      f"kernels leaks: keep_rows's 64 x 4096 B at line {rows}")
check(f"in 16 allocations never freed, made by malloc in odd_sizes() at device_heap_kernels.cu:{kept}" in text,
      f"kernels leaks: odd_sizes's 16 x 1000 B at line {kept}, its freed blocks not reported")
check("scratch_only" not in text, "kernels leaks: a kernel that frees all it takes is not reported")
text = open(f"{w}/kernels_exhaust.out").read()
check(re.search(r"device heap exhausted: 4 device-side mallocs in fill_until_full\(int\) returned NULL \(launched from "
                r"launch_fill \(device_heap_kernels.cu:\d+\)\); the device heap limit \(cudaLimitMallocHeapSize\) is "
                r"[0-9.]+ MiB, set by cudaDeviceSetLimit in enlarge_heap \(device_heap_kernels.cu:\d+\)", text) is not None,
      "kernels exhaust: the full heap names the kernel, its launch, the limit and where it was set")
finish("device heap")
PY
