# An injected failure reaches the program untouched and records nothing: the
# second cudaMalloc of loop_leak (the first step's result buffer) fails; only
# the scratch buffer of the step that failed is left.
# REQUIRES: simulated
# RUN(exit=2): CUDALEAK_SIM_FAIL=cuMemAlloc_v2:2 %run -o %t/r.json -- %build/samples/sample_loop_leak_shared
# CHECK: cudaMalloc(&result, 16 << 10) failed: out of memory
# RUN: %expr %t/r.json 'len(r["leaks"]) == 1 and r["leaks"][0]["count"] == 1 and r["leaks"][0]["bytes"] == 64 << 10'
# CHECK: holds:
