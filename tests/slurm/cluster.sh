#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the test of `./course grade --slurm`
# (tests/driver/test_slurm.py): munge for authentication, slurmctld and slurmd of Debian's
# packages (slurmctld slurmd slurm-client munge), one partition "course" of this machine's cores,
# configured in DIR/slurm.conf (point SLURM_CONF at it) with its state, spool and logs in DIR.
#
#   tests/slurm/cluster.sh start DIR   # exits 0 once sinfo sees the node idle
#   tests/slurm/cluster.sh stop DIR    # stops what start started
#
# Needs root (the daemons run as root, and munged as the munge user, so DIR and the folders above
# it must let others through). Job completion records go to DIR/jobs.txt, for `sacct --completion`.
set -euo pipefail
action=${1:?start or stop}
dir=$(realpath -m "${2:?the cluster folder}")
export SLURM_CONF=$dir/slurm.conf

stop() {
  for daemon in slurmd slurmctld; do
    if [ -f "$dir/$daemon.pid" ]; then
      kill "$(cat "$dir/$daemon.pid")" 2>/dev/null || true
    fi
  done
  if [ -f "$dir/munge/munged.pid" ]; then
    kill "$(cat "$dir/munge/munged.pid")" 2>/dev/null || true
  fi
  sleep 1
}

if [ "$action" = stop ]; then
  stop
  exit 0
fi
[ "$action" = start ] || { echo "cluster.sh: start or stop, not $action" >&2; exit 2; }
for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || {
    echo "cluster.sh: $tool not found (sudo apt-get install -y slurmctld slurmd slurm-client munge)" >&2
    exit 3
  }
done
[ "$(id -u)" -eq 0 ] || { echo "cluster.sh: the daemons need root" >&2; exit 3; }
export PATH=$PATH:/usr/sbin
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 755 "$dir"  # munged runs as the munge user: it must reach its folder
host=$(hostname -s)
cpus=$(nproc)
memory=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
cat >"$SLURM_CONF" <<EOF
ClusterName=course
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/jobs.txt
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=course Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
stop  # a cluster left behind by an earlier run of this folder
# munged with a key of its own and its socket in DIR, so a machine's own munge is left alone.
if [ ! -f "$dir/munge/munge.key" ]; then
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
fi
chown -R munge:munge "$dir/munge" 2>/dev/null || true
chmod 700 "$dir/munge"
chmod 400 "$dir/munge/munge.key"
runuser -u munge -- munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" --force
slurmctld -c -f "$SLURM_CONF"
slurmd -c -f "$SLURM_CONF"
for _ in $(seq 60); do
  if sinfo -h -o '%t' 2>/dev/null | grep -q '^idle'; then
    exit 0
  fi
  sleep 1
done
echo "cluster.sh: the node did not come up in 60 s; sinfo says:" >&2
sinfo >&2 || true
tail -5 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
exit 1
