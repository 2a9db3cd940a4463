"""An inference server's loop on a GPU, for the case tests/cases/growth/live_top.sh.

With --leak it keeps, every --every seconds, an 8 MiB copy of a batch's
output "for debugging" and never lets it go: a slow leak of the kind a server
lives with for days. Without it, the same loop holds nothing from one batch to
the next. Writes its pid to --ready once the first batch ran.
"""
import argparse
import os
import time

import torch


def load_model(device):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(512, 1024), torch.nn.ReLU(), torch.nn.Linear(1024, 512)
    ).to(device).eval()


def serve_batch(model, device):
    x = torch.randn(64, 512, device=device)  # 128 KiB: the caching allocator's small pool
    with torch.no_grad():
        return model(x)


def keep_for_debugging(kept, out):
    # 8 MiB, so that it comes from the large pool, which nothing else uses
    # after start-up: each new segment is this line's.
    kept.append(out.repeat(64, 1).contiguous())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--leak", action="store_true")
    p.add_argument("--seconds", type=float, default=180)
    p.add_argument("--every", type=float, default=1.0)
    p.add_argument("--ready", default="")
    a = p.parse_args()
    device = torch.device("cuda")
    model = load_model(device)
    kept = []
    start = time.monotonic()
    last_kept = start
    first = True
    while time.monotonic() - start < a.seconds:
        out = serve_batch(model, device)
        torch.cuda.synchronize()
        if a.leak and time.monotonic() - last_kept >= a.every:
            keep_for_debugging(kept, out)
            last_kept = time.monotonic()
        if first and a.ready:
            with open(a.ready, "w") as f:
                f.write(str(os.getpid()) + "\n")
            first = False
        time.sleep(0.01)
    print(f"served for {a.seconds:.0f} s; kept {len(kept)} outputs")


if __name__ == "__main__":
    main()
