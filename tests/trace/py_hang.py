# A Python program whose worker thread hangs in a HIP call: through
# ctypes it calls libfake_caller.so (tests/trace/fake_caller.c), linked
# against the stand-in tests/fake/fake_hang_libamdhip64.c, whose
# hipMemcpyAsync of 256 MiB never returns (a framework library calling
# its runtime, both loaded RTLD_LOCAL as ctypes does);
# tests/scripts/test_trace_python.sh checks that the hang report names
# this file's lines.
import ctypes
import sys
import threading


def step(lib):
    return lib.fake_caller_upload()


def worker(lib):
    step(lib)


def main():
    lib = ctypes.CDLL(sys.argv[1])
    print("training", flush=True)
    t = threading.Thread(target=worker, args=(lib,))
    t.start()
    t.join()


main()
