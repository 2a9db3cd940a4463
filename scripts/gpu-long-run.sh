#!/usr/bin/env bash
# A PyTorch job left under cudaleak for a long time (tests/gpu/python/long_training.py),
# in phases so that each fits one command of a lent machine:
#   start STAGE OUT_DIR SECONDS   a plain run of 90 s (the reference), then the
#                                 traced job started in a session of its own,
#                                 and a snapshot signal sent to it halfway
#   wait OUT_DIR SECONDS          waits, then prints what the job printed
#   finish OUT_DIR                waits for the job's end, then checks that the
#                                 final report names the lines (exits non-zero if not)
set -uo pipefail
cd "$(dirname "$0")/.."
phase="${1:?usage: scripts/gpu-long-run.sh start|wait|finish ...}"
case $phase in
  start)
    stage="$2" out="$3" seconds="$4"
    mkdir -p "$out"
    timeout 300 python3 tests/gpu/python/long_training.py 90 >"$out/plain.log" 2>&1
    echo "plain run: exit $?"
    setsid nohup "$stage/bin/cudaleak" run --verbose true -o "$out/r.%p.%n.json" -- \
      python3 tests/gpu/python/long_training.py "$seconds" >"$out/traced.log" 2>&1 </dev/null &
    setsid nohup bash -c "sleep $((seconds / 2)); pkill -USR1 -f '^python3 tests/gpu/python/long_training.py'" \
      >/dev/null 2>&1 </dev/null &
    sleep 20
    grep -E "minute|report at" "$out/plain.log" | tail -3
    ;;
  wait)
    sleep "$3"
    grep -E "minute|report at|snapshot|out of memory" "$2/traced.log" | tail -40
    ;;
  finish)
    out="$2"
    for _ in $(seq 100); do grep -q '^done' "$out/traced.log" && break; sleep 5; done
    grep -E "minute|report at|report of|snapshot|out of memory|done" "$out/traced.log" | tail -60
    python3 - "$out" <<'PY'
import glob, json, os, re, sys
out = sys.argv[1]
log = open(os.path.join(out, "traced.log")).read()
ok = True
def check(cond, what):
    global ok
    print(("ok    " if cond else "FAIL  ") + what)
    ok &= bool(cond)
rs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(out, "r.*.json")))]
exits = [r for r in rs if r["reason"] == "exit"]
check(exits, "an exit report")
check(any(r["reason"] == "signal" for r in rs), "the snapshot signal's report")
check(sum(r["reason"] == "checkpoint" for r in rs) >= 5, "the reports the program asked for")
check("done" in log, "the job ran to its end")
check("fill (long_training.py:" in log, "the out-of-memory text names fill")
check(re.search(r"in segments reserved by train_step \(long_training.py:\d+\)|from train_step \(long_training.py:\d+\)", log),
      "the exit text names the debug list's line")
sys.exit(0 if ok else 1)
PY
    ;;
esac
