# The plugin's default peak budget, from the ini option cuda_limit_memory
# (here given with -o) or --cuda-limit-memory, applies to every test
# without a marker of its own (tests/e2e/frameworks/test_cuda_budgets.py,
# the tests of the peak): test_peak_within_budget keeps its marker's 24 MB.
# The outcomes are read from pytest's short summary (-rA), sorted (newer
# pytest versions add " - reason" to a FAILED or ERROR line).
# REQUIRES: pytest
# ENV: PYTHONPATH=%root/interpose/python
# ENV: PYTHONDONTWRITEBYTECODE=1
# RUN(exit=1): cd %root && %run -o %t/ini/r.%p.json -- %python -m pytest -q -p pytest_cudaleak -p no:cacheprovider -rA -o 'cuda_limit_memory=8 MB' -k peak tests/e2e/frameworks/test_cuda_budgets.py > %t/ini.txt 2> %t/ini.stderr.txt
# RUN: cat %t/ini.txt
# CHECK: cudaleak: test_peak_of_12_mib used 12.0 MiB of device memory at its peak on device 0, over its budget of 8.0 MiB (cuda_limit_memory)
# RUN: sed -nE 's/^(PASSED|FAILED|ERROR) tests\/e2e\/frameworks\/test_cuda_budgets\.py::(test_[a-z0-9_]+)( - .*)?$/\1 \2/p' %t/ini.txt | LC_ALL=C sort
# CHECK-RE: \AFAILED test_peak_of_12_mib\nFAILED test_peak_over_budget\nPASSED test_peak_within_budget\n\Z
# RUN(exit=1): cd %root && %run -o %t/flag/r.%p.json -- %python -m pytest -q -p pytest_cudaleak -p no:cacheprovider -rA --cuda-limit-memory 16MiB -k peak tests/e2e/frameworks/test_cuda_budgets.py > %t/flag.txt 2> %t/flag.stderr.txt
# RUN: cat %t/flag.txt
# CHECK: cudaleak: test_peak_over_budget used 28.0 MiB of device memory at its peak on device 0, over its budget of 24.0 MiB (@pytest.mark.cuda_limit_memory)
# CHECK-NONE: test_peak_of_12_mib used
# RUN: sed -nE 's/^(PASSED|FAILED|ERROR) tests\/e2e\/frameworks\/test_cuda_budgets\.py::(test_[a-z0-9_]+)( - .*)?$/\1 \2/p' %t/flag.txt | LC_ALL=C sort
# CHECK-RE: \AFAILED test_peak_over_budget\nPASSED test_peak_of_12_mib\nPASSED test_peak_within_budget\n\Z
