# A generated rule names the user's function, not CUDA's template wrapper
# (an -O0 -g program's cudaMalloc(&float_ptr, n) goes through
# cudaMalloc<float> of cuda_runtime.h), and so does the site (baselines,
# diff). Pasted, the rule hides this leak and not another program's through
# the same wrapper.
# RUN(exit=23): %run --error-exitcode 23 --gen-suppressions true -o %t/r.json -- %build/tests/e2e/template_wrapper_leak fill 2> %t/err.txt
# RUN: sed -n '/Suppression rules for the leaks above/,/^$/p' %t/err.txt | sed '1d;/^$/d' > %t/wrapper.supp; cat %t/wrapper.supp
# CHECK-RE: \Aleak:fill_buffers kind:device\n\Z
# RUN: %expr %t/r.json 'len(r["leaks"]) == 1 and "fill_buffers(unsigned long) @ template_wrapper_leak.cpp:12" in r["leaks"][0]["site"] and "cuda_runtime.h" not in r["leaks"][0]["site"] and r["leaks"][0]["api"] == "cudaMalloc"'
# CHECK: holds:
# RUN: %run --error-exitcode 23 --suppressions %t/wrapper.supp -o %t/same.json -- %build/tests/e2e/template_wrapper_leak fill
# CHECK-NONE: leak gate failed
# RUN(exit=23): %run --error-exitcode 23 --suppressions %t/wrapper.supp -o %t/other.json -- %build/tests/e2e/template_wrapper_leak load
# CHECK: leak gate failed
