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

# the capture's device list (docs/devnodes.md) with the GPUs' nodes
printf 'c 195:255 0666 0 0 root /dev/nvidiactl\nc 195:0 0666 0 0 root /dev/nvidia0\nc 195:1 0666 0 0 root /dev/nvidia1\n' \
  >>"$tmp/r/.gpudoctor/devnodes"
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

rm -rf "$tmp/r/dev" "$tmp/r/usr" "$tmp/r/.gpudoctor/devnodes"
check "no /dev in the tree: not judged for its nodes" "$tmp/r" \
  'current CUDA builds no longer support this GPU' 'started without the GPU'

# a gather capture from before the device list: .gpudoctor/environ and the
# empty dev/ that stat'ing /dev/nvidiactl left; its /dev was never recorded
mkdir -p "$tmp/r/dev"
: >"$tmp/r/.gpudoctor/environ"
check "an old capture (no device list): not judged for its nodes" "$tmp/r" \
  'current CUDA builds no longer support this GPU' 'started without the GPU'

# per GPU: the 8 x H100 tree (each GPU's Device Minor in its procfs
# information) in a container given /dev/nvidia4 only, as docker run
# --device=/dev/nvidiactl --device=/dev/nvidia-uvm --device=/dev/nvidia4
# gives (NVIDIA/nvidia-docker#170)
h="$GD_SRCDIR/tests/fixtures/nvidia-h100x8-pci-order/root"
cp -a "$h" "$tmp/p"
touch "$tmp/p/.dockerenv"
mkdir -p "$tmp/p/.gpudoctor" "$tmp/p/usr/lib/x86_64-linux-gnu"
touch "$tmp/p/usr/lib/x86_64-linux-gnu/libcuda.so.1"
printf 'gpudoctor-devnodes 1\nuser 0 0\nc 195:255 0666 0 0 root /dev/nvidiactl\nc 195:4 0666 0 0 root /dev/nvidia4\nc 509:0 0666 0 0 root /dev/nvidia-uvm\nc 509:1 0666 0 0 root /dev/nvidia-uvm-tools\n' \
  >"$tmp/p/.gpudoctor/devnodes"
out=$(env -i PATH=/usr/bin:/bin LANG=C HOME=/nonexistent "$GPUDOCTOR" --root "$tmp/p" --json check --no-probe 2>/dev/null)
n_not=$(jq '[.gpus[] | select(.verdict.facts | map(.code) | index("container.gpu_not_passed"))] | length' <<<"$out")
g4=$(jq -r '.gpus[] | select(.pci.bdf == "0000:9a:00.0") | .verdict.status' <<<"$out")
if [ "$n_not" = 7 ] && [ "$g4" = works ] &&
  jq -e '.gpus[0].verdict.steps | map(.text) | join(" ") | test("--gpus .\"device=GPU-b42dd28e")' <<<"$out" >/dev/null; then
  echo "ok - one GPU passed in: the other 7 judged not passed, with their UUIDs"
else
  echo "FAIL per-GPU nodes: $n_not not passed (want 7), 9a:00.0 $g4 (want works)"; fail=1
fi

# the same under the NVIDIA Container Toolkit (--gpus '"device=4"'): its
# tmpfs over /proc/driver/nvidia holds gpus/<bdf> of the passed GPU only
# (libnvidia-container; docs/discover.md, "NVIDIA"), so the 7 others have
# no minor
for b in 18 2a 3a 5d ab ba db; do rm -rf "$tmp/p/proc/driver/nvidia/gpus/0000:$b:00.0"; done
out=$(env -i PATH=/usr/bin:/bin LANG=C HOME=/nonexistent "$GPUDOCTOR" --root "$tmp/p" --json check --no-probe 2>/dev/null)
n_not=$(jq '[.gpus[] | select(.verdict.facts | map(.code) | index("container.gpu_not_passed"))] | length' <<<"$out")
g4=$(jq -r '.gpus[] | select(.pci.bdf == "0000:9a:00.0") | .verdict.status' <<<"$out")
if [ "$n_not" = 7 ] && [ "$g4" = works ]; then
  echo "ok - toolkit container: the 7 GPUs without a procfs entry judged not passed"
else
  echo "FAIL toolkit per-GPU: $n_not not passed (want 7), 9a:00.0 $g4 (want works)"; fail=1
fi
rm -rf "$tmp/p/proc" && cp -a "$h/proc" "$tmp/p/proc"

# the host itself (no container): /dev/nvidia-uvm missing, then
# /dev/nvidia4 closed to this user (mode 0660, group video, not theirs)
rm "$tmp/p/.dockerenv"
printf 'gpudoctor-devnodes 1\nuser 1000 1000\nc 195:255 0666 0 0 root /dev/nvidiactl\nc 195:4 0666 0 0 root /dev/nvidia4\n' \
  >"$tmp/p/.gpudoctor/devnodes"
check "host: /dev/nvidia-uvm missing, no nvidia-modprobe" "$tmp/p" \
  '/dev/nvidia-uvm does not exist.*nvidia-modprobe -u -c=4' 'not passed into this container'
mkdir -p "$tmp/p/usr/bin" && touch "$tmp/p/usr/bin/nvidia-modprobe"
check "host: /dev/nvidia-uvm missing, nvidia-modprobe creates it on first use" "$tmp/p" \
  'CUDA should work' '/dev/nvidia-uvm does not exist'
rm "$tmp/p/usr/bin/nvidia-modprobe"
printf 'gpudoctor-devnodes 1\nuser 1000 1000\nc 195:255 0666 0 0 root /dev/nvidiactl\nc 195:4 0660 0 44 video /dev/nvidia4\nc 509:0 0666 0 0 root /dev/nvidia-uvm\n' \
  >"$tmp/p/.gpudoctor/devnodes"
check "host: /dev/nvidia4 not the user's" "$tmp/p" \
  '/dev/nvidia4: no read-write access \(mode 660, group video, not yours\).*usermod -aG video' \
  'not passed into this container'

cp -a "$base" "$tmp/h"
rm "$tmp/h/.dockerenv"
check "no container marker: not a container" "$tmp/h" \
  'current CUDA builds no longer support this GPU' 'started without the GPU'

exit $fail
