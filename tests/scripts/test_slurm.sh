#!/usr/bin/env bash
# deploy/slurm/gpudoctor-healthcheck, Slurm's HealthCheckProgram (issue #24).
# 1. Against Slurm itself (Debian's slurmctld, slurmd, scontrol, munge),
#    when installed: munged, slurmctld and slurmd run here on loopback
#    ports, with a one-node cluster whose node has Gres=gpu:1 and
#    HealthCheckInterval=2; slurmd runs the check, which reads a captured
#    machine (--root) and calls the real scontrol:
#    - the GTX 980 whose driver is not bound (nvidia-secureboot): the node
#      is drained, and slurmctld's Reason names gpudoctor, 0/1 usable and
#      the brief line;
#    - the machine mended (h100x8: 8 usable >= 1): the node is resumed;
#    - drained by an administrator: left drained.
#    Skipped visibly when Slurm or munge is not installed.
# 2. The contract without Slurm (a fake_scontrol that records its
#    arguments): Gres parsing (gpu:h100:8(S:0-1), typed sums, none),
#    GPUDOCTOR_EXPECT_GPUS, gpudoctor's own failure drains nothing.
set -u
: "${GPUDOCTOR:?}" "${GD_SRCDIR:?}"
hc="$GD_SRCDIR/deploy/slurm/gpudoctor-healthcheck"
fx="$GD_SRCDIR/tests/fixtures"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail=0

# 2. the contract, with a fake scontrol
cat > "$tmp/fake_scontrol" <<'EOF'
#!/bin/sh
if [ "$1 $2 $3" = "-o show node" ]; then cat "$FAKE_NODE"; exit 0; fi
for a in "$@"; do printf '[%s]' "$a"; done >> "$FAKE_LOG"; echo >> "$FAKE_LOG"
EOF
chmod +x "$tmp/fake_scontrol"
contract() { # NAME FIXTURE NODE-LINE WANT-RC WANT-CALL [ENV...]
  local name=$1 root=$2 nodeline=$3 want_rc=$4 want=$5; shift 5
  printf '%s\n' "$nodeline" > "$tmp/node" && : > "$tmp/log"
  env "$@" GPUDOCTOR="$GPUDOCTOR" GPUDOCTOR_ARGS="--root $root" SCONTROL="$tmp/fake_scontrol" \
    SLURMD_NODENAME=n1 FAKE_NODE="$tmp/node" FAKE_LOG="$tmp/log" sh "$hc" 2> "$tmp/err"
  local rc=$?
  local got; got=$(cat "$tmp/log")
  if [ "$rc" != "$want_rc" ] || [ "$got" != "$want" ]; then
    echo "FAIL contract $name: rc=$rc (want $want_rc), scontrol got: ${got:-nothing}; want: ${want:-nothing}"
    cat "$tmp/err"; fail=1
  fi
}
gtx="NVIDIA GeForce GTX 980 (sm_52): usable via CUDA after setup (the NVIDIA kernel driver is not bound to this GPU) — see gpudoctor guide --vendor nvidia"
contract h100-healthy "$fx/nvidia-h100x8-pci-order/root" \
  "NodeName=n1 Gres=gpu:h100:8(S:0-1) State=IDLE" 0 ""
contract h100-missing-one "$fx/nvidia-h100x8-pci-order/root" \
  "NodeName=n1 Gres=gpu:h100:4(S:0),gpu:h100:5(S:1),shard:8 State=IDLE" 1 \
  "[update][NodeName=n1][State=DRAIN][Reason=gpudoctor: 8/9 GPUs usable: 8× NVIDIA H100 80GB HBM3 (sm_90): usable via CUDA]"
contract gtx-unbound "$fx/nvidia-secureboot/root" "NodeName=n1 Gres=gpu:1 State=IDLE" 1 \
  "[update][NodeName=n1][State=DRAIN][Reason=gpudoctor: 0/1 GPUs usable: $gtx]"
contract expect-env "$fx/nvidia-h100x8-pci-order/root" "NodeName=n1 Gres=(null)" 1 \
  "[update][NodeName=n1][State=DRAIN][Reason=gpudoctor: 8/10 GPUs usable: 8× NVIDIA H100 80GB HBM3 (sm_90): usable via CUDA]" \
  GPUDOCTOR_EXPECT_GPUS=10
contract cpu-node "$fx/no-gpu/root" "NodeName=n1 Gres=(null) State=IDLE" 0 ""
contract resume-own "$fx/nvidia-h100x8-pci-order/root" \
  "NodeName=n1 Gres=gpu:8 State=IDLE+DRAIN Reason=gpudoctor: 7/8 GPUs usable [root@2026-11-26T10:00:00]" 0 \
  "[update][NodeName=n1][State=RESUME]"
contract keep-admin-drain "$fx/nvidia-h100x8-pci-order/root" \
  "NodeName=n1 Gres=gpu:8 State=IDLE+DRAIN Reason=maintenance [root@2026-11-26T10:00:00]" 0 ""
contract gpudoctor-fails /nonexistent "NodeName=n1 Gres=gpu:1 State=IDLE" 0 ""
grep -q "failed (exit 3)" "$tmp/err" || { echo "FAIL contract: gpudoctor's failure not logged"; fail=1; }

# 1. Slurm itself
for t in slurmctld slurmd scontrol munged munge; do
  command -v $t > /dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v $t > /dev/null 2>&1 ||
    { echo "SKIPPED Slurm round trip: $t not installed (Debian: slurmctld slurmd slurm-client munge)"; 
      [ "$fail" = 0 ] && echo "ok: Slurm health check contract (8 cases)"; exit "$fail"; }
done
[ "$(id -u)" = 0 ] || { echo "SKIPPED Slurm round trip: slurmd must run as root"; exit "$fail"; }
export PATH=$PATH:/usr/sbin
R="$tmp/slurm"
mkdir -p "$R/state" "$R/spool" "$R/log"
key=$R/munge.key
head -c 1024 /dev/urandom > "$key" && chmod 600 "$key"
munged --socket="$R/munge.sock" --key-file="$key" --pid-file="$R/munged.pid" \
  --seed-file="$R/munge.seed" --log-file="$R/munged.log" --force -F > "$R/munged.out" 2>&1 &
pids+=($!)
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cat > "$R/slurm.conf" <<EOF
ClusterName=gdtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(port)
SlurmdPort=$(port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$R/munge.sock
StateSaveLocation=$R/state
SlurmdSpoolDir=$R/spool
SlurmctldPidFile=$R/slurmctld.pid
SlurmdPidFile=$R/slurmd.pid
SlurmctldLogFile=$R/log/slurmctld.log
SlurmdLogFile=$R/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
HealthCheckProgram=$R/hc.sh
HealthCheckInterval=2
HealthCheckNodeState=ANY
GresTypes=gpu
NodeName=node1 NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 Gres=gpu:1 State=UNKNOWN
PartitionName=p Nodes=node1 Default=YES State=UP
EOF
echo "NodeName=node1 Name=gpu Count=1 File=/dev/null" > "$R/gres.conf"
export SLURM_CONF=$R/slurm.conf
# slurmd runs this with its own environment: the capture to judge is a file
cat > "$R/hc.sh" <<EOF
#!/bin/sh
GPUDOCTOR="$GPUDOCTOR" GPUDOCTOR_ARGS="--root \$(cat $R/machine)" SLURM_CONF="$R/slurm.conf" \\
  exec sh "$hc" 2>> "$R/hc.err"
EOF
chmod +x "$R/hc.sh"
echo "$fx/nvidia-h100x8-pci-order/root" > "$R/machine"
sleep 0.5
slurmctld -D -i -f "$R/slurm.conf" > "$R/ctld.out" 2>&1 &
pids+=($!)
sleep 1
slurmd -D -N node1 -f "$R/slurm.conf" > "$R/slurmd.out" 2>&1 &
pids+=($!)
node() { scontrol -o show node node1 2>/dev/null; }
wait_for() { # PATTERN SECONDS: node line matches
  local i
  for ((i = 0; i < $2 * 4; i++)); do
    node | grep -qE "$1" && return 0
    sleep 0.25
  done
  return 1
}
if ! wait_for 'State=IDLE ' 20; then
  echo "FAIL Slurm: the node did not come up idle: $(node)"; tail -5 "$R/log/"*.log "$R/ctld.out" "$R/slurmd.out"; exit 1
fi
echo "$fx/nvidia-secureboot/root" > "$R/machine"
if wait_for 'State=IDLE\+DRAIN .*Reason=gpudoctor: 0/1 GPUs usable: NVIDIA GeForce GTX 980' 15; then
  echo "ok: slurmd's health check drained the node: $(node | sed -n 's/.*\(Reason=.*\)/\1/p')"
else
  echo "FAIL Slurm: not drained: $(node)"; cat "$R/hc.err"; fail=1
fi
echo "$fx/nvidia-h100x8-pci-order/root" > "$R/machine"
if wait_for 'State=IDLE ' 15; then
  echo "ok: mended, the node was resumed"
else
  echo "FAIL Slurm: not resumed: $(node)"; cat "$R/hc.err"; fail=1
fi
scontrol update NodeName=node1 State=DRAIN Reason=maintenance
sleep 5
node | grep -q 'State=IDLE+DRAIN .*Reason=maintenance' ||
  { echo "FAIL Slurm: an administrator's drain was undone: $(node)"; fail=1; }
[ "$fail" = 0 ] && echo "ok: Slurm health check: contract (8 cases) and slurmctld+slurmd $(slurmd -V 2>&1)"
exit "$fail"
