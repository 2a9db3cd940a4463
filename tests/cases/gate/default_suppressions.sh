# Default suppressions hide by-design library handles
# (at::cuda::getCurrentCUDABlasHandle), never the program's own leak, which
# still fails the gate; --no-default-suppressions hides nothing.
# RUN(exit=23): %run --error-exitcode 23 -o %t/r.json -- %build/tests/e2e/by_design_handles
# RUN: %expr %t/r.json \
# RUN:   'len(r["leaks"]) == 2' \
# RUN:   'all(g.get("suppressed_by", "").startswith("leak:at::cuda::getCurrentCUDABlasHandle (default:") for g in r["leaks"] if stack_has(g, "getCurrentCUDABlasHandle"))' \
# RUN:   'all(stack_has(g, "own_leak") and not g.get("suppressed_by") and g["fails_gate"] for g in r["leaks"] if not stack_has(g, "getCurrentCUDABlasHandle"))'
# CHECK-COUNT(3): holds:
# RUN(exit=23): %run --error-exitcode 23 --no-default-suppressions -o %t/off.json -- %build/tests/e2e/by_design_handles
# RUN: %expr %t/off.json 'all(not g.get("suppressed_by") for g in r["leaks"])'
# CHECK: holds:
