# Activations kept in a global list "for debugging" during a big epoch, the
# cache emptied, then a batch of one fails: the live activations hold the device.
import torch

model = torch.nn.Sequential(torch.nn.Linear(8192, 8192), torch.nn.ReLU()).cuda()
debug_activations = []


def big_epoch(share):
    free, total = torch.cuda.mem_get_info()
    per_batch = 4096 * 8192 * 4
    for _ in range(int(total * share) // per_batch):
        x = torch.randn(4096, 8192, device="cuda")
        h = model(x)  # LINE:forward
        debug_activations.append(h.detach())  # kept "for debugging"
        del x, h


def predict_one():
    x = torch.randn(1, 8192, device="cuda")
    free, total = torch.cuda.mem_get_info()
    lookup = torch.empty(int(total * 0.3), dtype=torch.uint8, device="cuda")  # LINE:predict
    return model(x), lookup


big_epoch(0.75)
torch.cuda.empty_cache()
try:
    predict_one()
    print("no oom")
except torch.OutOfMemoryError:
    print("oom as expected")
