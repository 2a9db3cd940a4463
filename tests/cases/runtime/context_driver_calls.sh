# The current context cudaleak learns from the context calls it intercepts
# (interpose/track/bound_context.h) against the real driver's answer: a
# driver-API program that switches contexts by create, push, pop, set and
# destroy on two threads, built here against the real libcuda, under
# --check-context: the same status alone and traced, and no creation placed
# on another context or device than the driver's. The control: a context
# bound where cudaleak cannot see (cuCtxSetCurrent from the driver's ELF
# symbol table) is noticed.
# REQUIRES: gpu
# BUILD: g++ -std=c++20 -O2 -I${CUDA_ROOT:-/usr/local/cuda}/include -o %t/context_calls %root/tests/e2e/programs/context_calls.cpp -L${CUDA_ROOT:-/usr/local/cuda}/lib64/stubs -lcuda -ldl -pthread
# RUN: %root/tests/cases/tools/check_context.sh %t/context_calls %run --check-context --print-summary=true -o %t/context_calls.%p.json -- %t/context_calls
# CHECK: context_calls: same status (
# CHECK-RE: context_calls: [0-9]+ creations placed, 0 differ from the driver
# CHECK-NONE: status differs
# CHECK-NONE: placed elsewhere
# RUN: %run --check-context -o %t/context_unseen.json -- %t/context_calls unseen
# CHECK: 1 differ from the driver, 1 on a context bound unseen
