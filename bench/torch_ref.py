#!/usr/bin/env python3
"""PyTorch reference figures for bench/probe-cuda.sh, measured the way
`gpudoctor probe --bench` measures them: same sizes, CUDA events, warm-ups,
median of repeats, copy bandwidth counting bytes once. Prints one JSON
object {figure_name: value} on stdout (units as gpudoctor's).

Launch latency is the one figure PyTorch cannot measure as gpudoctor does:
every torch call goes through Python and the ATen dispatcher (several us)
before cuLaunchKernel. So there is no "launch_latency" key; instead
"launch_latency_eager" (x.add_(1) + synchronize, what a PyTorch user sees)
and "launch_latency_graph" (a one-kernel CUDA graph replayed +
synchronize: less dispatch, but cudaGraphLaunch instead of
cuLaunchKernel) are printed for information (docs/probe.md)."""
import json
import statistics
import sys
import time

import torch

dev = torch.device("cuda")
torch.backends.cuda.matmul.allow_tf32 = False  # fp32 = real SGEMM, as cublasSgemm
torch.backends.cudnn.allow_tf32 = False


def events(fn, reps=10, warm=2):
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ts = []
    for i in range(warm + reps):
        s.record()
        fn()
        e.record()
        e.synchronize()
        if i >= warm:
            ts.append(s.elapsed_time(e) * 1e-3)
    return statistics.median(ts)


def wall(fn, reps, warm):
    ts = []
    for i in range(warm + reps):
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        if i >= warm:
            ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


out = {}
GiB, MiB = 1 << 30, 1 << 20

a = torch.ones(GiB, dtype=torch.uint8, device=dev)
b = torch.empty_like(a)
out["d2d_bandwidth"] = GiB / events(lambda: b.copy_(a)) / 1e9
del a, b

hs = 256 * MiB
d = torch.empty(hs, dtype=torch.uint8, device=dev)
pin = torch.full((hs,), 2, dtype=torch.uint8).pin_memory()
out["h2d_pinned"] = hs / events(lambda: d.copy_(pin, non_blocking=True)) / 1e9
out["d2h_pinned"] = hs / events(lambda: pin.copy_(d, non_blocking=True)) / 1e9
page = torch.full((hs,), 3, dtype=torch.uint8)
# pageable: torch.full faulted the pages in; copy_() is cudaMemcpyAsync on
# the current stream + cudaStreamSynchronize, which gpudoctor mirrors with
# cuMemcpyHtoDAsync + cuStreamSynchronize; same 2 warm-ups, median of 10
out["h2d_pageable"] = hs / wall(lambda: d.copy_(page), 10, 2) / 1e9
del d, pin, page

x = torch.zeros(1, device=dev)
out["launch_latency_eager"] = wall(lambda: x.add_(1), 200, 20) * 1e6
try:
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        x.add_(1)  # warm-up outside the capture
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        x.add_(1)
    out["launch_latency_graph"] = wall(g.replay, 200, 20) * 1e6
except Exception as e:  # graphs unsupported: say so, keep the rest
    out["launch_latency_graph_error"] = str(e)

n = 8192
for name, dt in (("gemm_fp32_rate", torch.float32), ("gemm_fp16_rate", torch.float16),
                 ("gemm_bf16_rate", torch.bfloat16)):
    A = torch.full((n, n), 0.01, dtype=dt, device=dev)
    B = torch.full((n, n), 0.01, dtype=dt, device=dev)
    C = torch.empty((n, n), dtype=dt, device=dev)
    t = events(lambda: torch.matmul(A, B, out=C), reps=10, warm=3)
    out[name] = 2.0 * n ** 3 / t / 1e12
    del A, B, C

out["_device"] = torch.cuda.get_device_name(0)
out["_torch"] = torch.__version__
out["_cuda"] = torch.version.cuda
json.dump(out, sys.stdout)
print()
