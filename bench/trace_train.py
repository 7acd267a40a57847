"""bench/trace-train.sh's PyTorch training step: a 4-layer MLP (4096 wide,
batch 256, fp32, AdamW) on the GPU; prints the median time of one step in
microseconds over 5 reps of 200 steps (after 50 warm-up steps), each step
ending in a synchronisation so that the step's every call is counted."""
import statistics
import sys
import time

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
torch.manual_seed(0)
dev = "cuda"
model = torch.nn.Sequential(
    torch.nn.Linear(4096, 4096), torch.nn.ReLU(),
    torch.nn.Linear(4096, 4096), torch.nn.ReLU(),
    torch.nn.Linear(4096, 4096), torch.nn.ReLU(),
    torch.nn.Linear(4096, 1024)).to(dev)
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
x = torch.randn(256, 4096, device=dev)
y = torch.randn(256, 1024, device=dev)


def step():
    opt.zero_grad(set_to_none=True)
    loss = torch.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    torch.cuda.synchronize()


for _ in range(50):
    step()
reps = []
for _ in range(5):
    t0 = time.perf_counter_ns()
    for _ in range(steps):
        step()
    reps.append((time.perf_counter_ns() - t0) / steps / 1000)
print(f"{statistics.median(reps):.1f}")
