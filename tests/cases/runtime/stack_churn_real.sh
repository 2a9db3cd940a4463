# 2^18 distinct stacks made and freed at once on a real GPU: the process's
# memory grows by under 32 MiB (the stack depot forgets stacks).
# REQUIRES: gpu
# RUN: %run -o %t/r.json -- %build/tests/e2e/stack_churn 18 > %t/out.txt
# RUN: %expr %t/r.json 'int(text("%t/out.txt").split("rss_growth_kb=")[1].split()[0]) < 32768'
# CHECK: holds:
