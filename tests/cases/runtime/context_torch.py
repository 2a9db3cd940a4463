# The context cudaleak learns against the driver's answer (--check-context)
# in PyTorch on a real GPU: a short training run, then four threads each on
# a stream of its own, and a DataLoader with two workers and pinned memory
# (this file). The same status alone and traced; no creation placed on
# another context or device than the driver's, in any process.
# REQUIRES: gpu, torch
# RUN: %root/tests/cases/tools/check_context.sh %t/torch_small %run --check-context --print-summary=true -o %t/torch_small.%p.json -- %python %root/tests/gpu/torch_small.py
# CHECK: torch_small: same status (
# CHECK-RE: torch_small: [0-9]+ creations placed, 0 differ from the driver
# CHECK-NONE: status differs
# CHECK-NONE: placed elsewhere
# RUN: %root/tests/cases/tools/check_context.sh %t/torch_threads %run --check-context --print-summary=true -o %t/torch_threads.%p.json -- %python %s
# CHECK: torch_threads: same status (
# CHECK-RE: torch_threads: [0-9]+ creations placed, 0 differ from the driver
# CHECK-NONE: status differs
# CHECK-NONE: placed elsewhere
import threading

import torch


def work(seed):
    torch.manual_seed(seed)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        a = torch.randn(512, 512, device="cuda")
        for _ in range(20):
            a = torch.tanh(a @ a / 512)
    s.synchronize()


threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()


class Data(torch.utils.data.Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        return torch.full((256,), float(i))


if __name__ == "__main__":
    loader = torch.utils.data.DataLoader(Data(), batch_size=8, num_workers=2, pin_memory=True)
    total = sum(float(b.cuda(non_blocking=True).sum()) for b in loader)
    torch.cuda.synchronize()
    print("sum", total)
