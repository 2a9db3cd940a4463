# log_path and colour on a real GPU with a sample built with nvcc's default
# static cudart: nothing of cudaleak's on the program's stderr; the text,
# coloured as --color always asks, in PATH.PID.
# REQUIRES: gpu
# RUN: mkdir %t/logs && %run --log-path %t/logs/cl --color always -o %t/log.%p.json -- %build/samples/sample_loop_leak 2>&1 > /dev/null | wc -c
# CHECK-RE: \A0\n
# RUN: cat %t/logs/cl.*
# CHECK-DAG-RE: \x1b\[1;31mdetected CUDA resource leaks
# CHECK-DAG-RE: SUMMARY:.* cudaleak: 800\.0 KiB leaked in 50 resources
