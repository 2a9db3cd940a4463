# Keeps each "request's" cache alive, as a server that stores every KV cache
# does, in tensors of uneven sizes, freeing a small scratch tensor after each:
# the device fills with live tensors, and the last request finds only pieces
# of free space in PyTorch's segments. The growth, not the fragmentation, is
# why memory ran out.
import torch

kept = []


def serve_request(i):
    scratch = torch.empty((64 + 8 * (i % 5)) << 20, dtype=torch.uint8, device="cuda")
    cache = torch.empty((700 + 97 * (i % 4)) << 20, dtype=torch.uint8, device="cuda")  # LINE:cache
    kept.append(cache)
    del scratch


try:
    for i in range(10000):
        serve_request(i)
except torch.OutOfMemoryError:
    print("oom after", len(kept), "requests")
