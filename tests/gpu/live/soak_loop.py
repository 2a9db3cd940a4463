"""An inference server's loop for a soak test on a GPU (tests/cases/growth/soak_*.sh).

With --leak it keeps, every --every requests, a small copy (64 KiB) of a
batch's output "for debugging" and never lets it go: the slow leak of a
server that runs for days. The copies are small, so they land inside the
caching allocator's small segments beside the batches' own tensors; only
PyTorch's live tensors by line can name the line that keeps them. Without
--leak, the same loop holds nothing from one batch to the next. It counts
each request for cudaleak (cudaleak_impl_requests), so that growth is also
put per 1,000 requests, and writes its pid to --ready once the first batch
ran.
"""
import argparse
import ctypes
import os
import time

import torch


def request_counter():
    try:
        fn = ctypes.CDLL(None).cudaleak_impl_requests
    except AttributeError:  # not under cudaleak
        return lambda: None
    fn.argtypes = [ctypes.c_ulonglong]
    return lambda: fn(1)


def load_model(device):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 512)
    ).to(device).eval()


def serve_batch(model, device):
    x = torch.randn(64, 512, device=device)  # 128 KiB
    with torch.no_grad():
        return model(x)


# Module-level, as a server's debugging list is: still alive when the
# program's exit view is taken (a list local to main() would be freed first).
KEPT = []


def keep_for_debugging(out):
    KEPT.append(out[:32].clone())  # 64 KiB, kept for ever


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--leak", action="store_true")
    p.add_argument("--seconds", type=float, default=600)
    p.add_argument("--every", type=int, default=100, help="requests between two kept copies")
    p.add_argument("--ready", default="")
    a = p.parse_args()
    device = torch.device("cuda")
    model = load_model(device)
    count_request = request_counter()
    start = time.monotonic()
    requests = 0
    while time.monotonic() - start < a.seconds:
        out = serve_batch(model, device)
        torch.cuda.synchronize()
        requests += 1
        count_request()
        if a.leak and requests % a.every == 0:
            keep_for_debugging(out)
        if requests == 1 and a.ready:
            with open(a.ready, "w") as f:
                f.write(str(os.getpid()) + "\n")
        time.sleep(0.01)
    print(f"served {requests} requests in {a.seconds:.0f} s; kept {len(KEPT)} copies")


if __name__ == "__main__":
    main()
