#!/usr/bin/env bash
# Memory allocated past cudaleak on a real GPU: tests/e2e/programs/elf_alloc_bypass
# reaches cuMemAlloc_v2 through the driver's ELF symbol table after ordinary
# calls. A gated run must end with status 125 naming the unseen memory when
# it allocates 100 MiB or 1 GiB that way, and keep the gate's own verdict
# when it allocates nothing or 16 MiB (within the slack). Then every report
# under SWEEP_DIR (the other suites' reports) is searched for the verdict:
# none may carry it. Asserts; exits non-zero on a wrong result.
# Usage: scripts/gpu-validate-unseen.sh STAGE_DIR OUT_DIR [SWEEP_DIR]
set -uo pipefail
B="$(realpath "${1:?stage dir}")"
W="$(realpath -m "${2:?out dir}")"
mkdir -p "$W"
pass=0; fail=0
check() {  # NAME CONDITION...
  local name=$1; shift
  if "$@"; then pass=$((pass + 1)); echo "PASS $name"; else fail=$((fail + 1)); echo "FAIL $name"; fi
}
for mib in 100 1024 0 16; do
  "$B/bin/cudaleak" run --error-exitcode 7 -o "$W/unseen_$mib.json" -- "$B/tests/e2e/elf_alloc_bypass" "$mib" \
    >"$W/unseen_$mib.out" 2>"$W/unseen_$mib.err"
  status=$?
  if [ "$mib" -ge 100 ]; then
    check "$mib MiB past cudaleak: status 125 (got $status)" [ "$status" = 125 ]
    check "$mib MiB past cudaleak: named" grep -q "more than the calls cudaleak saw can explain" "$W/unseen_$mib.err"
  else
    check "$mib MiB past cudaleak: the gate's own verdict, 0 (got $status)" [ "$status" = 0 ]
    check "$mib MiB past cudaleak: nothing said" bash -c "! grep -q 'saw can explain' '$W/unseen_$mib.err'"
  fi
done
grep -h 'saw can explain\|holds about' "$W"/unseen_*.err | head -4
if [ -n "${3:-}" ]; then
  others=$(find "$3" -name '*.json' ! -path "$W/*")
  n=$(printf '%s\n' "$others" | grep -c . || true)
  alarming=$(printf '%s\n' "$others" | grep . | xargs -r grep -l "calls cudaleak did not see" || true)
  alarms=$(printf '%s\n' "$alarming" | grep -c . || true)
  check "$n reports of the other suites: none says memory was unseen ($alarms do)" [ "$alarms" = 0 ]
  # Each false alarm with what it says and what the process loaded, to tell why.
  for f in $alarming; do
    echo "  unseen in $f:"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("   ", r["gate"].get("error","")); print("    argv:", " ".join(r["process"].get("argv",[]))[:200]); print("    modules:", ", ".join(sorted({m["path"].rsplit("/",1)[-1] for m in r.get("modules",[])}))[:600])' "$f" || true
  done
fi
echo "unseen memory: $pass passed, $fail failed"
[ "$fail" = 0 ]
