# --simulated-gpu-memory refuses a size it cannot read exactly (the program
# never runs), one out of range, and no device or half a byte; a fraction of
# a unit is read exactly: half a GiB is the simulated device's total.
# REQUIRES: simulated
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory '12XB' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--simulated-gpu-memory: expected a size such as 512MiB or 2GiB
# CHECK: got '12XB'
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory '-1' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--simulated-gpu-memory: expected a size such as 512MiB or 2GiB
# CHECK: got '-1'
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory '512mib' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--simulated-gpu-memory: expected a size such as 512MiB or 2GiB
# CHECK: got '512mib'
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory '0x10' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--simulated-gpu-memory: expected a size such as 512MiB or 2GiB
# CHECK: got '0x10'
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory '1e999' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--simulated-gpu-memory: expected a size such as 512MiB or 2GiB
# CHECK: got '1e999'
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory '1..5GiB' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--simulated-gpu-memory: expected a size such as 512MiB or 2GiB
# CHECK: got '1..5GiB'
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory '' -- %build/samples/sample_clean_shared
# CHECK-RE: \A[^\n]*--simulated-gpu-memory: expected a size such as 512MiB or 2GiB
# CHECK: got ''
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory 99999999999GiB -- %build/samples/sample_clean_shared
# CHECK: '99999999999GiB' is out of range
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory 0 -- %build/samples/sample_clean_shared
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory 0GiB -- %build/samples/sample_clean_shared
# CHECK-NONE: clean run finished
# RUN(exit=2): %cudaleak run --simulated-gpu --simulated-gpu-memory 0.5 -- %build/samples/sample_clean_shared
# CHECK-NONE: clean run finished
# RUN(exit=1): %cudaleak run --simulated-gpu --simulated-gpu-memory 0.5GiB -o %t/r.%p.%n.json -- %build/tests/e2e/oom_scenarios single 1024
# CHECK:  of 512.0 MiB)
