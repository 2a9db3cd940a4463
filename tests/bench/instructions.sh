#!/usr/bin/env bash
# Instructions cudaleak itself executes per intercepted call, counted by
# valgrind's callgrind: collection is switched on in cudaleak's hooks and off
# again inside the real (simulated) driver function of the same name, so the
# count excludes the driver. Deterministic, unlike times: the number to watch
# when changing the hot path. Runs tests/bench/api_costs.cu (shared cudart) at
# one depth under `cudaleak run --simulated-gpu`.
# Usage: tests/bench/instructions.sh [BUILD_DIR] [DEPTH] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
B="$(realpath "${1:-build}")"
depth="${2:-32}"
rounds="${3:-11}"
P="$B/tests/bench/bench_api_costs_shared"
[ -x "$P" ] || { echo "instructions.sh: $P not built (ninja -C $B bench_api_costs_shared)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

hooks=(cuMemAlloc_v2 cuMemFree_v2 cuMemAllocAsync cuMemFreeAsync cuStreamCreate cuStreamDestroy_v2 cuEventCreate
       cuEventDestroy_v2)
# One run per hook: toggles of different hooks in one run fall out of step
# where one hook's real call reaches another hook.
count() {  # hook -> total instructions collected in cudaleak's function of that name
  local name="$1" dir="$work/$1"
  mkdir -p "$dir"
  valgrind --tool=callgrind --trace-children=yes --toggle-collect="$name" --callgrind-out-file="$dir/cg.%p" \
    "$B/bin/cudaleak" run --simulated-gpu -o "$dir/r.json" --print-summary false -- "$P" "$depth" "$rounds" \
    >/dev/null 2>"$dir/valgrind.log" || { cat "$dir/valgrind.log" >&2; return 1; }
  local profile
  profile="$(grep -l "^cmd: *$P " "$dir"/cg.* | head -1)"
  awk '/^summary:/ { print $2 }' "$profile" >"$dir/total"
  # The calls made, as the profile counts them (callgrind counts calls with
  # collection off too): a count written here would go stale when the
  # benchmark changes.
  awk -v h="$name" '
    /^c?fn=\([0-9]+\)/ {
      match($0, /\([0-9]+\)/); id = substr($0, RSTART, RLENGTH); rest = substr($0, RSTART + RLENGTH + 1)
      if (rest != "") named[id] = rest
      if ($0 ~ /^cfn=/) callee = id
      next
    }
    /^calls=/ { if (named[callee] == h) { split($0, f, /[= ]/); n += f[2] } }
    END { print n + 0 }' "$profile" >"$dir/calls"
}
for h in "${hooks[@]}"; do count "$h" & done
wait
echo "instructions cudaleak adds per call, depth $depth, $rounds rounds (valgrind --tool=callgrind)"
printf "%-22s %8s %12s\n" hook calls per_call
for name in "${hooks[@]}"; do
  calls="$(cat "$work/$name/calls")" total="$(cat "$work/$name/total")"
  [ "$calls" -gt 0 ] || { echo "instructions.sh: no call of $name in the profile" >&2; exit 1; }
  awk -v n="$name" -v c="$calls" -v t="$total" 'BEGIN { printf "%-22s %8d %12.0f\n", n, c, t / c }'
done
