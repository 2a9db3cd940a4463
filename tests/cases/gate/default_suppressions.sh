# Default suppressions hide by-design library handles
# (at::cuda::getCurrentCUDABlasHandle) and the NCCL process group's cached
# events, never the program's own leak, which still fails the gate, nor the
# process group's device memory (its rule is for events);
# --no-default-suppressions hides nothing.
# RUN(exit=23): %run --error-exitcode 23 -o %t/r.json -- %build/tests/e2e/by_design_handles
# RUN: %expr %t/r.json \
# RUN:   'len(r["leaks"]) == 4' \
# RUN:   'all(g.get("suppressed_by", "").startswith("leak:at::cuda::getCurrentCUDABlasHandle (default:") for g in r["leaks"] if stack_has(g, "getCurrentCUDABlasHandle"))' \
# RUN:   '[g["kind"] for g in r["leaks"] if g.get("suppressed_by", "").startswith("leak:c10d::ProcessGroupNCCL:: kind:event (default:")] == ["event"]' \
# RUN:   'sorted(g["kind"] for g in r["leaks"] if not g.get("suppressed_by") and g.get("fails_gate")) == ["device", "device"]' \
# RUN:   'all(stack_has(g, "own_leak") or stack_has(g, "scratch") for g in r["leaks"] if not g.get("suppressed_by"))'
# CHECK-COUNT(5): holds:
# RUN(exit=23): %run --error-exitcode 23 --no-default-suppressions -o %t/off.json -- %build/tests/e2e/by_design_handles
# RUN: %expr %t/off.json 'all(not g.get("suppressed_by") for g in r["leaks"])'
# CHECK: holds:
