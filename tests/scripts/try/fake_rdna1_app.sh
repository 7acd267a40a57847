#!/bin/sh
# Test double for a GPU program on an RX 5700 XT (gfx1010), behaving as the
# field reports describe under each workaround strategy (faults that no
# runtime here can produce on demand):
#   no override           -> the rocBLAS error, exit 1
#   override 10.3.0       -> SIGSEGV (the fault ROCm #2527 reports)
#   10.3.0 + MIOPEN_FIND_MODE=FAST -> works, exit 0
#   10.3.0 + MIOPEN_FIND_MODE=NORMAL -> hangs after llama.cpp's
#                            graph_reserve line, with a grandchild that
#                            must not survive
# $GD_TRY_MARKER names the grandchild so the test can look for it.
echo "loading model"
case "${HSA_OVERRIDE_GFX_VERSION-}" in
"")
	echo "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or directory for GPU arch : gfx1010"
	exit 1 ;;
10.3.0)
	if [ "${MIOPEN_FIND_MODE-}" = NORMAL ]; then
		sh -c 'sleep 1000; :' "${GD_TRY_MARKER:-fake_marker}" &
		echo "graph_reserve: reserving a graph for ubatch with n_tokens = 512"
		wait
		exit 0
	fi
	if [ -n "${MIOPEN_FIND_MODE-}" ]; then
		echo "all good"
		exit 0
	fi
	echo "ggml_cuda_init: found 1 ROCm devices"
	kill -SEGV $$ ;;
esac
exit 3
