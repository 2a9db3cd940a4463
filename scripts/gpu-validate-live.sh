#!/usr/bin/env bash
# Real-GPU check of growth by site and `cudaleak top` (issue 56): a PyTorch
# inference loop with a slow leak of our own making (tests/gpu/live/
# inference_loop.py --leak: an 8 MiB output kept every second) and the same
# loop without it, side by side under `cudaleak run`, for DURATION seconds.
# Asserts that `cudaleak top --once` names the leaking line with a growth rate
# and calls the clean process's sites flat, that the exit reports say the same
# (text and JSON), and that fail_on_growth fails the leaky run only. Captures
# the interactive view with tmux into OUT (top-screen.txt, top-screen.ansi).
# Usage: scripts/gpu-validate-live.sh [STAGE_OR_BUILD] [OUT] [DURATION_S=180]
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
B="$(realpath "${1:-build}")"
O="$(realpath -m "${2:-build/gpu-live}")"
duration="${3:-180}"
rm -rf "$O" && mkdir -p "$O"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
py="${PYTHON:-python3}"
failures=0
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3' in:"; echo "$2" | tail -8; failures=$((failures + 1)); fi
}
lacks() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "FAIL $1: '$3' in:"; grep -E -- "$3" <<<"$2" | head -5; failures=$((failures + 1)); else echo "PASS $1"; fi
}
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "PASS $1: $3"; else echo "FAIL $1: got '$3', expected '$2'"; failures=$((failures + 1)); fi
}
loop="$repo/tests/gpu/live/inference_loop.py"
gate=(--error-exitcode 7 --fail-on-growth 64MiB/min --fail-on pinned)  # only growth counts
"$B/bin/cudaleak" run -o "$O/leaky.%p.json" "${gate[@]}" -- "$py" "$loop" --leak --seconds "$duration" \
  --ready "$O/leaky.pid" >"$O/leaky.out" 2>"$O/leaky.err" &
leaky_runner=$!
"$B/bin/cudaleak" run -o "$O/clean.%p.json" "${gate[@]}" -- "$py" "$loop" --seconds "$duration" \
  --ready "$O/clean.pid" >"$O/clean.out" 2>"$O/clean.err" &
clean_runner=$!
for _ in $(seq 600); do [ -s "$O/leaky.pid" ] && [ -s "$O/clean.pid" ] && break; sleep 0.2; done
leaky=$(cat "$O/leaky.pid" 2>/dev/null); clean=$(cat "$O/clean.pid" 2>/dev/null)
[ -n "$leaky" ] && [ -n "$clean" ] || { echo "FAIL the loops never started"; cat "$O"/*.err; exit 1; }
echo "leaky pid $leaky, clean pid $clean; watching for about $((duration * 6 / 10)) s"
sleep $((duration * 6 / 10))

all=$("$B/bin/cudaleak" top --once 2>&1); echo "$all" >"$O/top-all.txt"
has "top --once lists the leaky process" "$all" "^pid $leaky "
has "top --once lists the clean process" "$all" "^pid $clean "
top_leaky=$("$B/bin/cudaleak" top --once --by-growth "$leaky" 2>&1); echo "$top_leaky" >"$O/top-leaky.txt"
top_clean=$("$B/bin/cudaleak" top --once --by-growth "$clean" 2>&1); echo "$top_clean" >"$O/top-clean.txt"
has "top: the leaky loop's line grows" "$top_leaky" "/min for .*keep_for_debugging"
lacks "top: nothing of the clean loop grows" "$top_clean" "/min for "
has "top: the clean loop's sites are flat" "$top_clean" " flat "

if command -v tmux >/dev/null; then
  export TMUX_TMPDIR="$O"
  tmux new-session -d -s cudaleak-live -x 200 -y 50 "$B/bin/cudaleak top --by-growth $leaky $clean"
  sleep 4
  tmux capture-pane -p -t cudaleak-live >"$O/top-screen.txt"
  tmux capture-pane -p -e -t cudaleak-live >"$O/top-screen.ansi"
  tmux send-keys -t cudaleak-live j; sleep 2
  tmux capture-pane -p -t cudaleak-live >"$O/top-screen-selected.txt"
  tmux send-keys -t cudaleak-live q; sleep 1; tmux kill-server 2>/dev/null
  has "tmux: the interactive view names the leaking line" "$(cat "$O/top-screen.txt")" "keep_for_debugging"
else
  echo "SKIP tmux screenshots: tmux not installed"
fi

wait "$leaky_runner"; leaky_status=$?
wait "$clean_runner"; clean_status=$?
check "fail_on_growth fails the leaky run" 7 "$leaky_status"
check "fail_on_growth passes the clean run" 0 "$clean_status"
leaky_err=$(cat "$O/leaky.err"); clean_err=$(cat "$O/clean.err")
has "exit text: the leaky site grew steadily" "$leaky_err" "grew steadily for .* per minute\), never fell"
has "exit text: at the leaking line" "$leaky_err" "keep_for_debugging"
has "exit text: the gate names growth" "$leaky_err" "grew steadily past fail_on_growth"
lacks "exit text: nothing of the clean loop grew" "$clean_err" "grew steadily"
"$py" - "$O" <<'PYEOF' || failures=$((failures + 1))
import glob, json, sys
out = sys.argv[1]
def sites(prefix):
    [path] = glob.glob(f"{out}/{prefix}.*.json")
    r = json.load(open(path))
    return [g for d in r["timeline"]["devices"] for g in d.get("growth", [])]
leaky = [g for g in sites("leaky") if g.get("steady")]
clean = [g for g in sites("clean") if g.get("steady")]
named = [g for g in leaky if any(f.get("function", "").endswith("keep_for_debugging") for f in g["stack"])]
print("JSON: leaky steady sites:", [(g["where"], g["level"] - g["since_bytes"]) for g in leaky])
print("JSON: clean steady sites:", [(g["where"]) for g in clean])
ok = bool(named) and not clean and all(len(g["history"]) <= 240 for g in sites("leaky"))
print(("PASS" if ok else "FAIL") + " JSON: the leaky report's steady site is keep_for_debugging's, the clean one has none")
sys.exit(0 if ok else 1)
PYEOF
echo "--- top --once of both"; cat "$O/top-all.txt"
echo "--- tmux screenshot"; cat "$O/top-screen.txt" 2>/dev/null
echo "--- leaky exit text (tail)"; tail -40 "$O/leaky.err"
echo "--- clean exit text (tail)"; tail -15 "$O/clean.err"
echo "failures: $failures"
exit $((failures > 0))
