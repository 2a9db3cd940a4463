# Per-test memory budgets in pytest with PyTorch on a real GPU: the plugin
# installed offline from its wheel into a folder of its own, then
# tests/gpu/pytest/test_budgets_torch.py under cudaleak: a test within its
# cuda_limit_memory budget passes; one over it (a 96 MiB workspace, line 24)
# fails with its peak, device, budget and marker, its line and the sites
# that grew, its stack stopping at the test; one over it served from
# PyTorch's cache (no driver call) fails too; a fixture that leaks (line 41)
# fails its test at teardown. The session's tables of peak and leaked
# memory, and pytest --help lists the options.
# REQUIRES: gpu, torch, pytest
# RUN: %python -m pip install -q --no-index --no-deps --target %t/site %build/lib/cudaleak/python/pytest_cudaleak-*-py3-none-any.whl && echo installed
# CHECK: installed
# RUN(exit=1): PYTHONPATH=%t/site %run --print-summary false -o %t/budgets.%p.json -- %python -m pytest -rA -p no:cacheprovider %root/tests/gpu/pytest/test_budgets_torch.py > %t/pytest.log 2>&1; st=$?; cat %t/pytest.log; exit $st
# CHECK-DAG-RE: PASSED .*test_budgets_torch\.py::test_elementwise_within_budget
# CHECK-DAG-RE: FAILED .*test_budgets_torch\.py::test_workspace_over_budget
# CHECK-DAG: cudaleak: test_workspace_over_budget used 96.0 MiB of device memory at its peak on device 0, over its budget of 64.0 MiB (@pytest.mark.cuda_limit_memory)
# CHECK-DAG-RE: (?m)^at .*test_budgets_torch\.py:24$
# CHECK-DAG: MiB of device memory more than at the start, created by
# CHECK-DAG-RE: \[python\] in test_workspace_over_budget .*test_budgets_torch\.py:24
# CHECK-DAG: cudaleak: test_cached_block_still_counts used 80.0 MiB of device memory at its peak on device 0, over its budget of 64.0 MiB
# CHECK-DAG-RE: ERROR .*test_budgets_torch\.py::test_uses_a_leaking_fixture
# CHECK-DAG-RE: cudaleak: fixture 'raw_buffer' \(function scope, set up for .*test_uses_a_leaking_fixture\) left 1 CUDA resource \(4194304 bytes\) alive after its teardown
# CHECK-DAG-RE: (?m)^at .*test_budgets_torch\.py:41$
# CHECK-DAG: (the rest of the stack is in the report)
# CHECK-DAG: cudaleak: the tests that used the most device memory (peak)
# CHECK-DAG-RE: 96\.0 MiB  .*test_budgets_torch\.py::test_workspace_over_budget
# CHECK-DAG-RE: 4\.0 MiB  .*test_budgets_torch\.py::test_uses_a_leaking_fixture
# CHECK: 2 failed, 2 passed, 1 error
# No pytest or pluggy frame in a failure's stack:
# RUN: grep -cE '\[python\] in .*(pluggy|_pytest)/' %t/pytest.log || true
# CHECK-RE: \A0\n
# RUN: PYTHONPATH=%t/site %python -m pytest --help
# CHECK: --cuda-limit-memory=SIZE
# CHECK-RE: cuda_limit_memory \(string\)
