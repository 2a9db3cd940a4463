# pytest under cudaleak with the plugin: @pytest.mark.cuda_limit_memory and
# @pytest.mark.cuda_limit_leaks fail exactly the tests over their budgets
# (tests/e2e/frameworks/test_cuda_budgets.py), each at the test's own line
# with the budget, the peak and the sites that grew; a function-scoped
# fixture that never frees fails its test at teardown, at the fixture's
# line; the session's tables list the tests that used and leaked the most.
# The outcome of each test is read from pytest's short summary (-rA),
# sorted, as pytest's order of its sections is its own.
# REQUIRES: pytest
# ENV: PYTHONPATH=%root/interpose/python
# ENV: PYTHONDONTWRITEBYTECODE=1
# RUN(exit=1): cd %root && %run -o %t/reports/r.%p.json -- %python -m pytest -q -p pytest_cudaleak -p no:cacheprovider -rA tests/e2e/frameworks/test_cuda_budgets.py > %t/pytest.txt 2> %t/stderr.txt
# RUN: cat %t/pytest.txt
# CHECK-RE: cudaleak: fixture 'leaky_buffer' \(function scope, set up for tests/e2e/frameworks/test_cuda_budgets\.py::test_uses_a_leaky_fixture\) left 1 CUDA resource \(3145728 bytes\) alive after its teardown\nat %root/tests/e2e/frameworks/test_cuda_budgets\.py:46\n
# CHECK-RE: cudaleak: test_peak_over_budget used 28\.0 MiB of device memory at its peak on device 0, over its budget of 24\.0 MiB \(@pytest\.mark\.cuda_limit_memory\)\nat %root/tests/e2e/frameworks/test_cuda_budgets\.py:25\n
# CHECK: 20.0 MiB of device memory more than at the start, created by cudaMalloc on device 0:
# CHECK: [python] in test_peak_over_budget %root/tests/e2e/frameworks/test_cuda_budgets.py:25
# CHECK-RE: cudaleak: 1 CUDA resource \(2097152 bytes\) created by this test is still alive, over its budget of 1\.0 MiB \(@pytest\.mark\.cuda_limit_leaks\)\nat %root/tests/e2e/frameworks/test_cuda_budgets\.py:41\n
# CHECK: cudaleak: the tests that used the most device memory (peak)
# CHECK-RE: \n    28\.0 MiB  tests/e2e/frameworks/test_cuda_budgets\.py::test_peak_over_budget\n
# CHECK: cudaleak: the tests that leaked the most
# CHECK-RE: \n     3\.0 MiB  tests/e2e/frameworks/test_cuda_budgets\.py::test_uses_a_leaky_fixture\n
# CHECK: 2 failed, 5 passed, 1 error
# CHECK-NONE: pluggy
# RUN: sed -nE 's/^(PASSED|FAILED|ERROR) tests\/e2e\/frameworks\/test_cuda_budgets\.py::(test_[a-z0-9_]+)( - .*)?$/\1 \2/p' %t/pytest.txt | LC_ALL=C sort
# CHECK-RE: \AERROR test_uses_a_leaky_fixture
# CHECK-RE: \nFAILED test_leak_over_budget
# CHECK-RE: \nFAILED test_peak_over_budget
# CHECK-RE: \nPASSED test_leak_within_budget
# CHECK-RE: \nPASSED test_peak_of_12_mib
# CHECK-RE: \nPASSED test_peak_within_budget
# CHECK-RE: \nPASSED test_uses_a_leaky_fixture
# CHECK-RE: \nPASSED test_uses_a_tidy_fixture\n\Z
