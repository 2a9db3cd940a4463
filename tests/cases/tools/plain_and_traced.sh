#!/usr/bin/env bash
# Runs a command alone, then under cudaleak, and says whether cudaleak
# changed what the program did: "NAME: same status (S)" or "NAME: status
# differs (P alone, T traced)", then "NAME: same stdout" or "NAME: stdout
# differs". A case checks these lines (CHECK-NONE: differs); the outputs stay
# in NAME.alone.out, NAME.alone.err, NAME.traced.out and NAME.traced.err for
# checks on what cudaleak printed. With TIMEOUT set, each run is bounded by
# it (timeout(1): status 124 past it); with STATUS_ONLY=1 the stdout is not
# compared (a program that prints timings); with RUN_PRELOAD set, both runs
# (not this script's own tools) have it as LD_PRELOAD, the user's preload of
# a sanitizer runtime that `cudaleak run` keeps first.
# Usage: plain_and_traced.sh NAME LAUNCHER... -- COMMAND...
#   LAUNCHER: `cudaleak run` and its options (%run -o %t/NAME.%p.json)
set -u
name="$1"
shift
launcher=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  launcher+=("$1")
  shift
done
shift
bound=()
[ -n "${RUN_PRELOAD:-}" ] && bound=(env LD_PRELOAD="$RUN_PRELOAD")
[ -n "${TIMEOUT:-}" ] && bound+=(timeout "$TIMEOUT")
"${bound[@]}" "$@" >"$name.alone.out" 2>"$name.alone.err"
alone=$?
"${bound[@]}" "${launcher[@]}" -- "$@" >"$name.traced.out" 2>"$name.traced.err"
traced=$?
label=$(basename "$name")
if [ "$alone" = "$traced" ]; then
  echo "$label: same status ($alone)"
else
  echo "$label: status differs ($alone alone, $traced traced)"
fi
if [ "${STATUS_ONLY:-0}" = 1 ]; then
  :
elif cmp -s "$name.alone.out" "$name.traced.out"; then
  echo "$label: same stdout"
else
  echo "$label: stdout differs"
  diff "$name.alone.out" "$name.traced.out" | head -5
fi
exit 0
