# Sourced by softroce/guest/launchers.sh:  . "$SOFTROCE_ROOT/softroce/guest/slurm.sh"
#   slurm_up DIR NODE CPUS   starts a one-host Slurm cluster whose configuration, munge key, state,
#                            spool, logs and sockets all live under DIR (a writable tmpfs in the guest),
#                            and waits until node NODE is idle. Exports SLURM_CONF. Returns 20 (munge
#                            key), 21 (munged), 22 (slurmctld), 23 (the cgroup mount), 24 (slurmd: the
#                            node never became idle); 0 when srun can run. Logs: DIR/*.log.
#   slurm_down               stops the daemons slurm_up started (by their process ids).
#
# Why each setting (Debian's slurm-wlm 22.05 and munge 0.5.15, in a guest without systemd or a
# cgroup hierarchy set up for Slurm, running everything as root):
# - munged gets its own key, seed, pid, log and socket files under DIR (--key-file, --socket, ...),
#   independent of the package's /etc/munge and /run/munge. The key is 1024 random bytes, mode 0400,
#   in a 0700 directory; the socket lies in a 0755 directory, since munged refuses to start when
#   not everyone can reach its socket ("Socket is inaccessible: execute permissions for all
#   required"). Root may run munged, and Slurm's daemons run as root here too.
# - AuthInfo=socket=... and the credential plugin point Slurm at that munged socket.
# - ProctrackType=proctrack/linuxproc and TaskPlugin=task/none: the cgroup plugins need a cgroup
#   hierarchy delegated to Slurm (systemd does that on a real host); linuxproc tracks a step's
#   processes through /proc instead. JobAcctGatherType=jobacct_gather/none and
#   AccountingStorageType=accounting_storage/none: no slurmdbd.
# - SlurmdParameters=config_overrides with CPUs=CPUS: the node offers CPUS slots whatever the
#   guest's vCPU count, so `srun -n3` on a 2-vCPU guest is allocated rather than refused.
# - MpiDefault=none: srun starts plain processes (SLURM_PROCID/SLURM_NTASKS), no PMI plugin.
#   slurmd still logs "mpi/pmix_v4: ... can not load PMIx library" at its start (Debian's build
#   looks for a PMIx library that is not installed); with MpiDefault=none that is harmless.
# - slurmd initialises its cgroup plugin (cgroup.conf's CgroupPlugin=autodetect) even with the
#   plugins above, and without a cgroup filesystem it stops ("error: No filesystem mounted on
#   /sys/fs/cgroup", "Unable to initialize cgroup plugin", "slurmd initialization failed"). The guest's
#   init mounts none, so slurm_up mounts a cgroup v1 layout there when nothing is mounted, as on the
#   hosts of this project: a tmpfs with the freezer controller and the named hierarchy "systemd"
#   (without that one, autodetect stops at "can't stat /sys/fs/cgroup/systemd/"). Autodetect then
#   picks cgroup/v1, which needs no running systemd (cgroup/v2 in 22.05 asks systemd over D-Bus
#   for a scope).
# - SlurmctldHost and NodeAddr are 127.0.0.1 under the node's name: no name resolution needed.
SLURM_PIDS=""

slurm_wait() { # TRIES COMMAND...: runs COMMAND once a second until it succeeds
  tries=$1; shift
  while ! "$@" >/dev/null 2>&1; do
    tries=$((tries - 1)); [ "$tries" -gt 0 ] || return 1
    sleep 1
  done
}
slurm_node_idle() { sinfo -h -N -n "$1" -o %t 2>/dev/null | grep -qx idle; }
slurm_idle_or_gone() { slurm_node_idle "$1" || ! kill -0 "$2" 2>/dev/null; } # NODE SLURMD_PID

slurm_up() { # DIR NODE CPUS
  d=$1 node=$2 cpus=$3
  mkdir -p "$d/munge" "$d/run" "$d/state" "$d/spool" && chmod 0700 "$d/munge" && chmod 0755 "$d" "$d/run" || return 20
  if ! grep -q ' /sys/fs/cgroup ' /proc/mounts; then
    mount -t tmpfs -o mode=0755 cgroup /sys/fs/cgroup && mkdir -p /sys/fs/cgroup/freezer /sys/fs/cgroup/systemd \
      && mount -t cgroup -o freezer freezer /sys/fs/cgroup/freezer \
      && mount -t cgroup -o none,name=systemd systemd /sys/fs/cgroup/systemd || { echo "slurm: cannot mount cgroup v1"; return 23; }
  fi
  dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 0400 "$d/munge/munge.key" || return 20
  munged --origin=127.0.0.1 --socket="$d/run/munge.sock" --key-file="$d/munge/munge.key" --pid-file="$d/run/munged.pid" \
    --seed-file="$d/munge/munged.seed" --log-file="$d/munged.log" || { echo "slurm: munged failed"; return 21; }
  SLURM_PIDS="$(cat "$d/run/munged.pid")"
  slurm_wait 10 sh -c "munge -S '$d/run/munge.sock' -n | unmunge -S '$d/run/munge.sock'" \
    || { echo "slurm: munge round trip failed"; return 21; }
  cat > "$d/slurm.conf" <<CONF
ClusterName=remus
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$d/run/munge.sock
CredType=cred/munge
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SlurmdParameters=config_overrides
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$d/slurm.conf"
  slurmctld -c -D > "$d/slurmctld.out" 2>&1 &
  SLURM_PIDS="$SLURM_PIDS $!"
  slurm_wait 60 scontrol ping || { echo "slurm: slurmctld does not answer"; tail -n 20 "$d/slurmctld.log" "$d/slurmctld.out"; return 22; }
  slurmd -D -N "$node" > "$d/slurmd.out" 2>&1 &
  slurmd_pid=$!
  SLURM_PIDS="$SLURM_PIDS $slurmd_pid"
  slurm_wait 90 slurm_idle_or_gone "$node" "$slurmd_pid" && kill -0 "$slurmd_pid" 2>/dev/null || {
    echo "slurm: node $node never became idle: $(sinfo -h -N -o '%N %t %E' 2>&1)"
    tail -n 20 "$d/slurmd.log" "$d/slurmd.out"; return 24; }
  echo "slurm: one-host cluster up, node $node idle ($cpus CPUs)"
}

slurm_down() {
  for pid in $SLURM_PIDS; do kill "$pid" 2>/dev/null; done
  SLURM_PIDS=""
}
