#!/usr/bin/env bash
# An NVIDIA GPU seen from a container (docs/virtual.md): without
# /dev/nvidiactl it was started without the GPU; with the node but no
# libcuda.so.1 the driver's libraries were not passed in; with both it is
# judged as any NVIDIA GPU; a tree without /dev (a capture stores no device
# nodes) and a tree that is no container are not judged so. The trees are
# the nvidia-v100x2-docker-no-gpus fixture (anibali/docker-pytorch#27) with
# the one file each case adds or removes.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name, tree, expected regex, forbidden regex
  local out
  out=$(env -i PATH=/usr/bin:/bin LANG=C HOME=/nonexistent \
    "$GPUDOCTOR" --root "$2" 2>&1 | tr "\n" " ")
  if ! grep -Eq -- "$3" <<<"$out"; then
    echo "FAIL $1: no /$3/"; fail=1
  elif [ -n "$4" ] && grep -Eq -- "$4" <<<"$out"; then
    echo "FAIL $1: /$4/ in the report"; fail=1
  else
    echo "ok - $1"
  fi
}

base="$GD_SRCDIR/tests/fixtures/nvidia-v100x2-docker-no-gpus/root"
cp -a "$base" "$tmp/r"
check "no /dev/nvidiactl: started without the GPU" "$tmp/r" \
  'started without the GPU.*--gpus all.*nvidia.com/gpu=all.*nvidia.com/gpu: 1' \
  'Install NVIDIA|modprobe nvidia|CUDA should work'

touch "$tmp/r/dev/nvidiactl" "$tmp/r/dev/nvidia0" "$tmp/r/dev/nvidia1"
check "nodes, no libcuda.so.1: NVIDIA_DRIVER_CAPABILITIES" "$tmp/r" \
  "driver's libcuda.so.1 is not.*NVIDIA_DRIVER_CAPABILITIES=compute,utility" \
  'started without the GPU|Install NVIDIA'

mkdir -p "$tmp/r/opt/nvlib" "$tmp/r/etc"
touch "$tmp/r/opt/nvlib/libcuda.so.1"
echo /opt/nvlib >"$tmp/r/etc/ld.so.conf"
check "libcuda.so.1 in an ld.so.conf folder: found" "$tmp/r" \
  'current CUDA builds no longer support this GPU' 'libcuda.so.1 is not'
rm -rf "$tmp/r/opt" "$tmp/r/etc"

mkdir -p "$tmp/r/usr/lib/x86_64-linux-gnu"
touch "$tmp/r/usr/lib/x86_64-linux-gnu/libcuda.so.1"
check "nodes and libcuda.so.1: judged as any NVIDIA GPU" "$tmp/r" \
  'current CUDA builds no longer support this GPU' \
  'started without the GPU|libcuda.so.1 is not'

rm -rf "$tmp/r/dev" "$tmp/r/usr"
check "no /dev in the tree: not judged for its nodes" "$tmp/r" \
  'current CUDA builds no longer support this GPU' 'started without the GPU'

cp -a "$base" "$tmp/h"
rm "$tmp/h/.dockerenv"
check "no container marker: not a container" "$tmp/h" \
  'current CUDA builds no longer support this GPU' 'started without the GPU'

exit $fail
