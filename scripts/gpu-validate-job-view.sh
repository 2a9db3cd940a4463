#!/usr/bin/env bash
# The folded job view on a real multi-rank job: 8 processes (NPROC) on the
# machine's GPUs over gloo (tests/gpu/python/job_view_job.py) under
# `cudaleak run -o JOB/%h.%p.%n.json -- torchrun`. Rank 3 grows and leaks
# alone, ranks 1, 5 and 7 run out of memory at one line, torchrun ends the
# others. Asserts the text a user reads: every report named by its host; the
# job line; rank 3 said first as unlike the others (grew, against the median
# rank; a leak group no other rank has); the three failures one story with
# their rank list, told once, with the numbers across them; `--ranks all`
# tells each; the text under 200 lines; the HTML page one card per story.
# Prints the raw text. Exits non-zero on a wrong result. The rank reports
# stay in WORK_DIR/job (fixtures for scripts/make-job.py --from).
# Usage: scripts/gpu-validate-job-view.sh [BUILD_DIR] [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-job-view}")"
nproc="${NPROC:-8}"
rm -rf "$W"; mkdir -p "$W/job"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi -L
"$B/bin/cudaleak" run -o "$W/job/%h.%p.%n.json" -- python3 -m torch.distributed.run --standalone \
  --nproc_per_node "$nproc" tests/gpu/python/job_view_job.py >"$W/job.out" 2>&1
echo "job status $?"
"$B/bin/cudaleak" report "$W/job" >"$W/job.txt" 2>&1
"$B/bin/cudaleak" report "$W/job" --ranks all >"$W/all.txt" 2>&1
"$B/bin/cudaleak" report "$W/job" --rank 3 >"$W/rank3.txt" 2>&1
"$B/bin/cudaleak" report "$W/job" --format html -o "$W/job.html" 2>&1
ls "$W/job"
echo "== cudaleak report job/ ($(wc -l <"$W/job.txt") lines)"
cut -c1-400 "$W/job.txt"

python3 - "$W" "$nproc" <<'PY'
import glob, json, os, re, socket, sys
sys.path.insert(0, "tests/gpu")
from checks import check, finish
w, nproc = sys.argv[1], int(sys.argv[2])
host = socket.gethostname()
names = sorted(os.path.basename(p) for p in glob.glob(f"{w}/job/*.json"))
check(len(names) >= nproc and all(n.startswith(host + ".") for n in names), f"every report named by its host: {names[:3]}...")
text = open(f"{w}/job.txt").read()
every = open(f"{w}/all.txt").read()
src = open("tests/gpu/python/job_view_job.py").read().splitlines()
oom_line = next(i + 1 for i, l in enumerate(src) if "torch.empty(free" in l)
h = re.escape(host)
check(f"job: ranks 0-{nproc - 1} of {nproc} (torchrun) on host {host}\n" in text, "the job line")
odd = text.find("unlike the others:\n")
check(odd >= 0 and odd < text.find("ran out of memory"), "the odd rank said before the out-of-memory story")
check(re.search(rf"  rank 3 \(pid \d+ on {h}\) grew to [0-9.]+ GiB on device \d+ \(from .*\), while the median rank "
                rf"peaked at [0-9.]+ [MG]iB \([0-9.]+x\)\n", text) is not None, "rank 3 grew, against the median rank")
check(re.search(rf"  rank 3 \(pid \d+ on {h}\) alone leaked 64.0 MiB \(1 device resource\) in leak_through_the_driver "
                r"\(rank_steps.py:\d+\): no other rank has this leak group\n", text) is not None,
      "rank 3's leak group, which no other rank has")
story = re.search(rf"3 ranks ran out of memory in <module> \(job_view_job.py:{oom_line}\): ranks 1,5,7; rank ([157]) "
                  rf"\(pid \d+ on {h}\) first, at ", text)
check(story is not None, "ranks 1, 5 and 7: one story with its rank list, the first failing rank named")
check(text.count("Likely causes, most likely first:") == 1, "the story told once")
check(re.search(r"  Across the 3 ranks: between [0-9.]+ [mu]?s and [0-9.]+ [mu]?s of the job", text) is not None,
      "the numbers across the three ranks")
check(re.search(r"  The other ranks at that moment: rank 0 on device 0 held ", text) is not None,
      "the other ranks at that moment (7: listed)")
check(every.count("Likely causes, most likely first:") == 3, "--ranks all: each rank's out-of-memory told")
check(text.count("\n") < 200, f"the job's text under 200 lines: {text.count(chr(10))}")
rank3 = open(f"{w}/rank3.txt").read()
check("64.0 MiB of device memory in 1 allocation never freed" in rank3, "--rank 3: its leak")
page = open(f"{w}/job.html").read()
check('"title":"3 ranks ran out of memory in <module>' in page.replace("\\u003c", "<"), "the HTML page: one card for the story")
finish("job view")
PY
