#!/usr/bin/env bash
# Runs tried as an adversary would, under the simulated GPU, and counts what
# must never happen: hangs, lost reports, green gates that saw nothing or
# were given bad input, wrong totals, and memory past a bound. Prints one
# table row per family and exits non-zero when any count is not 0.
# Usage: scripts/adversarial.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build="$(realpath "${1:-build}")"
cl="$build/bin/cudaleak"
leak="$build/samples/sample_loop_leak_shared"        # leaks 50 allocations, exits 0
crash="$build/tests/e2e/crash_after_leak"             # leaks 1 MiB, then SIGSEGV
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
row() {  # FAMILY RUNS WHAT COUNT
  printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4"
  [ "$4" = 0 ] || bad=1
}
echo "| family | runs | counted | count |"
echo "|---|---|---|---|"

# 1. Concurrent crashes of one run into one name without %p: every report kept.
lost=0
for round in 1 2 3 4 5; do
  d="$tmp/crash$round"; mkdir -p "$d"
  cmd=""; for i in $(seq 10); do cmd+="$crash & "; done
  timeout 120 "$cl" run --simulated-gpu -o "$d/crash.json" -- /bin/sh -c "${cmd}wait" >/dev/null 2>&1
  kept=$(grep -l '"reason": "crash"' "$d"/*.json 2>/dev/null | wc -l)
  lost=$((lost + 10 - kept))
done
row "concurrent crashes, one -o without %p" "5 x 10" "reports lost" "$lost"

# 2. Back-to-back runs with one -o: the file is always the last run's.
stale=0
for i in $(seq 20); do
  err=$(timeout 60 "$cl" run --simulated-gpu -o "$tmp/b2b.json" -- "$leak" 2>&1 >/dev/null)
  pid=$(printf '%s\n' "$err" | grep -o '^==[0-9]*==' | head -1 | tr -d =)
  grep -q "\"pid\": $pid," "$tmp/b2b.json" || stale=$((stale + 1))
done
row "back-to-back runs, one -o" 20 "stale reports" "$stale"

# 3. Bad option values by three routes (flag, CUDALEAK_OPTIONS under the
# launcher, plain preload): never a green exit on a leaking program.
three_routes() {  # KEY VALUE: counts runs and green exits
  local key=$1 value=$2 s1 s2 s3
  timeout 60 "$cl" run --simulated-gpu --error-exitcode 7 "--${key//_/-}" "$value" -o "$tmp/opt.json" -- "$leak" >/dev/null 2>&1
  s1=$?
  CUDALEAK_OPTIONS="error_exitcode=7:$key=$value" timeout 60 "$cl" run --simulated-gpu -o "$tmp/opt.json" -- "$leak" >/dev/null 2>&1
  s2=$?
  CUDALEAK_OPTIONS="error_exitcode=7:output=$tmp/opt.json:$key=$value" LD_PRELOAD="$build/lib/libcudaleak.so" \
    LD_LIBRARY_PATH="$build/lib/cudaleak/simcuda" timeout 60 "$leak" >/dev/null 2>&1
  s3=$?
  for s in $s1 $s2 $s3; do
    runs=$((runs + 1))
    [ "$s" = 0 ] && green=$((green + 1))
  done
}
green=0; runs=0
for kv in error_exitcode=256 error_exitcode=-1 error_exitcode=abc error_exitcode=1e999 \
          error_exitcode=99999999999999999999 gate_error_exitcode=0 fail_on=devise min_bytes=-5 \
          suppressions=/nonexistent/app.supp baseline=/nonexistent/base.json stack_depth=0 stack_depth=999 \
          max_allocations=-1 summary_groups=x report_signal=SIGKILL color=purple pytorch_stacks_at=101; do
  three_routes "${kv%%=*}" "${kv#*=}"
done
row "bad option values x 3 routes, leaking program" "$runs" "green exits" "$green"

# 3b. Every integer and boolean option of the table, each with values no
# parser may take, by the same three routes.
green=0; runs=0
while read -r key type; do
  case $type in
    int) values="abc 1e999 99999999999999999999 0x" ;;
    bool) values="maybe 2" ;;
    *) continue ;;
  esac
  for value in $values; do
    three_routes "$key" "$value"
  done
done < <("$cl" options 2>/dev/null | awk '/^  [a-z_]+ +--[a-z-]+ +(int|bool) /{print $1, $3}')
[ "$runs" -ge 60 ] || { echo "the options table gave only $runs runs"; bad=1; }
row "every int and bool option x values no parser takes x 3 routes" "$runs" "green exits" "$green"

# 4. Hostile output paths: a FIFO with no reader, a symlink, a directory, a
# missing directory, /dev/full, for -o, --junit and --sarif and the -o of report.
hangs=0; followed=0; runs=0
mkfifo "$tmp/fifo"; echo keep >"$tmp/target"; ln -s "$tmp/target" "$tmp/link"; mkdir -p "$tmp/dir"
"$cl" run --simulated-gpu -o "$tmp/base.json" -- "$leak" >/dev/null 2>&1
for path in "$tmp/fifo" "$tmp/link" "$tmp/dir" "$tmp/missing/x/y.json" /dev/full; do
  for how in "run -o" "run --junit" "run --sarif" "report -o"; do
    runs=$((runs + 1))
    case $how in
      "run -o") args=(run --simulated-gpu -o "$path" -- "$leak") ;;
      "run --junit") args=(run --simulated-gpu --junit "$path" -o "$tmp/j.json" -- "$leak") ;;
      "run --sarif") args=(run --simulated-gpu --sarif "$path" -o "$tmp/s.json" -- "$leak") ;;
      "report -o") args=(report "$tmp/base.json" -o "$path") ;;
    esac
    timeout 30 "$cl" "${args[@]}" >/dev/null 2>&1 </dev/null
    [ $? = 124 ] && hangs=$((hangs + 1))
    [ "$(cat "$tmp/target")" = keep ] || { followed=$((followed + 1)); echo keep >"$tmp/target"; }
  done
done
row "hostile output paths x 4 writers" "$runs" "hangs" "$hangs"
row "hostile output paths x 4 writers" "$runs" "symlink targets overwritten" "$followed"

# 5. A process that wrote several reports (a checkpoint, a snapshot, its
# exit) is counted once by report, merge and the HTML page.
wrong=0
d="$tmp/multi"; mkdir -p "$d"
timeout 60 "$cl" run --simulated-gpu -o "$d/r.%p.%n.json" -- "$build/tests/e2e/checkpoints" >/dev/null 2>&1
files=("$d"/r.*.json)
exit_bytes=$(python3 -c "import json,sys; r=[json.load(open(p)) for p in sys.argv[1:]]; print([x for x in r if x['reason']=='exit'][0]['summary']['leaked_bytes'])" "${files[@]}")
"$cl" merge "${files[@]}" -o "$d/merged.json" >/dev/null 2>&1
merged_bytes=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary']['leaked_bytes'])" "$d/merged.json")
[ "${#files[@]}" -ge 2 ] && [ "$exit_bytes" = "$merged_bytes" ] || wrong=$((wrong + 1))
row "one process, ${#files[@]} reports, merged" 1 "wrong totals" "$wrong"

# 6. Reads past the writer's bounds: memory stays bounded (peak RSS, MiB).
python3 - "$tmp" <<'EOF'
import json, sys
d = sys.argv[1]
frame = {"ip": "0x1000", "module": "m", "function": "f", "file": "f.cu", "line": 1}
r = {"format": "cudaleak-report", "format_version": 2, "reason": "exit", "process": {"pid": 1},
     "summary": {"leaked_bytes": 1, "leaked_count": 1},
     "leaks": [{"kind": "device", "api": "cudaMalloc", "bytes": 1, "count": 1, "stack": [frame] * 1000000}]}
json.dump(r, open(d + "/deep.json", "w"))
EOF
/usr/bin/time -f '%M' -o "$tmp/peak" timeout 60 "$cl" report "$tmp/deep.json" >/dev/null 2>&1
peak=$(tail -1 "$tmp/peak")
over=0; [ "${peak:-999999}" -lt 307200 ] || over=1
row "a 1,000,000-frame stack read (peak ${peak} KiB)" 1 "reads over 300 MB" "$over"

# 7. Programs that never use CUDA: no report, no summary, their status kept.
extra=0; changed=0; runs=0
d="$tmp/nocuda"; mkdir -p "$d"
while IFS= read -r line; do
  [ -n "$line" ] || continue
  runs=$((runs + 1))
  # shellcheck disable=SC2086
  plain=$(cd "$d" && timeout 30 sh -c "$line" >/dev/null 2>&1; echo $?)
  # shellcheck disable=SC2086
  traced=$(cd "$d" && timeout 30 "$cl" run --simulated-gpu -o "$d/r.%p.json" -- sh -c "$line" 2>"$d/err" >/dev/null; echo $?)
  [ "$plain" = "$traced" ] || changed=$((changed + 1))
  if ls "$d"/r.*.json >/dev/null 2>&1 || grep -q "cudaleak:" "$d/err"; then extra=$((extra + 1)); rm -f "$d"/r.*.json; fi
done <<'LIST'
true
false
exit 3
ls /
sleep 0.1
echo hello | cat
kill -USR1 $$; exit 0
sh -c 'exit 7'
python3 -c pass
python3 -c 'import sys; sys.exit(4)'
python3 -c 'import os; os.fork() or os._exit(0)'
head -c 1000 /dev/zero | wc -c
(true &) ; wait
find /tmp -maxdepth 0
printf '%s' x | grep -c y
LIST
row "programs that never use CUDA" "$runs" "reports or summaries written" "$extra"
row "programs that never use CUDA" "$runs" "exit statuses changed" "$changed"

# 8. Bad input files for `cudaleak report`: refused with one line and status 2,
# never a hang or a crash.
hangs=0; crashes=0; runs=0
d="$tmp/badfiles"; mkdir -p "$d"
printf '' >"$d/empty.json"
head -c 4096 /dev/urandom >"$d/random.bin"
printf '{"format": "cudaleak-report", "format_version": 2, "reason": "exit", "process": {"pid": 1}, "summary": {}, "leaks": [' >"$d/truncated.json"
printf '{"format": "something-else"}' >"$d/other.json"
printf '{"format": "cudaleak-report", "format_version": 99}' >"$d/newer.json"
printf '[1, 2, 3]' >"$d/array.json"
printf '{"format": "cudaleak-report", "format_version": 2, "reason": "exit", "process": {"pid": 1}, "summary": {"leaked_bytes": -1}, "leaks": []}' >"$d/negative.json"
printf '{"format": "cudaleak-report", "format_version": 2, "reason": "exit", "process": {"pid": 1}, "summary": {"leaked_bytes": 1e999}, "leaks": []}' >"$d/huge.json"
python3 -c "print('[' * 100000)" >"$d/deep.json"
printf '{"format": "cudaleak-raw-capture", "format_version": 1, "stacks": [[1' >"$d/capture.json"
mkfifo "$d/fifo.json"; mkdir "$d/dir.json"; ln -s "$d/loop.json" "$d/loop.json"
for f in "$d"/*.json "$d/random.bin" /dev/zero /nonexistent/report.json; do
  runs=$((runs + 1))
  timeout 30 "$cl" report "$f" >/dev/null 2>&1 </dev/null
  s=$?
  [ "$s" = 124 ] && hangs=$((hangs + 1))
  [ "$s" -gt 128 ] && [ "$s" != 124 ] && crashes=$((crashes + 1))
done
row "bad input files for report" "$runs" "hangs" "$hangs"
row "bad input files for report" "$runs" "crashes" "$crashes"

# 9. Ways of dying with a leak: each leaves a report (KILL excepted) and the
# same end as without cudaleak.
lost=0; changed=0; runs=0
d="$tmp/dying"; mkdir -p "$d"
for sig in TERM INT HUP USR2 ALRM QUIT ABRT SEGV KILL BUS FPE ILL TRAP SYS XCPU XFSZ VTALRM PROF PIPE; do
  runs=$((runs + 1))
  rm -f "$d"/r.*.json "$d/pid"
  timeout 60 "$cl" run --simulated-gpu -o "$d/r.%p.json" -- "$build/tests/e2e/wait_for_signal" "$d/pid" >/dev/null 2>&1 &
  launcher=$!
  for _ in $(seq 100); do [ -s "$d/pid" ] && break; sleep 0.05; done
  kill -"$sig" "$(cat "$d/pid")" 2>/dev/null
  { wait "$launcher"; } 2>/dev/null; s=$?
  expected=$((128 + $(kill -l "$sig")))
  [ "$s" = "$expected" ] || changed=$((changed + 1))
  case $sig in
    TERM|INT|HUP|ABRT|SEGV|BUS|FPE|ILL)  # cudaleak's handlers (crash_report, termination_report)
      ls "$d"/r.*.json >/dev/null 2>&1 || lost=$((lost + 1)) ;;
    *) ;;  # no handler of cudaleak's: the default action, as without it
  esac
done
for how in crash_after_leak stack_overflow; do
  runs=$((runs + 1))
  rm -f "$d"/r.*.json
  { timeout 60 "$cl" run --simulated-gpu -o "$d/r.%p.json" -- "$build/tests/e2e/$how" >/dev/null 2>&1; } 2>/dev/null
  [ $? = 139 ] || changed=$((changed + 1))
  ls "$d"/r.*.json >/dev/null 2>&1 || lost=$((lost + 1))
done
row "ways of dying with a leak" "$runs" "reports lost" "$lost"
row "ways of dying with a leak" "$runs" "ends changed" "$changed"

# 10. Escapes from the preload: a command that drops LD_PRELOAD before a
# program that leaks on the GPU (as env -i, sudo, bazel do): never green.
edges="$build/tests/e2e/launcher_edges"               # linger MS: leaks 1 MiB, holds it MS ms, exits 0
green=0; silent=0; runs=0
for how in env-u env-i unset; do
  runs=$((runs + 1))
  case $how in
    env-u) cmd=(env -u LD_PRELOAD "$edges" linger 400) ;;
    env-i) cmd=(env -i "LD_LIBRARY_PATH=$build/lib/cudaleak/simcuda" "$edges" linger 400) ;;
    unset) cmd=(sh -c 'unset LD_PRELOAD; exec "$0" linger 400' "$edges") ;;
  esac
  err=$(timeout 60 "$cl" run --simulated-gpu --error-exitcode 9 -o "$tmp/esc.json" -- "${cmd[@]}" 2>&1 >/dev/null)
  s=$?
  [ "$s" = 0 ] && green=$((green + 1))
  printf '%s\n' "$err" | grep -q "used the GPU without cudaleak" || silent=$((silent + 1))
done
row "escapes from the preload, leaking program" "$runs" "green exits" "$green"
row "escapes from the preload, leaking program" "$runs" "runs with no line naming the escape" "$silent"

# 11. Runs in separate PID namespaces (containers sharing a volume): every
# program is pid 2 in its own, and every report is kept.
d="$tmp/pidns"; mkdir -p "$d"
if unshare --pid --fork true 2>/dev/null; then
  for i in 1 2 3 4; do
    timeout 60 unshare --pid --fork "$cl" run --simulated-gpu -o "$d/r.%p.json" -- "$edges" linger 200 >/dev/null 2>&1 &
  done
  wait
  lost=$((4 - $(ls "$d"/r.*.json 2>/dev/null | wc -l)))
  row "concurrent runs in 4 PID namespaces, one -o r.%p.json" 4 "reports lost" "$lost"
else
  row "concurrent runs in PID namespaces (unshare --pid not permitted: skipped)" 0 "reports lost" 0
fi

# 12. Descriptor limits: ulimit -n 8 to 12, and a program that uses up its
# own, each with a leak: the report is written and the gate fails on it.
lost=0; wrong=0; runs=0
soft=-Sn; [ "$(id -u)" = 0 ] && soft=-n  # root lowers the hard limit too; others only the soft one
for how in "ulimit $soft 8" "ulimit $soft 9" "ulimit $soft 10" "ulimit $soft 11" "ulimit $soft 12" no-descriptors; do
  runs=$((runs + 1))
  rm -f "$tmp"/fd.*.json
  if [ "$how" = no-descriptors ]; then cmd="exec \"$edges\" no-descriptors"; else cmd="$how; exec \"$edges\" linger 0"; fi
  timeout 60 "$cl" run --simulated-gpu --error-exitcode 9 -o "$tmp/fd.%p.json" -- /bin/sh -c "$cmd" >/dev/null 2>&1
  s=$?
  ls "$tmp"/fd.*.json >/dev/null 2>&1 || lost=$((lost + 1))
  [ "$s" = 9 ] || wrong=$((wrong + 1))
done
row "descriptor limits 8-12 and none left, leaking program" "$runs" "reports lost" "$lost"
row "descriptor limits 8-12 and none left, leaking program" "$runs" "statuses other than the gate's" "$wrong"

# 13. A TMPDIR that is missing, a file, or not writable: one line naming it,
# and the run goes on (the gate's status on a leaking program).
wrong=0; unnamed=0; runs=0
echo x >"$tmp/tmpfile"
for t in "$tmp/missing-tmp" "$tmp/tmpfile" "$tmp/tmpfile/below" /proc; do
  runs=$((runs + 1))
  err=$(TMPDIR="$t" timeout 60 "$cl" run --simulated-gpu --error-exitcode 9 -o "$tmp/td.%p.json" -- "$leak" 2>&1 >/dev/null)
  s=$?
  [ "$s" = 9 ] || wrong=$((wrong + 1))
  printf '%s\n' "$err" | grep -q "TMPDIR=$t" || unnamed=$((unnamed + 1))
done
row "bad TMPDIR, leaking program" "$runs" "statuses other than the gate's" "$wrong"
row "bad TMPDIR, leaking program" "$runs" "runs not naming TMPDIR" "$unnamed"

# 14. Options separated as the sanitizers' are (',', ';', blanks), and a
# trailing backslash: honoured whole or refused, never half (a report named
# "a.json,error_exitcode=7" with status 0).
half=0; runs=0
for sep in "," ";" " " ", "; do
  runs=$((runs + 1))
  rm -f "$tmp/sep.json"*
  CUDALEAK_OPTIONS="output=$tmp/sep.json${sep}error_exitcode=7" timeout 60 "$cl" run --simulated-gpu -- "$leak" >/dev/null 2>&1
  s=$?
  { [ "$s" = 7 ] && [ -f "$tmp/sep.json" ]; } || half=$((half + 1))
done
for route in launcher preload; do
  runs=$((runs + 1))
  if [ $route = launcher ]; then
    CUDALEAK_OPTIONS="output=$tmp/bs.json\\" timeout 60 "$cl" run --simulated-gpu --error-exitcode 7 -- "$leak" >/dev/null 2>&1
  else
    CUDALEAK_OPTIONS="error_exitcode=7:output=$tmp/bs.json\\" LD_PRELOAD="$build/lib/libcudaleak.so" \
      LD_LIBRARY_PATH="$build/lib/cudaleak/simcuda" timeout 60 "$leak" >/dev/null 2>&1
  fi
  s=$?
  [ "$s" = 0 ] && half=$((half + 1))
done
row "option separators and a trailing backslash" "$runs" "half-honoured or green" "$half"

# 15. Control characters in names: a Python function and file named with
# escape sequences and a newline; the text, --by and --gen-suppressions.
raw=0; runs=0
py=$(command -v python3 || true)
if [ -n "$py" ]; then
  runs=1
  out=$(timeout 60 "$cl" run --simulated-gpu --gen-suppressions -o "$tmp/hostile.json" -- "$py" tests/e2e/programs/python_hostile_names.py 2>&1 >/dev/null)
  out+=$(timeout 60 "$cl" report "$tmp/hostile.json" --by function 2>&1)
  printf '%s' "$out" | LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' && raw=$((raw + 1))
  printf '%s\n' "$out" | grep -q '^leak:\* kind:' && raw=$((raw + 1))
fi
row "control characters in names" "$runs" "raw control characters or forged rules" "$raw"

# 16. Programs built with ASan and TSan (gcc's dynamic runtimes): the same
# stdout and status as without cudaleak, and the leak reported.
differ=0; runs=0
for san in address thread; do
  prog="$build/tests/e2e/sanitized_leak_$san"
  [ -x "$prog" ] || continue
  runs=$((runs + 1))
  alone=$(LD_LIBRARY_PATH="$build/lib/cudaleak/simcuda" timeout 60 "$prog" 2>/dev/null); s1=$?
  traced=$(timeout 60 "$cl" run --simulated-gpu -o "$tmp/san.%p.json" -- "$prog" 2>"$tmp/san.err"); s2=$?
  { [ "$s1" = "$s2" ] && [ "$alone" = "$traced" ] && grep -q "never freed" "$tmp/san.err"; } || differ=$((differ + 1))
done
row "ASan and TSan builds" "$runs" "runs unlike the program alone" "$differ"
# 17. Stack churn: every allocation from a call stack never seen before, freed
# at once (a server whose call paths keep changing). The stack depot forgets
# what nothing holds, so memory stays bounded whatever the count; the leaks
# made before the churn keep their stacks. Bounds: 24 MB of growth at the
# default stack_collect_at (16384), against 299 MB for 2^20 stacks before;
# 64 MB at 65536; 12 MB at 4096.
over=0; lost=0; runs=0
d="$tmp/churn"; mkdir -p "$d"
for run in "17 16384 24576" "20 16384 24576" "20 65536 65536" "20 4096 12288"; do
  set -- $run  # BITS STACK_COLLECT_AT BOUND_KB
  runs=$((runs + 1))
  out=$(CUDALEAK_OPTIONS="stack_collect_at=$2" timeout 120 "$cl" run --simulated-gpu -o "$d/r.json" \
        -- "$build/tests/e2e/stack_churn" "$1" 2>/dev/null)
  growth=$(printf '%s\n' "$out" | sed -n 's/.*rss_growth_kb=\([0-9]*\).*/\1/p')
  [ -n "$growth" ] && [ "$growth" -lt "$3" ] || over=$((over + 1))
  [ "$(grep -c 'leak_before_churn' "$d/r.json" 2>/dev/null)" -ge 2 ] || lost=$((lost + 1))
done
row "stack churn (2^17-2^20 new stacks)" "$runs" "runs past the memory bound" "$over"
row "stack churn (2^17-2^20 new stacks)" "$runs" "leaks without their stacks" "$lost"

[ "$bad" = 0 ] && echo "adversarial runs: every count is 0" || echo "adversarial runs: some counts are not 0"
exit "$bad"
