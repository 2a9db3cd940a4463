# A short PyTorch program: a few training steps of a small MLP, one tensor
# kept in a global list on purpose (a real leak next to the caching allocator).
import torch

kept = []
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for step in range(5):
    x = torch.randn(64, 512, device="cuda")
    loss = model(x).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step == 2:
        kept.append(torch.empty(8 << 20, dtype=torch.uint8, device="cuda"))
torch.cuda.synchronize()
print(f"loss {loss.item():.4f}")
