#!/usr/bin/env bash
# The main job: build cudaleak (only what the tool and its samples need), then
# show what it does on the samples: a leak with the line that made it, the CI
# gate failing and then passing with a suppression, an out-of-memory
# explained, and the HTML report. On the real GPU when this machine has one
# (samples with nvcc's default static cudart), else under the simulated GPU.
# Reports land in build/demo/. CUDALEAK_BUILD=DIR shows an existing build
# (a scripts/stage-build.sh copy on a GPU machine) without building.
set -euo pipefail
cd "$(dirname "$0")/.."
b="${CUDALEAK_BUILD:-}"
if [ -z "$b" ]; then
  scripts/setup.sh --demo
  b=build
fi

out=$b/demo
rm -rf "$out" && mkdir -p "$out"
if nvidia-smi -L >/dev/null 2>&1; then
  echo "== real GPU: $(nvidia-smi -L | head -1)"
  sim=()
  x=""
else
  echo "== no GPU here: the simulated GPU ($b/lib/cudaleak/simcuda), with 512 MiB of device memory"
  sim=(--simulated-gpu --simulated-gpu-memory 512MiB)
  x="_shared"
fi
cudaleak=("$b/bin/cudaleak")
bold="" plain=""
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; fi
step() { printf '\n%s== %s%s\n' "$bold" "$1" "$plain"; }
# The command exactly as it runs, quoted as the shell reads it, then what
# (if anything) its output goes through.
show() {
  local tail="$1"
  shift
  printf '$'
  printf ' %q' "$@"
  printf '%s\n' "$tail"
}
status() { echo "(exit status $1)"; }

step "1. A leak on an exception path: the buffer of the failing batch, with the line that allocated it"
c=("${cudaleak[@]}" run "${sim[@]}" -o "$out/leak.%p.json" -- "$b/samples/sample_exception_leak$x")
show "" "${c[@]}"
s=0; "${c[@]}" || s=$?
status $s

step "2. The CI gate: a loop that leaks each step fails the run"
c=("${cudaleak[@]}" run "${sim[@]}" --error-exitcode 1 --gen-suppressions --summary-groups 1 -o "$out/gate.%p.json"
   -- "$b/samples/sample_loop_leak$x")
show " 2>&1 | tee $(printf %q "$out/gate.txt")" "${c[@]}"
s=0; "${c[@]}" 2>&1 | tee "$out/gate.txt" || s=${PIPESTATUS[0]}
status $s
grep '^leak:' "$out/gate.txt" >"$out/accepted.supp"
echo "-> accepted as known: $(cat "$out/accepted.supp") (into $out/accepted.supp)"
step "   ... and passes once that leak is suppressed"
c=("${cudaleak[@]}" run "${sim[@]}" --error-exitcode 1 --suppressions "$out/accepted.supp" -o "$out/gated.%p.json"
   -- "$b/samples/sample_loop_leak$x")
show " 2>&1 | sed -n '/Suppressions used/,\$p'" "${c[@]}"
s=0; "${c[@]}" 2>&1 | sed -n '/Suppressions used/,$p' || s=${PIPESTATUS[0]}
status $s

step "3. Out of memory: a loop keeps every step's activations; the failing request is not the culprit"
c=("${cudaleak[@]}" run "${sim[@]}" --print-summary false -o "$out/oom.%p.json" -- "$b/samples/sample_oom_leak$x")
show "" "${c[@]}"
s=0; "${c[@]}" || s=$?
status $s

step "4. Everything in one page: leaks, the out-of-memory diagnosis, memory over time"
c=("${cudaleak[@]}" report "$out"/leak.*.json "$out"/oom.*.json --format html -o "$out/report.html")
show "" "${c[@]}"
"${c[@]}"
echo "Open $(realpath "$out/report.html") in a browser. Reports: $out/"
