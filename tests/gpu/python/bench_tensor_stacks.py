"""What PyTorch's per-tensor Python stacks cost a training step: the median
step of each model with recording off and on, in alternating blocks of one
process (so that both sides share clocks, caches and the allocator's state).
Recording is what cudaleak asks for with --pytorch-stacks:
_record_memory_history(enabled="state", context="alloc", stacks="python").
With "fixed" first, recording is left as the environment set it (cudaleak's
own choice under `cudaleak run`) and only the median step is printed.
Usage: python3 bench_tensor_stacks.py [fixed] [ROUNDS] [STEPS]"""
import statistics
import sys
import time

import torch

args = sys.argv[1:]
fixed = bool(args) and args[0] == "fixed"
if fixed:
    args = args[1:]
rounds = int(args[0]) if len(args) > 0 else 5
steps = int(args[1]) if len(args) > 1 else 20


def gpt2_small():
    from transformers import GPT2Config, GPT2LMHeadModel
    model = GPT2LMHeadModel(GPT2Config()).cuda()  # 124M parameters, random weights
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, 50257, (8, 1024), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


def resnet50():
    import torchvision
    model = torchvision.models.resnet50(weights=None).cuda().to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.amp.GradScaler("cuda")
    x = torch.randn(128, 3, 224, 224, device="cuda").to(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (128,), device="cuda")

    def step():
        with torch.autocast("cuda", dtype=torch.float16):
            loss = torch.nn.functional.cross_entropy(model(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
    return step


def mlp():
    layers = []
    for _ in range(8):
        layers += [torch.nn.Linear(4096, 4096), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(512, 4096, device="cuda")

    def step():
        model(x).square().mean().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


def record(on):
    if on:
        torch.cuda.memory._record_memory_history(enabled="state", context="alloc", stacks="python")
    else:
        torch.cuda.memory._record_memory_history(enabled=None)


def timed(step, n):
    out = []
    for _ in range(n):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step()
        torch.cuda.synchronize()
        out.append(time.perf_counter() - t0)
    return out


for name, make in (("gpt2-small bf16", gpt2_small), ("resnet50 fp16", resnet50), ("mlp 8x4096", mlp)):
    step = make()
    for _ in range(5):
        step()
    if fixed:
        t = timed(step, rounds * steps)
        print("%-16s step %.2f ms (median of %d)" % (name, statistics.median(t) * 1e3, len(t)))
        del step
        torch.cuda.empty_cache()
        continue
    times = {False: [], True: []}
    for r in range(rounds):
        for on in ((False, True) if r % 2 == 0 else (True, False)):
            record(on)
            step()  # the first step after a switch is not counted
            times[on] += timed(step, steps)
    record(False)
    off, on = statistics.median(times[False]), statistics.median(times[True])
    spread = lambda xs: (statistics.quantiles(xs, n=4)[2] - statistics.quantiles(xs, n=4)[0]) / statistics.median(xs)
    print("%-16s step off %.2f ms, on %.2f ms: %+.1f%% (IQR off %.1f%%, on %.1f%%; %d steps each)" % (
        name, off * 1e3, on * 1e3, (on / off - 1) * 100, spread(times[False]) * 100, spread(times[True]) * 100,
        len(times[False])))
    del step
    torch.cuda.empty_cache()
