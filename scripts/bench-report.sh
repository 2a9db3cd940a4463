#!/usr/bin/env bash
# Report sizes and times with N live allocations (default 1,000,000) from four
# call sites, under the simulated GPU: the exit report with default settings
# and with every allocation listed, then reading and rendering that report; and
# the HTML page of N allocations from 1,000 call sites, opened in Chromium.
# Usage: scripts/bench-report.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-1000000}"
out=build/bench-report
mkdir -p "$out"
B=build/bin/cudaleak
P=build/tests/bench/bench_many_allocations
export CUDALEAK_SIM_MEMORY=64GiB
echo "== exit report, default settings"
$B run --simulated-gpu --verbose true -o "$out/default.json" -- $P "$n" 2>&1 | grep "report of"
echo "== exit report, every allocation listed"
$B run --simulated-gpu --verbose true --max-allocations 0 -o "$out/all.json" -- $P "$n" 2>&1 | grep "report of"
ls -la "$out/all.json" | awk '{print "size:", $5, "bytes"}'
echo "== cudaleak report (text, top 3)"
/usr/bin/time -f "%e s, %M KiB max RSS" $B report "$out/all.json" --top 3 >/dev/null
echo "== cudaleak report --kind pinned --format html"
/usr/bin/time -f "%e s, %M KiB max RSS" $B report "$out/all.json" --kind pinned --format html -o "$out/all.html"
ls -la "$out/all.html" | awk '{print "html size:", $5, "bytes"}'
echo "== cudaleak report --format html (every kind), opened in Chromium"
$B report "$out/all.json" --format html -o "$out/all-kinds.html"
ls -la "$out/all-kinds.html" | awk '{print "html size:", $5, "bytes"}'
render() { node tests/browser/render_time.mjs "$1"; }
if [ -d tests/browser/node_modules/playwright-core ] && command -v chromium >/dev/null; then
  render "$out/all-kinds.html"
  echo "== $n allocations from 1,000 call sites: exit report, HTML, Chromium"
  $B run --simulated-gpu --verbose true -o "$out/spread.json" -- $P "$n" spread 2>&1 | grep "report of"
  /usr/bin/time -f "%e s, %M KiB max RSS" $B report "$out/spread.json" --format html -o "$out/spread.html"
  ls -la "$out/spread.json" "$out/spread.html" | awk '{print $9 ":", $5, "bytes"}'
  render "$out/spread.html"
else
  echo "(no Chromium or playwright-core: render times skipped)"
fi
