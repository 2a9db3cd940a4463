# cudaleak's text goes to the stderr the process started with, not to a file
# that took fd 2 after the program closed stderr: under the launcher and
# under plain preload.
# RUN: %run -o %t/r.json -- %build/tests/e2e/reuse_stderr %t/data
# CHECK: SUMMARY: cudaleak: 1.0 MiB leaked in 1 resource
# RUN: cat %t/data
# CHECK-RE: \Adata\n\Z
# RUN: CUDALEAK_OPTIONS=output=%t/p.json %preload %build/tests/e2e/reuse_stderr %t/data
# CHECK: SUMMARY: cudaleak: 1.0 MiB leaked in 1 resource
# RUN: cat %t/data
# CHECK-RE: \Adata\n\Z
