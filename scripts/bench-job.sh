#!/usr/bin/env bash
# A many-rank job read by the cudaleak command: a folder of N rank reports
# (default 1,024 over 128 hosts) cloned from real GPU reports by
# scripts/make-job.py (one rank grew, one host's GPUs held another process),
# then `report` (text, default and --ranks all), `report --format html`,
# `report --format junit` and `sarif` (the job's CI files), `merge` and `diff`
# of it, each with its time, peak memory (/usr/bin/time -v)
# and output size. Not a timed test: numbers for docs/performance.md.
# Usage: scripts/bench-job.sh [RANKS] [HOSTS] [CUDALEAK...]
#   CUDALEAK: binaries to compare (default build/bin/cudaleak), e.g. the one
#   of main's build first, then this tree's: before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
ranks="${1:-1024}"
hosts="${2:-128}"
shift $(( $# < 2 ? $# : 2 ))
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(build/bin/cudaleak)
out="${BENCH_JOB_DIR:-build/bench-job}"
rm -rf "$out"
mkdir -p "$out"
/usr/bin/python3 scripts/make-job.py "$out/job" --ranks "$ranks" --hosts "$hosts" --grow 4 --busy-host 1
# The same job a week later: one rank more grows (diff has something to say).
/usr/bin/python3 scripts/make-job.py "$out/job2" --ranks "$ranks" --hosts "$hosts" --grow 6 --busy-host 1
# The same job with every rank's leak group counted by the gate (each rank a
# JUnit failure and a SARIF result): the CI files at their largest.
/usr/bin/python3 scripts/make-job.py "$out/job-ci" --ranks "$ranks" --hosts "$hosts" --grow 4 --busy-host 1 --counted-leaks
echo "job: $ranks ranks on $hosts hosts, $(ls "$out/job" | wc -l) reports, $(du -sh "$out/job" | cut -f1)"

# measure NAME OUTPUT COMMAND...: time, peak RSS, output bytes and lines.
measure() {
  local name="$1" output="$2"
  shift 2
  local stats="$out/time.txt"
  set +e
  /usr/bin/time -v "$@" >"$out/stdout" 2>"$stats"
  local rc=$?
  set -e
  [ "$output" = "-" ] && output="$out/stdout"
  local secs rss bytes lines
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$stats")
  rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$stats")
  bytes=$(stat -c %s "$output" 2>/dev/null || echo 0)
  lines=$(wc -l <"$output" 2>/dev/null || echo 0)
  printf '  %-28s exit %d  %8s wall  %6s MiB RSS  %11s bytes  %8s lines\n' "$name" "$rc" "$secs" "$rss" "$bytes" "$lines"
}

for tool in "${tools[@]}"; do
  echo "== $tool"
  measure "report" - "$tool" report "$out/job"
  cp "$out/stdout" "$out/report.txt"
  if "$tool" report --help 2>/dev/null | grep -q -- '--ranks'; then
    measure "report --ranks all" - "$tool" report "$out/job" --ranks all
  fi
  measure "report --rank 4" - "$tool" report "$out/job" --rank 4
  measure "report --format html" "$out/job.html" "$tool" report "$out/job" --format html -o "$out/job.html"
  # The CI files of the job (per rank, as `cudaleak run --junit/--sarif` writes them).
  if "$tool" report --help 2>/dev/null | grep -q -- 'junit'; then
    measure "report --format junit" "$out/job.xml" "$tool" report "$out/job" --format junit -o "$out/job.xml"
    measure "report --format sarif" "$out/job.sarif" "$tool" report "$out/job" --format sarif -o "$out/job.sarif"
    measure "job-ci --format junit" "$out/job-ci.xml" "$tool" report "$out/job-ci" --format junit -o "$out/job-ci.xml"
    measure "job-ci --format sarif" "$out/job-ci.sarif" "$tool" report "$out/job-ci" --format sarif -o "$out/job-ci.sarif"
  fi
  measure "merge" "$out/merged.json" "$tool" merge "$out/job" -o "$out/merged.json"
  measure "report merged.json" - "$tool" report "$out/merged.json"
  measure "diff job job2" - "$tool" diff "$out/job" "$out/job2"
  if [ -d tests/browser/node_modules/playwright-core ] && command -v chromium >/dev/null; then
    node tests/browser/render_time.mjs "$out/job.html" | sed 's/^/  chromium: /'
  fi
done
echo "(the last tool's text: $out/report.txt)"
