# An inference server built on transformers that keeps each request's KV
# cache (a small GPT-2 made from its config: no weights to download): the
# caches fill the device. The per-tensor lines and the failure must name
# serve_request, the program's own line, not transformers' cache_utils.py
# (nor modeling_gpt2.py, nor "library code: no line"), on a real GPU.
# REQUIRES: gpu, torch, transformers
# RUN: %run -o %t/r.%p.%n.json -- %python %s 2> %t/err.txt; echo "library lines named as the origin: $(grep -c 'from update (cache_utils.py\|from [a-z_]* (modeling_gpt2.py\|library code: no line' %t/err.txt)"; cat %t/err.txt
# CHECK: library lines named as the origin: 0
# CHECK-DAG: out of memory
# CHECK-DAG: serve_request (kv_cache.py
import torch
from transformers import GPT2Config, GPT2LMHeadModel

config = GPT2Config(n_layer=12, n_embd=1024, n_head=16, n_positions=1024, vocab_size=1000)
model = GPT2LMHeadModel(config).cuda().eval()
kept = []


def serve_request(batch):
    ids = torch.randint(0, 1000, (batch, 1024), device="cuda")
    with torch.no_grad():
        out = model(ids, use_cache=True)  # LINE:forward
    kept.append(out.past_key_values)  # LINE:keep


try:
    for i in range(1000):
        serve_request(48)
except torch.OutOfMemoryError:
    print("oom after", len(kept), "requests")

