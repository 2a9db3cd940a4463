# A set-uid program is named before it runs (the loader would drop the
# preload); it cannot run the simulated GPU's libraries either: never green.
# Needs root to give a copy of a program another owner (CI runs as root).
# REQUIRES: simulated, root
# RUN: cp %build/tests/e2e/launcher_edges %t/setuid_edges && chown 65534:65534 %t/setuid_edges && chmod 4755 %t/setuid_edges
# RUN: %run --error-exitcode 9 -o %t/r.%p.json -- %t/setuid_edges linger 0 2> %t/err.txt; echo status=$?; cat %t/err.txt
# CHECK-RE: \Astatus=[1-9]
# CHECK: %t/setuid_edges is set-uid (owner uid 65534): the loader will drop cudaleak's preload
