#!/usr/bin/env python3
"""Make real GPU failures happen on a real NVIDIA machine and keep what the
programs print, so explain's signatures are checked against the wording of
the releases installed there (PyTorch, CUDA, NCCL, Triton, JAX, CuPy, ONNX
Runtime), not only against older threads.

  tools/capture-gpu-failures.py OUTDIR [NAME ...]

Each case runs in its own process (a time limit of 120 s each) and leaves
OUTDIR/NAME.txt: the last 60 lines of its stdout and stderr together, as
printed. OUTDIR/cases.tsv says per case the exit status, the seconds it
took and whether the failure happened (a case whose program succeeded is
kept but marked: the machine did not reproduce it). Nothing here changes the
GPU's settings (compute mode, clocks, MIG); the cases only ask for too much,
the wrong device, or a broken set-up of the process itself.

Needs python3 with torch on the machine; cases for the other packages are
marked "skipped" when the package is missing. tests/fixtures/logs/README.md
says which fixtures came from a run of this script, on which machine and
date.
"""
import os
import subprocess
import sys
import tempfile
import time

PY = sys.executable

# A kernel that stores to address 16: an illegal address on any GPU. PTX
# ISA 7.0 / sm_50 so that every driver since CUDA 11 JIT-compiles it.
PTX = r"""
.version 7.0
.target sm_50
.address_size 64
.visible .entry bad()
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<2>;
  mov.u64 %rd1, 16;
  mov.u32 %r1, 1;
  st.global.u32 [%rd1], %r1;
  ret;
}
"""

# An empty kernel in PTX of the given ISA version for the given target.
def empty_ptx(version, target):
    return (".version %s\n.target %s\n.address_size 64\n"
            ".visible .entry k()\n{\n  ret;\n}\n" % (version, target))

ILLEGAL = r"""
import ctypes, torch
torch.zeros(1, device='cuda')
cu = ctypes.CDLL('libcuda.so.1')
ptx = %r
mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
assert cu.cuModuleLoadData(ctypes.byref(mod), ctypes.c_char_p(ptx.encode())) == 0
assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, b'bad') == 0
print('launch', cu.cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, None, None, None))
x = torch.ones(4, device='cuda')
torch.cuda.synchronize()
print(x.sum().item())
""" % PTX

NCCL_DUP = r"""
import os, torch, torch.distributed as dist, torch.multiprocessing as mp
def run(rank):
    os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29517')
    dist.init_process_group('nccl', rank=rank, world_size=2)
    torch.cuda.set_device(0)
    t = torch.ones(1, device='cuda:0')
    dist.all_reduce(t)
    torch.cuda.synchronize()
    print(rank, t.item())
    dist.destroy_process_group()
if __name__ == '__main__':
    mp.spawn(run, nprocs=2)
"""

NCCL_TIMEOUT = r"""
import datetime, os, time, torch, torch.distributed as dist, torch.multiprocessing as mp
def run(rank):
    os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29519')
    torch.cuda.set_device(rank)
    dist.init_process_group('nccl', rank=rank, world_size=2,
                            timeout=datetime.timedelta(seconds=10))
    t = torch.ones(1, device='cuda')
    dist.all_reduce(t)
    torch.cuda.synchronize()
    if rank == 0:
        dist.all_reduce(t)  # rank 1 never joins this one
        torch.cuda.synchronize()
    time.sleep(40)
if __name__ == '__main__':
    if torch.cuda.device_count() < 2:
        raise SystemExit('needs 2 GPUs')
    mp.spawn(run, nprocs=2)
"""

JAX_TWO = r"""
import subprocess, sys
hold = subprocess.Popen([sys.executable, '-c',
    'import jax.numpy as jnp, time; x = jnp.ones(4); x.block_until_ready(); print("held", flush=True); time.sleep(60)'],
    stdout=subprocess.PIPE)
hold.stdout.readline()
try:
    import jax.numpy as jnp
    x = jnp.ones((2**33,), dtype=jnp.uint8)
    print(x.sum())
finally:
    hold.kill()
"""

TORCHRUN_RANK = r"""
import os, torch, torch.distributed as dist
rank = int(os.environ['LOCAL_RANK'])
torch.cuda.set_device(rank)
dist.init_process_group('nccl')
t = torch.ones(1, device='cuda')
dist.all_reduce(t)
print(rank, t.item())
"""

HF_TINY = r"""
import torch, transformers
cfg = transformers.LlamaConfig(hidden_size=64, intermediate_size=128,
    num_hidden_layers=1, num_attention_heads=4, num_key_value_heads=4,
    vocab_size=128)
transformers.LlamaForCausalLM(cfg).save_pretrained('/tmp/tiny-llama')
%s
"""

FORK = r"""
import torch, multiprocessing as mp
torch.zeros(1, device='cuda')
def child():
    torch.zeros(1, device='cuda')
p = mp.get_context('fork').Process(target=child)
p.start(); p.join()
raise SystemExit(p.exitcode)
"""

OTHER_HOLDS = r"""
import subprocess, sys, time, torch
free, total = torch.cuda.mem_get_info()
hold = subprocess.Popen([sys.executable, '-c',
    'import torch,time; x=torch.empty(%d, dtype=torch.uint8, device="cuda"); print("held", flush=True); time.sleep(60)'
    % int(free * 0.9)], stdout=subprocess.PIPE)
hold.stdout.readline()
try:
    y = torch.empty(int(free * 0.3), dtype=torch.uint8, device='cuda')
finally:
    hold.kill()
"""

TRITON_SMEM = r"""
import torch, triton, triton.language as tl
@triton.jit
def k(a, b, c, B: tl.constexpr):
    i = tl.arange(0, B)
    x = tl.load(a + i[:, None] * B + i[None, :])
    y = tl.load(b + i[:, None] * B + i[None, :])
    tl.store(c + i[:, None] * B + i[None, :], tl.dot(x, y))
B = 256
a = torch.randn(B, B, device='cuda'); b = torch.randn(B, B, device='cuda')
c = torch.empty(B, B, device='cuda')
k[(1,)](a, b, c, B)
torch.cuda.synchronize()
"""

ORT_CUDA = r"""
import onnx, onnxruntime as ort
from onnx import helper, TensorProto
g = helper.make_graph([helper.make_node('Relu', ['x'], ['y'])], 'g',
    [helper.make_tensor_value_info('x', TensorProto.FLOAT, [1])],
    [helper.make_tensor_value_info('y', TensorProto.FLOAT, [1])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 13)])
m.ir_version = 7
p = '/tmp/relu.onnx'
onnx.save(m, p)
s = ort.InferenceSession(p, providers=['CUDAExecutionProvider'])
print('providers in use:', s.get_providers())
"""

# torch.distributed's rendezvous: rank 1 of 2 told to find its master at an
# address nobody answers on (no route on an isolated machine, a time-out
# elsewhere); rank 0 told to listen on a port another socket holds.
DIST_NO_MASTER = r"""
import datetime, torch.distributed as dist
dist.init_process_group('nccl', init_method='tcp://10.255.255.1:29541',
                        rank=1, world_size=2,
                        timeout=datetime.timedelta(seconds=10))
"""

DIST_PORT_BUSY = r"""
import os, socket, torch.distributed as dist
s = socket.socket()
s.bind(('0.0.0.0', 29543))
s.listen()
os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29543')
dist.init_process_group('nccl', rank=0, world_size=1)
"""

# Rank 0 of 2 whose peer never comes (the store waits for it), a collective
# without a process group, env:// without RANK, NCCL with no GPU visible, and
# torchrun's c10d rendezvous at an endpoint nobody answers on.
DIST_ALONE = r"""
import datetime, os, torch.distributed as dist
os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29545')
dist.init_process_group('nccl', rank=0, world_size=2,
                        timeout=datetime.timedelta(seconds=10))
"""

DIST_NO_INIT = r"""
import torch, torch.distributed as dist
dist.all_reduce(torch.ones(1, device='cuda'))
"""

DIST_NO_RANK = r"""
import os, torch.distributed as dist
os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29547')
os.environ.pop('RANK', None)
dist.init_process_group('nccl', init_method='env://')
"""

DIST_NCCL_NO_GPU = r"""
import os, torch.distributed as dist
os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29549')
dist.init_process_group('nccl', rank=0, world_size=1)
import torch
dist.all_reduce(torch.ones(1))
"""

# A CUDA extension built the way setup.py files build them, asked for an
# architecture this PyTorch does not know (as a new GPU's number is to an
# older PyTorch), and one built at run time without ninja on PATH.
EXT_SETUP = r"""
import os, sys
d = '/tmp/gd_ext'
os.makedirs(d, exist_ok=True)
open(d + '/k.cu', 'w').write('__global__ void k() {}\nvoid launch() { k<<<1, 1>>>(); }\n')
open(d + '/m.cpp', 'w').write('#include <torch/extension.h>\nvoid launch();\n'
    'PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("launch", &launch); }\n')
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension
os.chdir(d)
sys.argv = ['setup.py', 'build_ext', '--inplace']
setup(name='gd_ext', ext_modules=[CUDAExtension('gd_ext', ['m.cpp', 'k.cu'])],
      cmdclass={'build_ext': BuildExtension})
"""

EXT_INLINE = r"""
from torch.utils.cpp_extension import load_inline
load_inline(name='gd_inline', cpp_sources='int f() { return 1; }',
            functions=['f'])
"""

CUDA_SRC = r"""
#include <cstdio>
__global__ void k(int *p) { *p = 1; }
int main() {
  int *d; cudaMalloc(&d, 4);
  k<<<1, 1>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) e = cudaGetLastError();
  printf("k: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  return e != cudaSuccess;
}
"""


# Hold every block of GPU memory PyTorch can get (a small tensor x made
# first), so that what comes next finds the GPU full.
FILL = r"""
x = torch.randn(64, 64, device='cuda')
hold = []
for size in (1 << 30, 1 << 26, 1 << 21):
    try:
        while True:
            hold.append(torch.empty(size, dtype=torch.uint8, device='cuda'))
    except torch.OutOfMemoryError:
        pass
print('held', sum(h.numel() for h in hold) >> 20, 'MiB', flush=True)
"""


def torch_case(code, **env):
    return ([PY, "-c", "import torch\n" + code], env)


# Scripts that must live in a file, by path: written when a case that
# names the path runs, not for every case.
FILES = {}


def file_case(name, code, **env):
    """Code that must live in a file: multiprocessing's spawn imports the
    main module again, and Triton reads a kernel's source from its file."""
    path = os.path.join(tempfile.gettempdir(), "gd_" + name + ".py")
    FILES[path] = code
    return ([PY, path], env)


def data_file(name, text):
    """A file a case reads (a PTX module), written like file_case's."""
    path = os.path.join(tempfile.gettempdir(), "gd_" + name)
    FILES[path] = text
    return path


# ISA 9.9 is newer than any CUDA 13.0 driver or ptxas reads (9.0);
# sm_120 is a newer GPU than the H200.
NEW_PTX = data_file("new.ptx", empty_ptx("9.9", "sm_50"))
# what torchrun starts (it never gets to run: the rendezvous fails first)
RDZV_SCRIPT = data_file("rdzv.py", "import torch.distributed as dist\n"
                        "dist.init_process_group('nccl')\n")
SM120_PTX = data_file("sm120.ptx", empty_ptx("8.7", "sm_120"))


def cupy_load(path):
    return ([PY, "-c", "import cupy; cupy.RawModule(path=%r).get_function('k')" % path], {})


def write_files(argv):
    for path, code in FILES.items():
        if any(path in a for a in argv):
            with open(path, "w") as f:
                f.write(code)


CASES = {
    # CUDA shown no GPU, or a GPU index it does not have
    "torch-visible-empty": torch_case("torch.zeros(1).cuda()",
                                      CUDA_VISIBLE_DEVICES=""),
    "torch-visible-minus1": torch_case("torch.zeros(1).cuda()",
                                       CUDA_VISIBLE_DEVICES="-1"),
    "torch-visible-index": torch_case("torch.zeros(1).cuda()",
                                      CUDA_VISIBLE_DEVICES="7"),
    "torch-visible-uuid": torch_case(
        "torch.zeros(1).cuda()",
        CUDA_VISIBLE_DEVICES="GPU-00000000-0000-0000-0000-000000000000"),
    "torch-device-ordinal": torch_case("torch.zeros(1, device='cuda:5')"),
    "torch-set-device": torch_case("torch.cuda.set_device(5)"),
    "torch-load-no-cuda": (["/bin/sh", "-c",
        PY + " -c \"import torch; torch.save(torch.ones(2, device='cuda'), '/tmp/t.pt')\" && "
        "CUDA_VISIBLE_DEVICES= " + PY + " -c \"import torch; torch.load('/tmp/t.pt')\""], {}),
    # memory
    "torch-oom-huge": torch_case(
        "torch.empty(2**43, dtype=torch.uint8, device='cuda')"),
    "torch-oom-fraction": torch_case(
        "torch.cuda.set_per_process_memory_fraction(0.01)\n"
        "x = torch.empty(2**31, dtype=torch.uint8, device='cuda')"),
    "torch-oom-full": torch_case(
        "f, t = torch.cuda.mem_get_info()\n"
        "a = torch.empty(int(f * 0.95), dtype=torch.uint8, device='cuda')\n"
        "b = torch.empty(int(f * 0.10), dtype=torch.uint8, device='cuda')"),
    "torch-oom-other-process": ([PY, "-c", OTHER_HOLDS], {}),
    "torch-oom-ulimit": (["/bin/sh", "-c", "ulimit -v 16000000; exec " + PY +
                          " -c \"import torch; torch.zeros(1).cuda()\""], {}),
    "torch-visible-duplicate": torch_case("torch.zeros(1).cuda()",
                                          CUDA_VISIBLE_DEVICES="0,0"),
    "torch-device-props": torch_case("torch.cuda.get_device_properties(3)"),
    "torch-alloc-conf-bad": torch_case(
        "torch.zeros(1).cuda()",
        PYTORCH_CUDA_ALLOC_CONF="expandable_segments:maybe"),
    # the GPU full when cuBLAS or cuDNN create their handles (the first
    # matmul, the first convolution): every block is held, then the call
    "torch-cublas-oom": torch_case(FILL + "print(x @ x)"),
    "torch-cudnn-oom": torch_case(
        "w = torch.randn(8, 3, 3, 3, device='cuda')\n" + FILL +
        "print(torch.nn.functional.conv2d(torch.randn(1, 3, 32, 32, device='cuda'), w))"),
    "torch-pinned-oom": torch_case(
        "torch.empty(2**42, dtype=torch.uint8, pin_memory=True)"),
    "torch-load-bad-index": (["/bin/sh", "-c",
        PY + " -c \"import torch; torch.save(torch.ones(2, device='cuda'), '/tmp/t3.pt')\" && " +
        PY + " -c \"import torch; torch.load('/tmp/t3.pt', map_location='cuda:3')\""], {}),
    # the program's own faults
    "torch-index-assert": torch_case(
        "x = torch.zeros(3, device='cuda')\n"
        "y = x[torch.tensor([5], device='cuda')]\ntorch.cuda.synchronize()"),
    "torch-nll-assert": torch_case(
        "import torch.nn.functional as F\n"
        "l = F.cross_entropy(torch.randn(4, 3, device='cuda'), "
        "torch.tensor([0, 1, 2, 9], device='cuda'))\ntorch.cuda.synchronize()"),
    "torch-illegal-address": ([PY, "-c", ILLEGAL], {}),
    "torch-mixed-devices": torch_case(
        "torch.zeros(2, device='cuda') @ torch.zeros(2)"),
    "torch-fork": ([PY, "-c", FORK], {}),
    "torch-nccl-same-gpu": file_case("nccl_dup", NCCL_DUP,
                                     NCCL_NVLS_ENABLE="0"),
    "torch-nccl-timeout": file_case("nccl_timeout", NCCL_TIMEOUT,
                                    NCCL_NVLS_ENABLE="0"),
    "jax-second-process": ([PY, "-c", JAX_TWO], {}),
    "torchrun-more-ranks-than-gpus": (["/bin/sh", "-c",
        PY + " -m torch.distributed.run --nproc_per_node=3 " + file_case("torchrun_rank", TORCHRUN_RANK)[0][1]],
        {"NCCL_NVLS_ENABLE": "0"}),
    "hf-bitsandbytes-missing": ([PY, "-c", HF_TINY % (
        "transformers.AutoModelForCausalLM.from_pretrained('/tmp/tiny-llama', "
        "quantization_config=transformers.BitsAndBytesConfig(load_in_4bit=True))")], {}),
    "hf-flash-attn-missing": ([PY, "-c", HF_TINY % (
        "transformers.AutoModelForCausalLM.from_pretrained('/tmp/tiny-llama', "
        "torch_dtype=torch.bfloat16, attn_implementation='flash_attention_2')")], {}),
    "torch-nccl-no-iface": torch_case(
        "import os, torch.distributed as dist\n"
        "os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29518')\n"
        "dist.init_process_group('nccl', rank=0, world_size=1)\n"
        "t = torch.ones(1, device='cuda'); dist.all_reduce(t)\n"
        "torch.cuda.synchronize()",
        NCCL_SOCKET_IFNAME="nosuchif0", NCCL_NVLS_ENABLE="0"),
    "nccl-net-ib-missing": torch_case(
        "import os, torch.distributed as dist\n"
        "os.environ.update(MASTER_ADDR='127.0.0.1', MASTER_PORT='29520')\n"
        "dist.init_process_group('nccl', rank=0, world_size=1)\n"
        "t = torch.ones(1, device='cuda'); dist.all_reduce(t)\n"
        "torch.cuda.synchronize()",
        NCCL_NET="IB", NCCL_NVLS_ENABLE="0"),
    "torch-compile-no-cc": torch_case(
        "f = torch.compile(lambda x: x * 2 + 1)\n"
        "print(f(torch.zeros(8, device='cuda')))",
        CC="/nonexistent/cc", CXX="/nonexistent/c++",
        TORCHINDUCTOR_CACHE_DIR="/tmp/inductor-nocc"),
    "triton-shared-memory": file_case("triton_smem", TRITON_SMEM),
    "triton-no-cc": file_case("triton_nocc", TRITON_SMEM.replace(
        "B = 256", "B = 32"), CC="/nonexistent/cc",
        TRITON_CACHE_DIR="/tmp/triton-nocc"),
    # other frameworks
    "jax-no-gpu": ([PY, "-c",
        "import jax; print(jax.devices('cuda'))"], {"CUDA_VISIBLE_DEVICES": ""}),
    "jax-platform-cuda-no-gpu": ([PY, "-c",
        "import jax; print(jax.devices())"],
        {"CUDA_VISIBLE_DEVICES": "", "JAX_PLATFORMS": "cuda"}),
    "jax-oom": ([PY, "-c",
        "import jax.numpy as jnp; x = jnp.ones((2**41,), dtype=jnp.uint8); print(x.sum())"], {}),
    "cupy-no-gpu": ([PY, "-c",
        "import cupy; cupy.zeros(1)"], {"CUDA_VISIBLE_DEVICES": ""}),
    "cupy-oom": ([PY, "-c",
        "import cupy; cupy.empty(2**43, dtype=cupy.uint8)"], {}),
    "ort-cuda-ep": ([PY, "-c", ORT_CUDA], {}),
    # torch.distributed's rendezvous and PyTorch's extension builder
    "torch-dist-no-master": ([PY, "-c", DIST_NO_MASTER], {}),
    "torch-dist-port-busy": ([PY, "-c", DIST_PORT_BUSY], {}),
    "torch-dist-peer-missing": ([PY, "-c", DIST_ALONE], {}),
    "torch-dist-no-init": ([PY, "-c", DIST_NO_INIT], {}),
    "torch-dist-no-rank": ([PY, "-c", DIST_NO_RANK], {}),
    "torch-dist-nccl-no-gpu": ([PY, "-c", DIST_NCCL_NO_GPU],
                               {"CUDA_VISIBLE_DEVICES": ""}),
    "torchrun-rdzv-unreachable": (["torchrun", "--nnodes=2", "--nproc-per-node=1",
        "--rdzv-backend=c10d", "--rdzv-endpoint=10.255.255.1:29400",
        "--rdzv-conf=timeout=15,read_timeout=15", RDZV_SCRIPT], {}),
    "torch-ext-arch-unknown": ([PY, "-c", EXT_SETUP],
                               {"TORCH_CUDA_ARCH_LIST": "13.5"}),
    "torch-ext-no-ninja": ([PY, "-c", EXT_INLINE], {"PATH": "/usr/bin:/bin"}),
    # NVRTC asked for an architecture it does not know (as an older NVRTC is
    # asked for a newer GPU's), and a program built against the shared
    # CUDA runtime started where the loader cannot find it
    "cupy-nvrtc-arch-unknown": ([PY, "-c",
        "import cupy; cupy.RawKernel('extern \"C\" __global__ void k() {}', 'k',"
        " options=('-arch=compute_130',)).compile()"], {}),
    "cudart-not-found": (["/bin/sh", "-c",
        "cd /tmp && cat > kr.cu <<'EOF'\n" + CUDA_SRC + "EOF\n"
        "nvcc -cudart shared kr.cu -o kr && "
        "LD_LIBRARY_PATH= exec /lib64/ld-linux-x86-64.so.2 --inhibit-cache ./kr"], {}),
    # the toolkit
    "nvcc-old-arch": (["/bin/sh", "-c",
        "cd /tmp && printf '%s' '__global__ void k(){}' > a.cu && nvcc -arch=sm_50 -c a.cu -o a.o"], {}),
    "nvcc-sm80-on-this-gpu": (["/bin/sh", "-c",
        "cd /tmp && cat > k.cu <<'EOF'\n" + CUDA_SRC + "EOF\n"
        "nvcc -gencode arch=compute_80,code=sm_80 k.cu -o k80 && ./k80"], {}),
    "nvidia-smi-bad-index": (["nvidia-smi", "-i", "9"], {}),
    # PTX from a toolkit newer than the driver (ISA 9.9: no CUDA 13.0 driver
    # knows it), and PTX for a newer GPU than this one, loaded by CuPy;
    # ptxas of the installed toolkit given the same newer PTX
    "cupy-ptx-too-new": cupy_load(NEW_PTX),
    "cupy-ptx-newer-gpu": cupy_load(SM120_PTX),
    "ptxas-ptx-too-new": (["ptxas", "-arch=sm_90", NEW_PTX, "-o", "/tmp/gd_new.cubin"], {}),
    "cuda-stub-libcuda": (["/bin/sh", "-c",
        "s=$(ls -d /usr/local/cuda*/lib64/stubs /usr/local/cuda*/targets/*/lib/stubs 2>/dev/null | head -1); "
        "echo stubs: $s; mkdir -p /tmp/stub && ln -sf $s/libcuda.so /tmp/stub/libcuda.so.1 && "
        "LD_LIBRARY_PATH=/tmp/stub exec " + PY +
        " -c \"import torch; print(torch.cuda.is_available()); torch.zeros(1).cuda()\""], {}),
}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    names = sys.argv[2:] or list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit("no such case: %s (cases: %s)" %
                 (", ".join(unknown), " ".join(CASES)))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cases.tsv"), "w") as tsv:
        tsv.write("# case\texit\tseconds\tfailed as meant\n")
        for name in names:
            argv, env = CASES[name]
            write_files(argv)
            e = dict(os.environ)
            e.update(env)
            e.setdefault("PYTHONUNBUFFERED", "1")
            t = time.time()
            try:
                p = subprocess.run(argv, env=e, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, timeout=120)
                rc, raw = p.returncode, p.stdout
            except subprocess.TimeoutExpired as x:
                rc, raw = "timeout", x.stdout or b""
            text = raw.decode("utf-8", "replace")
            lines = text.splitlines()[-60:]
            with open(os.path.join(out, name + ".txt"), "w") as f:
                f.write("\n".join(lines) + "\n")
            failed = "ModuleNotFoundError" not in text and rc != 0
            tsv.write("%s\t%s\t%.1f\t%s\n" % (name, rc, time.time() - t,
                                             "yes" if failed else "no"))
            tsv.flush()
            print(name, rc, "%.1fs" % (time.time() - t), flush=True)


if __name__ == "__main__":
    main()
