# PyTorch runs the same under cudaleak on a real GPU: a short training run
# with a tensor kept on purpose, and a training and inference loop under each
# allocator mode (the default cache, expandable_segments, cudaMallocAsync),
# and with a kept tensor and a raw cudaMalloc through ctypes. Each runs alone
# and under cudaleak; stdout and status compared.
# REQUIRES: gpu, torch
# RUN: %root/tests/cases/tools/plain_and_traced.sh %t/torch_small %run -o %t/torch_small.%p.json -- %python %root/tests/gpu/torch_small.py
# CHECK: torch_small: same status (
# CHECK: torch_small: same stdout
# CHECK-NONE: differs
# RUN: %root/tests/cases/tools/plain_and_traced.sh %t/default %run -o %t/default.%p.json -- %python %root/tests/gpu/frameworks/torch_loop.py
# CHECK: default: same status (
# CHECK: default: same stdout
# CHECK-NONE: differs
# RUN: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True %root/tests/cases/tools/plain_and_traced.sh %t/expandable %run -o %t/expandable.%p.json -- %python %root/tests/gpu/frameworks/torch_loop.py
# CHECK: expandable: same status (
# CHECK: expandable: same stdout
# CHECK-NONE: differs
# RUN: PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync %root/tests/cases/tools/plain_and_traced.sh %t/async %run -o %t/async.%p.json -- %python %root/tests/gpu/frameworks/torch_loop.py
# CHECK: async: same status (
# CHECK: async: same stdout
# CHECK-NONE: differs
# RUN: %root/tests/cases/tools/plain_and_traced.sh %t/user_leak %run -o %t/user_leak.%p.json -- %python %root/tests/gpu/frameworks/torch_loop.py leak
# CHECK: user_leak: same status (
# CHECK: user_leak: same stdout
# CHECK-NONE: differs
