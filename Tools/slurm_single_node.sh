#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

# A single-node Slurm (Debian's slurm-wlm and munge) in a directory of its own, for trying
# `clumsy batch` under a real scheduler (and for BatchSlurmTests): starts munged, slurmctld
# and slurmd on this machine, waits for the node to be idle, runs the command given with
# SLURM_CONF set, then stops the daemons again, whatever happened.
#
# usage: Tools/slurm_single_node.sh DIR COMMAND [ARGUMENT...]
#   e.g. Tools/slurm_single_node.sh /tmp/slurm sbatch --wait --array=0-3 --wrap "clumsy batch -o out --seeds 1..40"
# Exits with the command's status; 75 (EX_TEMPFAIL) with the reason when Slurm cannot run here.
set -euo pipefail
export LC_ALL=C

[[ $# -ge 2 ]] || { echo "usage: $0 DIR COMMAND [ARGUMENT...]" >&2; exit 64; }
dir=$(realpath -m "$1"); shift
for program in mungekey munged slurmctld slurmd sinfo; do
  command -v "$program" >/dev/null || [[ -x /usr/sbin/$program ]] || {
    echo "$0: $program is not installed (apt-get install slurm-wlm munge)" >&2; exit 75; }
done
export PATH=$PATH:/usr/sbin

mkdir -p "$dir/state" "$dir/spool"
chmod 700 "$dir"
pids=()
stop() {
  local index
  for ((index = ${#pids[@]} - 1; index >= 0; index--)); do
    kill "${pids[index]}" 2>/dev/null || true
    wait "${pids[index]}" 2>/dev/null || true
  done
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mungekey -c -f -k "$dir/munge.key"
# In the foreground, as children of this script, so that stop() ends them; --force: the
# directory is private to its owner, which munged would otherwise refuse for a socket.
munged --foreground --force --socket="$dir/munge.sock" --key-file="$dir/munge.key" --log-file="$dir/munged.log" \
  --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed" >"$dir/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [[ -S $dir/munge.sock ]] && break; sleep 0.05; done
[[ -S $dir/munge.sock ]] || { echo "$0: munged did not start: $(tail -c 600 "$dir/munged.out")" >&2; exit 75; }

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
cat >"$dir/slurm.conf" <<EOF
ClusterName=clumsy
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
SlurmUser=$(id -un)
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SwitchType=switch/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF=$dir/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 &
pids+=($!)
sleep 0.5
slurmd -D -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 120); do
  state=$(timeout 5 sinfo -h -o %T 2>/dev/null || true)
  [[ $state == *idle* ]] && break
  sleep 0.25
done
if [[ $state != *idle* ]]; then
  echo "$0: the node did not come up within 30 s (state '${state:-none}'):" >&2
  tail -n 5 "$dir"/slurmctld.log "$dir"/slurmd.log "$dir"/*.out >&2 2>/dev/null || true
  exit 75
fi

status=0
"$@" || status=$?
exit "$status"
