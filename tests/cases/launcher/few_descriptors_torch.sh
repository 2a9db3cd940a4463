# PyTorch with few descriptors left (ulimit -n 64) on a real GPU: the
# program's status kept and its report still written.
# REQUIRES: gpu, torch
# RUN: ulimit -n 64; %run -o %t/r.%p.json -- %python -c "import torch; x = torch.empty(1 << 20, device='cuda'); print('ok')"; echo status=$?; ls %t | grep -c '^r\..*\.json$'
# CHECK: ok
# CHECK-RE: status=0\n[1-9]
