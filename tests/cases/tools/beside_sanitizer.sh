#!/usr/bin/env bash
# A program built with a sanitizer, alone and under cudaleak
# (plain_and_traced.sh: status and stdout compared, each run bounded by
# TIMEOUT, 300 s unless set), then what the sanitizer said: "NAME: no new
# 'WORD' (A alone, T traced)" for AddressSanitizer, ThreadSanitizer and
# "does not come first", or "NAME: 'WORD' T times traced, A alone" when
# cudaleak made it say more; with EXPECT, "NAME: cudaleak's text says
# 'EXPECT'" or "NAME: no 'EXPECT' in cudaleak's text".
# Usage: beside_sanitizer.sh NAME EXPECT LAUNCHER... -- COMMAND...
set -u
name="$1" expect="$2"
shift 2
TIMEOUT="${TIMEOUT:-300}" "$(dirname "$0")/plain_and_traced.sh" "$name" "$@"
label=$(basename "$name")
for word in AddressSanitizer ThreadSanitizer "does not come first"; do
  alone=$(grep -c "$word" "$name.alone.err")
  traced=$(grep -c "$word" "$name.traced.err")
  if [ "$traced" -le "$alone" ]; then
    echo "$label: no new '$word' ($alone alone, $traced traced)"
  else
    echo "$label: '$word' $traced times traced, $alone alone"
    sed -n 1,20p "$name.traced.err"
  fi
done
if [ -n "$expect" ]; then
  if grep -q -- "$expect" "$name.traced.err"; then
    echo "$label: cudaleak's text says '$expect'"
  else
    echo "$label: no '$expect' in cudaleak's text"
    tail -20 "$name.traced.err"
  fi
fi
exit 0
