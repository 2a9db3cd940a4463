#!/usr/bin/env bash
# A command alone and under `cudaleak run --check-context`, statuses compared
# (plain_and_traced.sh, stdout not compared), then what check_context said at
# the exit of each process, summed: "NAME: P creations placed, W differ from
# the driver, U on a context bound unseen (N processes)", followed by
# "NAME: placed elsewhere than the driver says" when W is not 0, or
# "NAME: no check_context line" when no process said anything.
# Usage: check_context.sh NAME LAUNCHER... -- COMMAND...
#   LAUNCHER: `cudaleak run --check-context` and its options
set -u
STATUS_ONLY=1 "$(dirname "$0")/plain_and_traced.sh" "$@"
name="$1"
label=$(basename "$name")
lines=$(grep -h "check_context:" "$name.traced.err" | sed 's/.*check_context: //')
if [ -z "$lines" ]; then
  echo "$label: no check_context line"
  exit 0
fi
awk -v label="$label" '{ placed += $1; wrong += $4; unseen += $9; n++ }
  END { printf "%s: %d creations placed, %d differ from the driver, %d on a context bound unseen (%d processes)\n",
               label, placed, wrong, unseen, n
        if (wrong) printf "%s: placed elsewhere than the driver says\n", label }' <<<"$lines"
