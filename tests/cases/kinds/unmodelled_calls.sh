# A program linked against the real libcudart.so.13 calling functions the
# simulated GPU does not model loads (before the simulated runtime exported
# all of its functions it died at load with status 127), and each says so
# once though called twice; the modelled ones print nothing.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/unmodelled_calls
# CHECK-RE: \Aall sane\n
# CHECK-COUNT(1): cudaleak (simulated GPU): cudaDeviceFlushGPUDirectRDMAWrites is not simulated; it returned cudaErrorNotSupported
# CHECK-COUNT(1): cudaleak (simulated GPU): cuDeviceGetLuid is not simulated; it returned CUDA_ERROR_NOT_SUPPORTED
# CHECK-COUNT(2): is not simulated
