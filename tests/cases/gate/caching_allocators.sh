# Caching allocators: their blocks are reported as cached (a function in
# PyTorch's allocator namespace keeps them until exit by design), and a real
# leak next to them (an extension's raw cudaMalloc) still fails; cached
# blocks that grow are shown growing but not gated; --gate-cached counts them.
# RUN(exit=23): %run --error-exitcode 23 -o %t/r.json -- %build/tests/e2e/framework_cache
# CHECK: 80.0 MiB in 4 blocks: PyTorch caching allocator
# RUN: %expr %t/r.json \
# RUN:   'summary["cached_bytes"] == 80 << 20 and summary["cached_by"]["PyTorch caching allocator"]["count"] == 4' \
# RUN:   'summary["leaked_bytes"] == 3 << 20 and r["gate"]["failing_bytes"] == 3 << 20' \
# RUN:   '[(g.get("cached_by", ""), g["fails_gate"]) for g in leaks("device") if stack_has(g, "extension_workspace")][:1] == [("", True)]'
# CHECK-COUNT(3): holds:
# RUN: %run --error-exitcode 23 -o %t/grow.json -- %build/tests/e2e/framework_cache grow
# CHECK: growing across observations: 0 -> 1 -> 2 -> 3 -> 4 blocks (80.0 MiB) cached by the PyTorch caching allocator
# RUN: %run --error-exitcode 23 -o %t/only.json -- %build/tests/e2e/framework_cache no-extension-run
# CHECK-NONE: leak gate failed
# RUN(exit=23): %run --error-exitcode 23 --gate-cached true -o %t/counted.json -- %build/tests/e2e/framework_cache no-extension-run
# CHECK: leak gate failed
