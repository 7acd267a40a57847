#!/usr/bin/env bash
# Everything gpudoctor measures on the NVIDIA GPU machine, in one run.
# Usage (on that machine, from the repository root):
#   bench/device-run.sh GPUDOCTOR_BINARY OUTDIR [steps...]
# steps: info list gather probe bench-list bench-scan bench-probe (default all)
set -u
gd=$(readlink -f "$1"); out=$2; shift 2
steps=${*:-info list gather probe bench-list bench-scan bench-probe}
mkdir -p "$out"
log() { printf '\n=== %s\n' "$*"; }
has() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }

if has info; then
  log info
  nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,pci.bus_id,compute_cap --format=csv
  cat /proc/driver/nvidia/version 2>&1 | head -2
  ls /proc/driver/nvidia/gpus/ 2>&1
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda, torch.cuda.device_count())' 2>&1
  uname -r; nproc
fi
if has list; then
  log list
  "$gd" list; echo "exit $?"
  "$gd" --json list > "$out/list.json"
  "$gd" check --no-probe --color=never > "$out/check.txt" 2>&1; echo "check exit $?"; cat "$out/check.txt"
fi
if has gather; then
  log gather
  "$gd" gather "$out/nvidia-h100.tar.gz"
fi
if has probe; then
  log probe
  ( time timeout 300 "$gd" probe --color=never ) 2>&1 | tee "$out/probe.txt"
  timeout 300 "$gd" --json probe > "$out/probe.json" 2>&1
  ( time timeout 60 "$gd" probe --quick ) 2>&1 | tail -5
  ( time timeout 120 "$gd" check --color=never ) 2>&1 | tail -40
fi
if has bench-list; then
  log bench-list
  bench/list.sh "$gd" 300 2>&1 | tee "$out/bench-list.txt"
fi
if has bench-scan && [ -x bench/scan.sh ]; then
  log bench-scan
  timeout 400 bench/scan.sh "$gd" 2>&1 | tee "$out/bench-scan.txt"
fi
if has bench-probe && [ -x bench/probe-cuda.sh ]; then
  log bench-probe
  timeout 400 bench/probe-cuda.sh "$gd" 2>&1 | tee "$out/bench-probe.txt"
fi
exit 0
