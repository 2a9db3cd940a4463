# Another process holds most of the device; this one's request cannot fit.
import subprocess
import sys

import torch

free, total = torch.cuda.mem_get_info()
holder = subprocess.Popen(
    [sys.executable, "-c",
     "import sys, torch\n"
     "x = torch.empty(int(sys.argv[1]), dtype=torch.uint8, device='cuda')\n"
     "print('holding', flush=True)\n"
     "sys.stdin.read()\n",
     str(int(total * 0.7))],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
assert holder.stdout.readline().startswith("holding")
try:
    x = torch.empty(int(total * 0.5), dtype=torch.uint8, device="cuda")  # LINE:request
    print("no oom")
except torch.OutOfMemoryError:
    print("oom as expected")
holder.stdin.close()
holder.wait()
