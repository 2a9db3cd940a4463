# Faults injected on cuCtxGetCurrent or cuCtxGetDevice reach the program as
# without cudaleak: the program makes 9 calls to each, and a count that
# cudaleak's own calls advanced would move the fault to another line. For
# each call, the program's output under cudaleak is the same as plain, and
# the fault reached it.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=2
# RUN: for api in cuCtxGetCurrent cuCtxGetDevice; do for n in 1 2 3 4 5 6 7 8 9; do CUDALEAK_SIM_FAIL=$api:$n:999 %build/tests/e2e/context_calls > %t/plain.txt || echo "$api $n: plain failed"; grep -q ' 999 ' %t/plain.txt || echo "$api $n: the fault did not reach the program"; CUDALEAK_SIM_FAIL=$api:$n:999 %run -o %t/report.json -- %build/tests/e2e/context_calls > %t/traced.txt 2> /dev/null || echo "$api $n: traced failed"; cmp -s %t/plain.txt %t/traced.txt && echo "$api $n: same" || echo "$api $n: differs"; done; done
# CHECK-COUNT(18): : same
# CHECK-NONE: differs
# CHECK-NONE: failed
# CHECK-NONE: did not reach
