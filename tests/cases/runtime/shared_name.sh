# REQUIRES: simulated
# Simulated only: fork_child uses CUDA in a forked child, which only the simulated driver allows.
# Processes sharing a report name (a parent and its forked child under one
# -o without %p) each keep their report, and the second says where it went.
# RUN: %run -o %t/reports/shared.json -- %build/tests/e2e/fork_child
# CHECK: was written by another process of this run; this report goes to %t/reports/shared.
# RUN: %expr %t/reports 'len(reports) == 2 and reports[0]["process"]["pid"] != reports[1]["process"]["pid"]'
# CHECK: holds:
