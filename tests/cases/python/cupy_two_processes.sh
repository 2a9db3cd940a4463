# Two processes' CuPy pools (tests/e2e/programs/fake_cupy), merged: each is
# named by its process.
# Simulated only: fake_cupy's pool.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_cupy
# RUN: %run -o %t/job/report.%p.json -- /bin/sh -c '%python %root/tests/e2e/programs/python_cupy.py & %python %root/tests/e2e/programs/python_cupy.py; wait'
# RUN: %expr %t/job 'len(reports) == 2'
# CHECK: holds:
# RUN: %cudaleak merge %t/job/report.*.json -o %t/merged.json
# RUN: %expr %t/merged.json 'len(r["cupy_processes"]) == 2 and r["cupy_processes"][0]["pid"] != r["cupy_processes"][1]["pid"]'
# CHECK: holds:
# RUN: %report %t/merged.json > %t/merged.txt; cat %t/merged.txt; %expr %t/merged.json 'all(("(pid %%d): 3.0 MiB held, 1.0 MiB by live arrays" %% p["pid"]) in text("%t/merged.txt") for p in r["cupy_processes"])'
# CHECK: CuPy's memory pool at exit on device 0 in python
# CHECK: holds:
