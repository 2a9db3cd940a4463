# _exit still reaches the sanitizer's own _exit: status, output and the
# sanitizer's leak check kept (whatever LeakSanitizer said of the lost host
# block without cudaleak, it says with it), and the device leak reported
# (by _exit main's frame still holds it).
# REQUIRES: simulated
# RUN: for s in address thread; do LD_LIBRARY_PATH=%build/lib/cudaleak/simcuda %build/tests/e2e/sanitized_leak_$s _exit > %t/plain.$s 2> %t/plain_err.$s; p=$?; %run -o %t/$s/r.%p.json -- %build/tests/e2e/sanitized_leak_$s _exit > %t/traced.$s 2> %t/err.$s; t=$?; [ $p = $t ] && cmp -s %t/plain.$s %t/traced.$s && echo "$s: same status and output"; a=$(grep -c LeakSanitizer %t/plain_err.$s); b=$(grep -c LeakSanitizer %t/err.$s); [ $((a > 0)) = $((b > 0)) ] && echo "$s: same leak check"; done
# CHECK-COUNT(1): address: same status and output
# CHECK-COUNT(1): address: same leak check
# CHECK-COUNT(1): thread: same status and output
# CHECK-COUNT(1): thread: same leak check
# RUN: %expr %t/address 'len(reports) == 1 and group("device")["bytes"] == 1 << 20 and summary["leaked_count"] + summary.get("reachable_count", 0) == 1'
# CHECK: holds:
# RUN: %expr %t/thread 'len(reports) == 1 and group("device")["bytes"] == 1 << 20 and summary["leaked_count"] + summary.get("reachable_count", 0) == 1'
# CHECK: holds:
