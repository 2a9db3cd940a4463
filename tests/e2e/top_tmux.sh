#!/usr/bin/env bash
# `cudaleak top` (interactive, ncurses) in a tmux pane beside slow_leak under
# the simulated GPU: the captured screen names the growing site and the sort.
# Exits 77 (CTest's skip) where tmux is not installed.
# Usage: tests/e2e/top_tmux.sh BUILD_DIR OUT_DIR
set -uo pipefail
B="$(realpath "$1")"
O="$(realpath -m "$2")"
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
rm -rf "$O" && mkdir -p "$O"
"$B/bin/cudaleak" run --simulated-gpu --growth-interval-ms 100 -o "$O/r.%p.json" --print-summary false -- \
  "$B/tests/e2e/slow_leak" 12 20 "$O/ready" &
runner=$!
for _ in $(seq 200); do [ -s "$O/ready" ] && break; sleep 0.1; done
[ -s "$O/ready" ] || { echo "slow_leak never started"; kill "$runner"; exit 1; }
pid=$(cat "$O/ready")
sleep 2
session="cudaleak-top-$$"
export TMUX_TMPDIR="$O"  # a server of its own, gone with the folder
tmux new-session -d -s "$session" -x 160 -y 40 "$B/bin/cudaleak top --by-growth --interval-ms 500 $pid"
sleep 3
tmux capture-pane -p -t "$session" >"$O/screen.txt"
tmux send-keys -t "$session" q
sleep 0.5
tmux kill-server 2>/dev/null
wait "$runner"
cat "$O/screen.txt"
fail=0
for want in "cudaleak top" "sorted by growth" "pid $pid slow_leak" "leak_a_little" "/min for "; do
  grep -q -- "$want" "$O/screen.txt" || { echo "FAIL: the screen lacks '$want'"; fail=1; }
done
exit $fail
