#!/usr/bin/env bash
# Install what gpudoctor needs from Debian's packages, only what is missing.
#   tools/install-deps.sh build   build dependencies
#   tools/install-deps.sh test    build + test dependencies (real runtimes)
# Prints the missing packages and the exact command before running it; uses
# sudo only when not root. Set GD_NO_APT=1 to skip (offline machines).
set -eu
what=${1:-build}

build_pkgs="cmake make gcc pkg-config libjansson-dev libzstd-dev zlib1g-dev
  libvulkan-dev libvulkan-volk-dev glslang-tools opencl-headers"
# Real runtimes the tests run against: Mesa lavapipe (Vulkan on the CPU), PoCL
# (OpenCL on the CPU), the ICD loaders, AMD's HIP 5.2 runtime and hipcc (real
# fat binaries; the runtime answers "no device" here), clang + compiler-rt for
# libFuzzer and the sanitizers, fish for the env round trip, jq for scripts,
# MinGW-w64 for real Windows DLLs to scan and the Windows build, zsh for its completion, dpkg-dev
# (dpkg-shlibdeps) for the package's dependencies; python3-setuptools and
# -wheel (pip install ./python offline), python3-yaml, prometheus-node-exporter
# (the metrics textfile's real consumer); python3-dev (the CPython
# extension module of tests/scripts/test_trace_rtld_local.sh); libze1 (the
# oneAPI Level Zero loader: the Level Zero probe's real no-driver path).
# locales: localedef and its sources (tests/scripts/test_capi.sh builds
# de_DE.UTF-8 to run the C API in a comma-decimal locale).
test_pkgs="clang libclang-rt-14-dev mesa-vulkan-drivers libvulkan1 zsh
  pocl-opencl-icd ocl-icd-libopencl1 libamdhip64-5 hipcc fish jq zstd file
  python3 python3-jsonschema binutils perl procps clang-format-14 gcc-mingw-w64-x86-64-win32 dpkg-dev
  python3-setuptools python3-wheel python3-yaml prometheus-node-exporter python3-dev
  libze1 locales"
# The Windows build (make windows, part of make test): dpkg-dev for the
# source packages tools/win-deps.sh builds, Wine to run the .exe.
test_pkgs="$test_pkgs wine wine64"
# Operators' consumers (tests/scripts/test_metrics.sh, test_slurm.sh,
# test_wheel.sh): Prometheus' own parser, Slurm's daemons and scontrol with
# munge (a one-node cluster on loopback), a venv for the wheels.
test_pkgs="$test_pkgs python3-prometheus-client slurmctld slurmd slurm-client munge python3-venv"

pkgs=$build_pkgs
[ "$what" = test ] && pkgs="$pkgs $test_pkgs"

[ "${GD_NO_APT:-0}" = 1 ] && exit 0
command -v dpkg-query >/dev/null || { echo "install-deps: not a Debian system; install: $pkgs" >&2; exit 0; }

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install:$missing" >&2; exit 1; }
  SUDO="sudo "
fi
# On a terminal apt-get shows what it will do and asks; elsewhere (CI) -y.
yes="-y "
[ -t 0 ] && yes=""
echo "install-deps: missing Debian packages:$missing"
echo "install-deps: running: ${SUDO}apt-get update -qq && ${SUDO}apt-get install ${yes}--no-install-recommends$missing"
echo "install-deps: (GD_NO_APT=1 skips this; install them yourself instead)"
export DEBIAN_FRONTEND=noninteractive
${SUDO}apt-get update -qq
# shellcheck disable=SC2086
${SUDO}apt-get install ${yes}--no-install-recommends $missing
