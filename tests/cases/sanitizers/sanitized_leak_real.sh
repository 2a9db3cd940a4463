# The e2e program built with gcc's sanitizers (dynamic runtimes), on a real
# GPU, alone and under cudaleak: the same stdout and status, no sanitizer
# complaint the run alone does not have, the leak told.
# REQUIRES: gpu, built=sanitized_leak_address, built=sanitized_leak_thread
# ENV: ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0
# RUN: for san in address thread; do %root/tests/cases/tools/beside_sanitizer.sh %t/sanitized_leak_$san "1.0 MiB of device memory in 1 allocation never freed" %run -o %t/$san.%p.json -- %build/tests/e2e/sanitized_leak_$san; done
# CHECK-COUNT(2): : same status
# CHECK-COUNT(2): : same stdout
# CHECK-COUNT(6): : no new '
# CHECK-COUNT(2): : cudaleak's text says '1.0 MiB of device memory in 1 allocation never freed'
# CHECK-NONE: differs
