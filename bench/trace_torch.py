"""bench/trace.sh's PyTorch loop: N idle stream synchronisations
(cudaStreamSynchronize through the wheel's shared libcudart), min of 5
reps, ns per call (Python's own cost included: compare with plain)."""
import sys
import time

import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
s = torch.cuda.current_stream()
s.synchronize()
best = float("inf")
for _ in range(5):
    t0 = time.perf_counter_ns()
    for _ in range(n):
        s.synchronize()
    best = min(best, (time.perf_counter_ns() - t0) / n)
print(f"{best:.1f}")
