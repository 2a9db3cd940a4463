# The text's stacks on a real GPU (docs/usage.md#stacks), for two samples
# with nvcc's default static cudart and cuBLAS's own embedded cudart: the
# program's main is shown, nothing of the C runtime below it;
# --full-stacks shows every frame down to _start, which has no file:line
# (no line information) in the JSON.
# REQUIRES: gpu
# RUN: %run -o %t/loop.json -- %build/samples/sample_loop_leak > /dev/null 2> %t/loop.txt; %run -o %t/exception.json -- %build/samples/sample_exception_leak > /dev/null 2> %t/exception.txt; %run -o %t/cublas.json -- %build/tests/gpu/gpu_cublas_no_destroy > /dev/null 2> %t/cublas.txt; for p in loop exception cublas; do echo "$p: main shown $(grep -c ' in main ' %t/$p.txt), C runtime shown $(grep -cE '__libc_start|in _start ' %t/$p.txt)"; done
# CHECK-RE: loop: main shown [1-9][0-9]*, C runtime shown 0\n
# CHECK-RE: exception: main shown [1-9][0-9]*, C runtime shown 0\n
# CHECK-RE: cublas: main shown [1-9][0-9]*, C runtime shown 0\n
# RUN: for p in loop exception cublas; do echo "$p: _start shown $(%report --full-stacks %t/$p.json 2>&1 | grep -c ' in _start ')"; done
# CHECK-RE: loop: _start shown [1-9]
# CHECK-RE: exception: _start shown [1-9]
# CHECK-RE: cublas: _start shown [1-9]
# RUN: for p in loop exception cublas; do %expr %t/$p.json 'not [f for g in r["leaks"] for f in g["stack"] if f.get("function") == "_start" and f.get("file")]'; done
# CHECK-COUNT(3): holds:
