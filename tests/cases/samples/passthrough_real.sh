# cudaleak changes neither the output nor the exit status of a program on a
# real GPU: every sample with nvcc's default static cudart and with the
# shared one, cuBLAS (its own embedded cudart, a handle never destroyed),
# eight threads allocating at once, and a buffer leaked on every device. Each
# runs alone and under cudaleak; stdout and status compared
# (tests/cases/tools/plain_and_traced.sh).
# REQUIRES: gpu
# RUN: for s in exception_leak library_leak pinned_leak stream_event_leak driver_context_leak async_pool_leak loop_leak clean; do for v in "" _shared; do %root/tests/cases/tools/plain_and_traced.sh %t/$s$v %run -o %t/$s$v.%p.json -- %build/samples/sample_$s$v; done; done
# CHECK-COUNT(16): : same status
# CHECK-COUNT(16): : same stdout
# CHECK-NONE: differs
# RUN: for p in gpu_cublas_no_destroy gpu_threads gpu_multi_device; do %root/tests/cases/tools/plain_and_traced.sh %t/$p %run -o %t/$p.%p.json -- %build/tests/gpu/$p; done
# CHECK: gpu_cublas_no_destroy: same status (
# CHECK: gpu_cublas_no_destroy: same stdout
# CHECK: gpu_threads: same status (
# CHECK: gpu_threads: same stdout
# CHECK: gpu_multi_device: same status (
# CHECK: gpu_multi_device: same stdout
# CHECK-NONE: differs
