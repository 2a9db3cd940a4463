#!/usr/bin/env bash
# Real-GPU soak test of growth by line (issue 56): two PyTorch inference loops
# side by side under `cudaleak run` for SECONDS (default 600): one keeps a
# 64 KiB copy of an output every 100 requests from one line
# (tests/gpu/live/soak_loop.py keep_for_debugging), one is clean. The copies
# land inside the caching allocator's small segments, so the line is named by
# PyTorch's live tensors by line (--pytorch-stacks, a view every 2 s). Captures
# `cudaleak top --once` of both every 60 s, and the interactive view with tmux
# where tmux exists; at the end asserts that the leaky run's exit report, its
# JSON and top name keep_for_debugging with a rate per minute and per 1,000
# requests, and that the clean run grew nowhere ("flat" in top).
#
# Usage:
#   scripts/gpu-validate-soak.sh STAGE OUT [SECONDS]            all in one command (SECONDS + ~40 s)
#   scripts/gpu-validate-soak.sh --start STAGE OUT [SECONDS]    starts both loops detached, returns at once
#   scripts/gpu-validate-soak.sh --collect STAGE OUT            captures while they run, then checks;
#                                                               exits 3 after ~540 s if they still run:
#                                                               call --collect again
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
mode=all
case "${1:-}" in --start) mode=start; shift ;; --collect) mode=collect; shift ;; esac
B="$(realpath "${1:-build}")"
O="$(realpath -m "${2:-build/gpu-soak}")"
seconds="${3:-600}"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
py="${PYTHON:-python3}"
[ -z "${PYTHON:-}" ] && [ -x /opt/torch/.venv/bin/python ] && py=/opt/torch/.venv/bin/python
loop="$repo/tests/gpu/live/soak_loop.py"
run_opts=(--pytorch-stacks true --view-interval-ms 2000)
failures=0
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3' in:"; echo "$2" | tail -12; failures=$((failures + 1)); fi
}
lacks() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "FAIL $1: '$3' in:"; grep -E -- "$3" <<<"$2" | head -5; failures=$((failures + 1)); else echo "PASS $1"; fi
}

start() {
  rm -rf "$O" && mkdir -p "$O"
  date +%s >"$O/started"
  echo "$seconds" >"$O/seconds"
  for which in leaky clean; do
    leak=(); [ "$which" = leaky ] && leak=(--leak)
    # setsid nohup: the loops outlive the command that started them.
    setsid nohup bash -c '"$@"; echo $? >"'"$O/$which.status"'"' _ \
      "$B/bin/cudaleak" run "${run_opts[@]}" -o "$O/$which.%p.json" -- "$py" "$loop" "${leak[@]}" \
      --seconds "$seconds" --ready "$O/$which.pid" >"$O/$which.out" 2>"$O/$which.err" </dev/null &
  done
  for _ in $(seq 300); do [ -s "$O/leaky.pid" ] && [ -s "$O/clean.pid" ] && break; sleep 0.2; done
  [ -s "$O/leaky.pid" ] && [ -s "$O/clean.pid" ] || { echo "FAIL the loops never started"; tail "$O"/*.err; exit 1; }
  echo "leaky pid $(cat "$O/leaky.pid"), clean pid $(cat "$O/clean.pid"), for $seconds s; captures in $O"
}

running() { [ ! -e "$O/leaky.status" ] || [ ! -e "$O/clean.status" ]; }

capture() {  # one moment: top --once of both, named by seconds since the start
  local t=$(( $(date +%s) - $(cat "$O/started") ))
  for which in leaky clean; do
    "$B/bin/cudaleak" top --once --by-growth "$(cat "$O/$which.pid")" >"$O/top-$which-${t}s.txt" 2>&1
  done
  echo "captured top at ${t} s"
}

tmux_capture() {
  if ! command -v tmux >/dev/null; then
    echo "SKIP tmux capture: tmux is not installed" | tee "$O/tmux-skipped.txt"
    return
  fi
  export TMUX_TMPDIR="$O"
  tmux new-session -d -s cudaleak-soak -x 200 -y 50 \
    "$B/bin/cudaleak top --by-growth $(cat "$O/leaky.pid") $(cat "$O/clean.pid")"
  sleep 6
  tmux capture-pane -p -t cudaleak-soak >"$O/top-screen.txt"
  tmux capture-pane -p -e -t cudaleak-soak >"$O/top-screen.ansi"
  tmux send-keys -t cudaleak-soak q; sleep 1; tmux kill-server 2>/dev/null
  echo "tmux capture: $O/top-screen.txt"
}

collect() {
  [ -s "$O/started" ] || { echo "FAIL nothing started in $O (run --start first)"; exit 1; }
  local began=$SECONDS tmuxed=0
  while running; do
    capture
    if [ "$tmuxed" = 0 ] && [ $(( $(date +%s) - $(cat "$O/started") )) -ge 120 ]; then tmux_capture; tmuxed=1; fi
    if [ $((SECONDS - began)) -ge 540 ]; then
      echo "still running after 540 s of this command: call --collect again"
      exit 3
    fi
    for _ in $(seq 60); do running || break; sleep 1; done
  done
  [ -e "$O/top-screen.txt" ] || [ -e "$O/tmux-skipped.txt" ] || echo "(no tmux capture: the loops ended before 120 s)"
  check
}

check() {
  echo "leaky exit status $(cat "$O/leaky.status"), clean $(cat "$O/clean.status")"
  local leaky_err clean_err last_leaky last_clean
  leaky_err=$(cat "$O/leaky.err"); clean_err=$(cat "$O/clean.err")
  has "leaky loop ran to its end" "$(cat "$O/leaky.out")" "^served [0-9]+ requests"
  has "exit text: a line of the program grew steadily" "$leaky_err" "lines? of the program grew steadily"
  has "exit text: PyTorch's live tensors at the leaking line, per 1,000 requests and per minute" "$leaky_err" \
    "PyTorch's live tensors at keep_for_debugging \(soak_loop.py:[0-9]+\): grew steadily for [0-9]+ min [0-9]+ s, \+[0-9.]+ [KMG]iB \(\+[0-9.]+ [KMG]iB per 1,000 requests, \+[0-9.]+ [KMG]iB per minute\), never fell"
  lacks "exit text: nothing of the clean loop grew" "$clean_err" "grew steadily"
  last_leaky=$(ls "$O"/top-leaky-*s.txt 2>/dev/null | sort -t- -k3 -n | tail -2 | head -1)
  last_clean=$(ls "$O"/top-clean-*s.txt 2>/dev/null | sort -t- -k3 -n | tail -2 | head -1)
  if [ -n "$last_leaky" ]; then
    has "top ($last_leaky): the leaking line with its rate" "$(cat "$last_leaky")" \
      "/1k req, \+[0-9.]+ [KMG]iB/min +PyTorch's live tensors at keep_for_debugging"
    lacks "top ($last_clean): nothing of the clean loop grows" "$(cat "$last_clean")" "/min"
    has "top ($last_clean): the clean loop is flat" "$(cat "$last_clean")" " flat "
  else
    echo "FAIL no top capture"; failures=$((failures + 1))
  fi
  [ -e "$O/top-screen.txt" ] && has "tmux: the interactive view names the leaking line" "$(cat "$O/top-screen.txt")" "keep_for_debugging"
  "$py" - "$O" <<'PYEOF' || failures=$((failures + 1))
import glob, json, sys
out = sys.argv[1]
def growth(prefix):
    [path] = glob.glob(f"{out}/{prefix}.*.json")
    r = json.load(open(path))
    return [g for d in r["timeline"]["devices"] for g in d.get("growth", [])]
leaky = [g for g in growth("leaky") if g.get("steady")]
clean = [g for g in growth("clean") if g.get("steady")]
lines = [g for g in leaky if g.get("view") == "pytorch" and g["where"].startswith("keep_for_debugging")]
for g in leaky:
    rise = g["level"] - g["since_bytes"]
    per_k = rise * 1000 / g["rise_requests"] if g.get("rise_requests") else 0
    print("JSON: leaky steady: %s %s rise %.1f MiB, %.2f MiB per 1,000 requests, %d points"
          % (g.get("view", "site"), g["where"], rise / 2**20, per_k / 2**20, len(g["history"])))
print("JSON: clean steady:", [(g.get("view", "site"), g["where"]) for g in clean])
ok = bool(lines) and not clean and all(len(g["history"]) <= 240 for g in growth("leaky"))
print(("PASS" if ok else "FAIL") + " JSON: keep_for_debugging's line grew steadily; the clean run has no steady site or line")
sys.exit(0 if ok else 1)
PYEOF
  echo "--- the last top --once of each"; cat "$last_leaky" "$last_clean" 2>/dev/null
  echo "--- tmux capture"; cat "$O/top-screen.txt" 2>/dev/null
  echo "--- leaky exit text (tail)"; tail -30 "$O/leaky.err"
  echo "--- clean exit text (tail)"; tail -12 "$O/clean.err"
  echo "failures: $failures"
  exit $((failures > 0))
}

case "$mode" in
  start) start ;;
  collect) collect ;;
  all) start; collect ;;
esac
