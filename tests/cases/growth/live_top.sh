# Growth by site and `cudaleak top` on a real GPU (issue 56): a PyTorch
# inference loop with a slow leak of our own making (tests/gpu/live/
# inference_loop.py --leak: an 8 MiB output kept every second) and the same
# loop without it, side by side under `cudaleak run` for 150 s, gated on
# growth only (--fail-on-growth 64MiB/min --fail-on pinned). `top --once`
# lists both, names the leaking line with a growth rate and calls the clean
# loop's sites flat; the interactive view in tmux names the line (the
# screens stay in the case's folder: top-screen.txt, top-screen.ansi,
# top-screen-selected.txt, as docs/images shows them); fail_on_growth fails
# the leaky run only; its exit text says the site grew steadily, at the
# leaking line; the JSON's steady site is keep_for_debugging's, the clean
# report has none, and no site keeps more than 240 points of history.
# (This file is the script the case runs.)
# REQUIRES: gpu, torch, command=tmux, long
# RUN: bash %s %t 150 %python %cudaleak
# CHECK: leaky run: status 7
# CHECK: clean run: status 0
# RUN: %expr %t/leaky \
# RUN:   '("pid " + text("%t/leaky.pid").strip() + " ") in text("%t/top-all.txt")' \
# RUN:   '("pid " + text("%t/clean.pid").strip() + " ") in text("%t/top-all.txt")'
# CHECK-COUNT(2): holds:
# RUN: cat %t/top-leaky.txt
# CHECK-RE: /min for .*keep_for_debugging
# RUN: cat %t/top-clean.txt
# CHECK: flat
# CHECK-NONE: /min for
# RUN: cat %t/top-screen.txt
# CHECK: keep_for_debugging
# RUN: cat %t/leaky.err
# CHECK-DAG-RE: grew steadily for .* per minute\), never fell
# CHECK-DAG: keep_for_debugging
# CHECK-DAG: grew steadily past fail_on_growth
# RUN: cat %t/clean.err
# CHECK-NONE: grew steadily
# RUN: %expr %t/leaky \
# RUN:   'any(g.get("steady") and any(f.get("function", "").endswith("keep_for_debugging") for f in g["stack"]) for d in r["timeline"]["devices"] for g in d.get("growth", []))' \
# RUN:   'all(len(g["history"]) <= 240 for d in r["timeline"]["devices"] for g in d.get("growth", []))'
# CHECK-COUNT(2): holds:
# RUN: %expr %t/clean 'not [g for d in r["timeline"]["devices"] for g in d.get("growth", []) if g.get("steady")]'
# CHECK: holds:
set -u
out="$1" duration="$2" py="$3"
shift 3
cudaleak="$1"
loop="$(cd "$(dirname "$0")/../../gpu/live" && pwd)/inference_loop.py"
gate=(--error-exitcode 7 --fail-on-growth 64MiB/min --fail-on pinned)  # only growth counts
"$cudaleak" run -o "$out/leaky/r.%p.json" "${gate[@]}" -- "$py" "$loop" --leak --seconds "$duration" \
  --ready "$out/leaky.pid" > "$out/leaky.out" 2> "$out/leaky.err" &
leaky_runner=$!
"$cudaleak" run -o "$out/clean/r.%p.json" "${gate[@]}" -- "$py" "$loop" --seconds "$duration" \
  --ready "$out/clean.pid" > "$out/clean.out" 2> "$out/clean.err" &
clean_runner=$!
for _ in $(seq 600); do [ -s "$out/leaky.pid" ] && [ -s "$out/clean.pid" ] && break; sleep 0.2; done
leaky=$(cat "$out/leaky.pid" 2> /dev/null) clean=$(cat "$out/clean.pid" 2> /dev/null)
echo "leaky pid $leaky, clean pid $clean; watching for about $((duration * 6 / 10)) s"
sleep $((duration * 6 / 10))
"$cudaleak" top --once > "$out/top-all.txt" 2>&1
"$cudaleak" top --once --by-growth "$leaky" > "$out/top-leaky.txt" 2>&1
"$cudaleak" top --once --by-growth "$clean" > "$out/top-clean.txt" 2>&1
export TMUX_TMPDIR="$out"  # a tmux server of its own
tmux new-session -d -s cudaleak-live -x 200 -y 50 "$cudaleak top --by-growth $leaky $clean"
sleep 4
tmux capture-pane -p -t cudaleak-live > "$out/top-screen.txt"
tmux capture-pane -p -e -t cudaleak-live > "$out/top-screen.ansi"
tmux send-keys -t cudaleak-live j
sleep 2
tmux capture-pane -p -t cudaleak-live > "$out/top-screen-selected.txt"
tmux send-keys -t cudaleak-live q
sleep 1
tmux kill-server 2> /dev/null
wait "$leaky_runner"
echo "leaky run: status $?"
wait "$clean_runner"
echo "clean run: status $?"
