# Tensors made deep inside an installed package (fake_torch stands in for
# PyTorch): 24 frames of transformers' cache update above the program's own
# serve_request, as a model's KV cache is. The live-tensor line must be the
# program's, not the package's.
# Simulated only: fake_torch's allocator and snapshot.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_torch
# ENV: FAKE_TORCH_BACKEND=native
# RUN: %run --pytorch-stacks true -o %t/report.%p.%n.json -- %python %s
# CHECK: 4.0 MiB in 1 tensor from serve_request (server.py:31)
# CHECK-NONE: cache_utils.py
import torch

torch.cuda.init()
library = [("/usr/lib/python3/dist-packages/transformers/cache_utils.py", "update", 147)] + \
          [("/usr/lib/python3/dist-packages/transformers/models/gpt2/modeling_gpt2.py", "forward", 300 + i)
           for i in range(23)]
program = [("/srv/app/server.py", "serve_request", 31), ("/srv/app/server.py", "<module>", 40)]
torch.cuda.memory.extra_live.append((4 << 20, library + program))
print("served")
