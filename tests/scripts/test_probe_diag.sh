#!/usr/bin/env bash
# A failed probe init asks the runtime itself (docs/probe.md,
# "Diagnostics"), on the real runtimes Debian gives:
#  - the real Vulkan loader with VK_DRIVER_FILES (and VK_ICD_FILENAMES for
#    older loaders) at an ICD manifest whose library_path does not exist,
#    and at a copy of Mesa's lavapipe whose DT_NEEDED names a libLLVM that
#    is not installed (the copy's .dynstr edited, same length): the
#    loader's own VK_LOADER_DEBUG lines are quoted, ld.so's not-found list
#    names the library, the cause is cause.missing_library;
#  - the stand-in ICD tests/fake/fake_vk_icd_no_create_instance.c (the
#    NVIDIA libEGL case as a fault): the loader's "Could not get
#    'vkCreateInstance'" line picked by its kb signature, cause
#    cause.icd_incomplete naming the library it looked for;
#  - PoCL through ocl-icd with OCL_ICD_VENDORS at a .icd naming a missing
#    library (Debian's ocl-icd prints nothing even with OCL_ICD_DEBUG: the
#    cause comes from the ICD facts) and at a copy of libpocl whose
#    libhwloc dependency is renamed (ld.so's list names it);
#  - Debian's HIP 5.2 with AMD_LOG_LEVEL=4 and no GPU: its "hsa_init
#    failed" line quoted, cause cause.no_gpu;
#  - a copy of HIP 5.2 whose libhsa-runtime64 dependency is renamed: the
#    dlerror kept in the missing result, cause.missing_library naming it;
#  - every init that fails on this machine ends in a cause.
set -u
G=${GPUDOCTOR:?GPUDOCTOR must name the built binary}
SRC=${GD_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0

ok() { echo "ok   - $1"; }
bad() { echo "FAIL - $1"; fails=$((fails + 1)); }
# check DESC FILE JQ-EXPR (on the init result of the one backend probed)
check() {
	if jq -e "[.results[] | select(.op == \"init\")][0] | $3" "$2" \
		>/dev/null 2>&1; then ok "$1"; else
		bad "$1"
		jq -c '[.results[] | select(.op == "init")]' "$2" 2>/dev/null |
			head -c 3000
		echo
	fi
}
probe() { # probe NAME BACKEND [VAR=VALUE...]
	local name=$1 backend=$2
	shift 2
	env "$@" "$G" probe --json --backend "$backend" --total-timeout 60 \
		>"$tmp/$name.json" 2>"$tmp/$name.err"
}

lvp=/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so
pocl=/usr/lib/x86_64-linux-gnu/libpocl.so.2

# 1. Vulkan: the manifest's library does not exist
if [ -e /usr/lib/x86_64-linux-gnu/libvulkan.so.1 ]; then
	cat >"$tmp/gone.json" <<EOF
{"file_format_version": "1.0.0",
 "ICD": {"library_path": "$tmp/gone/libvulkan_gone.so", "api_version": "1.3.0"}}
EOF
	probe vk_gone vulkan VK_DRIVER_FILES="$tmp/gone.json" \
		VK_ICD_FILENAMES="$tmp/gone.json"
	f=$tmp/vk_gone.json
	check "vulkan, library_path missing: no_device" "$f" \
		'.status == "no_device"'
	check "vulkan, library_path missing: re-run with VK_LOADER_DEBUG" "$f" \
		'.diagnostics.ran and (.diagnostics.env | index("VK_LOADER_DEBUG=error,warn"))'
	check "vulkan, library_path missing: the loader's own line quoted" "$f" \
		'.diagnostics.lines | map(.text) | any(test("libvulkan_gone.so: cannot open shared object file"))'
	check "vulkan, library_path missing: cause.missing_library, manifest named" \
		"$f" '.cause.code == "cause.missing_library" and (.cause.text | test("gone.json"))'
else
	echo "skip - no Vulkan loader"
fi

# 2. Vulkan: lavapipe copied, its libLLVM dependency renamed
if [ -e "$lvp" ] && readelf -d "$lvp" | grep -q 'libLLVM-15.so.1'; then
	python3 - "$lvp" "$tmp/libvulkan_lvp.so" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
a = b'libLLVM-15.so.1\0'
assert d.count(a) == 1
open(sys.argv[2], 'wb').write(d.replace(a, b'libLLVM-15.so.7\0'))
EOF
	cat >"$tmp/dep.json" <<EOF
{"file_format_version": "1.0.0",
 "ICD": {"library_path": "$tmp/libvulkan_lvp.so", "api_version": "1.3.230"}}
EOF
	probe vk_dep vulkan VK_DRIVER_FILES="$tmp/dep.json" \
		VK_ICD_FILENAMES="$tmp/dep.json"
	f=$tmp/vk_dep.json
	check "lavapipe without its libLLVM: the loader's dlerror quoted" "$f" \
		'.diagnostics.lines | map(.text) | any(test("libLLVM-15.so.7: cannot open shared object file"))'
	check "lavapipe without its libLLVM: ld.so did not find it" "$f" \
		'.diagnostics.not_found | index("libLLVM-15.so.7")'
	check "lavapipe without its libLLVM: cause names it and the driver" "$f" \
		'.cause.code == "cause.missing_library" and (.cause.text | test("libLLVM-15.so.7")) and (.cause.text | test("libvulkan_lvp.so"))'
	# ld.so's search-path lines of any length (issue #20: on an AVX-512
	# CPU the system one is 2.4 KiB, and a 2 KiB line buffer lost its
	# marker): an LD_LIBRARY_PATH of 3 KiB and of 80 KiB makes ld.so print
	# lines that long; the not-found list is the same. (The system line
	# itself made long on any CPU: tests/unit/test_sup_lines.c.)
	for kib in 3 80; do
		lp=$(python3 -c "import sys; k=int(sys.argv[1]); print(':'.join('$tmp/no/such/dir/%05d' % i for i in range(k * 1024 // (len('$tmp') + 20) + 1)))" $kib)
		probe vk_lp$kib vulkan VK_DRIVER_FILES="$tmp/dep.json" \
			VK_ICD_FILENAMES="$tmp/dep.json" LD_LIBRARY_PATH="$lp"
		check "LD_LIBRARY_PATH of ${#lp} bytes: ld.so did not find libLLVM" \
			"$tmp/vk_lp$kib.json" '.diagnostics.not_found | index("libLLVM-15.so.7")'
	done
else
	echo "skip - no lavapipe built against libLLVM-15.so.1"
fi

# 3. Vulkan: an ICD that loads but gives no vkCreateInstance
if cc -shared -fPIC -o "$tmp/libfake_icd.so" \
	"$SRC/tests/fake/fake_vk_icd_no_create_instance.c" -ldl 2>"$tmp/cc.err"; then
	cat >"$tmp/fake.json" <<EOF
{"file_format_version": "1.0.0",
 "ICD": {"library_path": "$tmp/libfake_icd.so", "api_version": "1.3.230"}}
EOF
	probe vk_fake vulkan VK_DRIVER_FILES="$tmp/fake.json" \
		VK_ICD_FILENAMES="$tmp/fake.json"
	f=$tmp/vk_fake.json
	check "ICD without vkCreateInstance: the loader's line, by its signature" \
		"$f" '.diagnostics.lines | any(.signature == "vk-icd-no-create-instance" and (.text | test("Could not get .vkCreateInstance. via .vk_icdGetInstanceProcAddr. for ICD")))'
	check "ICD without vkCreateInstance: cause.icd_incomplete with ld.so's find" \
		"$f" '.cause.code == "cause.icd_incomplete" and (.cause.text | test("libgpudoctor_fake_runtime_dep.so.1"))'
	check "ICD without vkCreateInstance: the fix names libegl1 (NVIDIA)" \
		"$f" '.cause.fix | test("libegl1")'
	env VK_DRIVER_FILES="$tmp/fake.json" VK_ICD_FILENAMES="$tmp/fake.json" \
		"$G" probe --backend vulkan --total-timeout 60 >"$tmp/vk_fake.txt" 2>&1
	if grep -q "cause: the Vulkan driver .*libfake_icd.so loads but" "$tmp/vk_fake.txt" &&
		grep -q "> ERROR: loader_scanned_icd_add: Could not get" "$tmp/vk_fake.txt"; then
		ok "ICD without vkCreateInstance: text output quotes and names the cause"
	else
		bad "ICD without vkCreateInstance: text output"
		cat "$tmp/vk_fake.txt"
	fi
else
	bad "cannot build the fake ICD: $(cat "$tmp/cc.err")"
fi

# 4. OpenCL through ocl-icd: a .icd naming a missing library; a libpocl copy
# missing its libhwloc
if [ -e /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 ]; then
	mkdir -p "$tmp/vend" "$tmp/vdep"
	echo "$tmp/gone/libgone_ocl.so" >"$tmp/vend/gone.icd"
	probe ocl_gone opencl OCL_ICD_VENDORS="$tmp/vend"
	f=$tmp/ocl_gone.json
	check "ocl-icd, .icd naming a missing library: re-run with OCL_ICD_DEBUG" \
		"$f" '.diagnostics.ran and (.diagnostics.env | index("OCL_ICD_DEBUG=3"))'
	check "ocl-icd, .icd naming a missing library: cause names both" "$f" \
		'.cause.code == "cause.missing_library" and (.cause.text | test("libgone_ocl.so")) and (.cause.text | test("gone.icd"))'
	if [ -e "$pocl" ] && readelf -d "$pocl" | grep -q 'libhwloc.so.15'; then
		python3 - "$pocl" "$tmp/libpocl.so.2" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
a = b'libhwloc.so.15\0'
assert d.count(a) == 1
open(sys.argv[2], 'wb').write(d.replace(a, b'libhwloc.so.99\0'))
EOF
		echo "$tmp/libpocl.so.2" >"$tmp/vdep/pocl.icd"
		probe ocl_dep opencl OCL_ICD_VENDORS="$tmp/vdep"
		f=$tmp/ocl_dep.json
		check "PoCL without its libhwloc: ld.so's list names it" "$f" \
			'.diagnostics.not_found | index("libhwloc.so.99")'
		check "PoCL without its libhwloc: cause.missing_library" "$f" \
			'.cause.code == "cause.missing_library" and (.cause.text | test("libhwloc.so.99"))'
	else
		echo "skip - no PoCL built against libhwloc.so.15"
	fi
else
	echo "skip - no OpenCL ICD loader"
fi

# 5. HIP 5.2 with no GPU: its own log
if [ -e /usr/lib/x86_64-linux-gnu/libamdhip64.so.5 ] && [ ! -e /dev/kfd ]; then
	probe hip hip
	f=$tmp/hip.json
	check "HIP: re-run with AMD_LOG_LEVEL=4" "$f" \
		'.diagnostics.ran and (.diagnostics.env | index("AMD_LOG_LEVEL=4"))'
	check "HIP: its 'hsa_init failed' line quoted by its signature" "$f" \
		'.diagnostics.lines | any(.signature == "hip-hsa-init-failed" and (.text | test("rocdevice.cpp .*hsa_init failed")))'
	check "HIP: the probe's own soname tries are not 'not found'" "$f" \
		'.diagnostics.not_found | all(test("amdhip64") | not)'
	if ! grep -qi '^0x1002' /sys/bus/pci/devices/*/vendor 2>/dev/null; then
		check "HIP: no AMD GPU here: cause.no_gpu" "$f" \
			'.cause.code == "cause.no_gpu"'
	fi
else
	echo "skip - no HIP 5.2 runtime, or a machine with /dev/kfd"
fi

# 6. HIP 5.2 copied, its libhsa-runtime64 dependency renamed: the loader's
# dlerror names the dependency, not "HIP not found"
hip=/usr/lib/x86_64-linux-gnu/libamdhip64.so.5
if [ -e "$hip" ] && readelf -d "$hip" | grep -q 'libhsa-runtime64.so.1'; then
	mkdir -p "$tmp/hipdep"
	python3 - "$hip" "$tmp/hipdep/libamdhip64.so.5" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
a = b'libhsa-runtime64.so.1\0'
assert d.count(a) == 1
open(sys.argv[2], 'wb').write(d.replace(a, b'libhsa-runtime64.so.9\0'))
EOF
	probe hipdep hip GPUDOCTOR_LIB_PATH="$tmp/hipdep"
	f=$tmp/hipdep.json
	check "HIP without its libhsa-runtime64: missing, the dlerror kept" "$f" \
		'.status == "missing" and (.detail | test("libhsa-runtime64.so.9: cannot open shared object file"))'
	check "HIP without its libhsa-runtime64: cause.missing_library names it" \
		"$f" '.cause.code == "cause.missing_library" and (.cause.text | test("libhsa-runtime64.so.9"))'
else
	echo "skip - no HIP 5.2 runtime linked to libhsa-runtime64.so.1"
fi

# 7. every init that fails here ends in a named cause (not cause.unknown)
"$G" probe --json --quick --total-timeout 60 >"$tmp/all.json" 2>/dev/null
if jq -e '[.results[] | select(.op == "init" and .status != "ok" and .status != "wrong")] | all(.cause.code != null and .cause.code != "cause.unknown")' \
	"$tmp/all.json" >/dev/null; then
	ok "every failed init on this machine has a cause: $(jq -c '[.results[] | select(.op == "init" and .cause) | .backend + ": " + .cause.code]' "$tmp/all.json")"
else
	bad "a failed init without a cause"
	jq -c '[.results[] | select(.op == "init")]' "$tmp/all.json"
fi

[ "$fails" -eq 0 ] && echo "all passed" || echo "$fails failed"
[ "$fails" -eq 0 ]
