# The samples built with nvcc's default static cudart on a real GPU: the
# loop's 50 leaks exactly, and nothing from the clean one.
# REQUIRES: gpu
# RUN: %run -o %t/loop.json -- %build/samples/sample_loop_leak
# RUN: %expr %t/loop.json 'summary["leaked_count"] == 50'
# CHECK: holds:
# RUN: %run -o %t/clean.json -- %build/samples/sample_clean
# RUN: %expr %t/clean.json 'summary["leaked_count"] == 0'
# CHECK: holds:
