"""A training job left under cudaleak for a long time: GPT-2 small (random
weights, bf16 autocast, AdamW), a report the program asks for every two
minutes (cudaleak_impl_report, through ctypes), a debugging list that keeps a
64 MiB tensor every 500 steps, and at the end an out-of-memory (1 GiB tensors
kept until the device is full). Prints, every minute, the median step time
and the process's resident memory, so that a plain run and a traced one can
be set side by side. Usage: python3 long_training.py SECONDS"""
import ctypes
import statistics
import sys
import time

import torch
from transformers import GPT2Config, GPT2LMHeadModel

seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1200
model = GPT2LMHeadModel(GPT2Config()).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
ids = torch.randint(0, 50257, (8, 1024), device="cuda")
try:
    report = ctypes.CDLL(None).cudaleak_impl_report
    report.argtypes = [ctypes.c_char_p]
except AttributeError:
    report = None  # not under cudaleak
kept = []


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def train_step(step):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = model(ids, labels=ids).loss
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    if step % 500 == 0:
        kept.append(torch.empty(64 << 20, dtype=torch.uint8, device="cuda"))  # LINE:debug_keep


start = time.time()
minute_start, times, step, minute = start, [], 0, 0
last_report = start
while time.time() - start < seconds:
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    train_step(step)
    torch.cuda.synchronize()
    times.append(time.perf_counter() - t0)
    step += 1
    now = time.time()
    if now - minute_start >= 60:
        minute += 1
        print("minute %d: step %d, median %.2f ms, rss %.0f MiB, kept %d" % (
            minute, step, statistics.median(times) * 1e3, rss_mib(), len(kept)), flush=True)
        minute_start, times = now, []
    if report and now - last_report >= 120:
        t = time.perf_counter()
        report(("step %d" % step).encode())
        print("report at step %d took %.0f ms" % (step, (time.perf_counter() - t) * 1e3), flush=True)
        last_report = now


def fill():
    hoard = []
    while True:
        hoard.append(torch.empty(1 << 30, dtype=torch.uint8, device="cuda"))  # LINE:fill


try:
    fill()
except torch.OutOfMemoryError:
    print("out of memory at the end, after %d steps" % step, flush=True)
print("done", flush=True)
