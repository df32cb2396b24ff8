#!/bin/sh
# Runs inside one Soft-RoCE guest (started by softroce/run-launchers through softroce/vm.sh): creates
# rxe0 on a dummy netdev, then starts the project's launcher probe (io.remus.core.testing.
# LauncherProbeMain) as three processes under each real launcher:
#   Open MPI:  mpirun --allow-run-as-root --oversubscribe -np 3 ...
#   Slurm:     a one-host Slurm (munged, slurmctld, slurmd; softroce/guest/slurm.sh), then srun -N1 -n3 ...
# Each launcher first runs a trivial command (the launcher's rank variables and the host name), then
# the JVM probe, then LauncherClusterMain: the 3 processes join one Remus cluster on rxe0
# (RemusCluster.join, peers found through a fresh --rendezvous directory per run), fetch-and-add a
# counter on node 0, meet at the cluster barrier, check the counter and close with the shutdown
# handshake. Last, `remus bench lock` (the tools' main class, io.remus.tools.Remus, on TOOLS_CLASSPATH)
# runs as the 3 processes, one node each, and node 0 prints one JSON report over every node's counts
# and latency histograms. Outputs go to /mnt/job/out/<launcher>-{trivial,probe,cluster}.txt and
# <launcher>-bench.{json,err} (the host checks them); the Slurm daemons' logs to /mnt/job/out/slurm/.
# Parameters come from /mnt/job/params.
# Exit status: 0 when every launcher ran, 1 when one failed, 10-13 (rxe0), 20-24 (Slurm's start).
#
# Open MPI 4.1 (Debian's openmpi-bin) needs only two options here:
# - --allow-run-as-root: the guest script runs as root, which mpirun refuses by default ("mpirun has
#   detected an attempt to run as root").
# - --oversubscribe: 3 processes on 2 vCPUs; mpirun counts the cores as its slots and refuses more
#   processes than slots without it ("There are not enough slots available in the system").
# No MCA setting is needed: all processes are local, so mpirun starts them through its own local
# daemon (no ssh/rsh, which the guest does not have), and its session directory goes to /tmp, which
# in the guest is the writable tmpfs overlay.
set -u
. /mnt/job/params
. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
. "$SOFTROCE_ROOT/softroce/guest/slurm.sh"

rxe0_up dummy "$ADDR" || exit $?
OUT=/mnt/job/out
mkdir -p "$OUT/slurm" "$OUT/env" /tmp/work
cd /tmp/work
hostname "$NODE_NAME"
status=0
say() { echo "guest: [$(cut -d. -f1 /proc/uptime)s] $*"; }
trivial='echo "rank=${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:-}} size=${OMPI_COMM_WORLD_SIZE:-${SLURM_NTASKS:-}} host=$(hostname)"'

# RemusCluster.join's arguments for one launcher run: rank and size come from the launcher's
# environment; the peers' rdma_cm addresses (rxe0's IPv4 address, port 18515 + rank) from a fresh
# rendezvous directory DIR that the processes of this one host share.
join_args() {
  rm -rf "$1" && mkdir -p "$1"
  echo "--device=rxe0 --rendezvous=$1 --seg-size=64K --segment.count=2 --buffer.size=8K --timeout.ms=20000 --join.timeout.ms=$JOIN_TIMEOUT_MS"
}
# `remus bench lock` as one process per node (join arguments make it one node of the cluster): one lock
# kind, one worker per process, a short run; node 0's JSON report on standard output, every process's
# standard error apart.
bench_args() {
  rm -rf "$1" && mkdir -p "$1"
  echo "bench lock --json --lock alock --threads 1 --keys 6 -D $BENCH_SECONDS --warmup 0 --join-timeout $BENCH_JOIN_SECONDS --device=rxe0 --rendezvous=$1 --buffer.size=8K --timeout.ms=20000"
}
mpi() { timeout "$STEP_TIMEOUT" mpirun --allow-run-as-root --oversubscribe -np "$PROCS" "$@"; }
say "mpirun -np $PROCS (trivial)"
mpi sh -c "$trivial" > "$OUT/mpirun-trivial.txt" 2>&1 || { say "mpirun (trivial) failed"; status=1; }
say "mpirun -np $PROCS (LauncherProbeMain)"
mpi "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" io.remus.core.testing.LauncherProbeMain --env-dir "$OUT/env" --device rxe0 \
  > "$OUT/mpirun-probe.txt" 2>&1 || { say "mpirun (probe) failed"; status=1; }
# The cluster join and bench lock under mpirun only with MPIRUN_CLUSTER=1 (run-launchers says why).
if [ "${MPIRUN_CLUSTER:-1}" = 1 ]; then
  say "mpirun -np $PROCS (LauncherClusterMain)"
  timeout "$CLUSTER_STEP_TIMEOUT" mpirun --allow-run-as-root --oversubscribe -np "$PROCS" \
    "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" io.remus.core.testing.LauncherClusterMain \
    $(join_args /tmp/rendezvous-mpirun) > "$OUT/mpirun-cluster.txt" 2>&1 || { say "mpirun (cluster) failed"; status=1; }
  say "mpirun -np $PROCS (remus bench lock)"
  timeout "$BENCH_STEP_TIMEOUT" mpirun --allow-run-as-root --oversubscribe -np "$PROCS" \
    "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$TOOLS_CLASSPATH" io.remus.tools.Remus \
    $(bench_args /tmp/rendezvous-mpirun-bench) > "$OUT/mpirun-bench.json" 2> "$OUT/mpirun-bench.err" \
    || { say "mpirun (bench lock) failed"; status=1; }
fi

say "mpirun steps finished; starting a one-host Slurm"
slurm_up /tmp/slurm "$NODE_NAME" "$SLURM_CPUS"; rc=$?
if [ "$rc" -eq 0 ]; then
  say "srun -N1 -n$PROCS (trivial)"
  timeout "$STEP_TIMEOUT" srun -N1 -n"$PROCS" sh -c "$trivial" > "$OUT/srun-trivial.txt" 2>&1 \
    || { say "srun (trivial) failed"; status=1; }
  say "srun -N1 -n$PROCS (LauncherProbeMain)"
  timeout "$STEP_TIMEOUT" srun -N1 -n"$PROCS" "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" \
    io.remus.core.testing.LauncherProbeMain --env-dir "$OUT/env" --device rxe0 > "$OUT/srun-probe.txt" 2>&1 \
    || { say "srun (probe) failed"; status=1; }
  say "srun -N1 -n$PROCS (LauncherClusterMain)"
  timeout "$CLUSTER_STEP_TIMEOUT" srun -N1 -n"$PROCS" "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" \
    io.remus.core.testing.LauncherClusterMain $(join_args /tmp/rendezvous-srun) > "$OUT/srun-cluster.txt" 2>&1 \
    || { say "srun (cluster) failed"; status=1; }
  say "srun -N1 -n$PROCS (remus bench lock)"
  timeout "$BENCH_STEP_TIMEOUT" srun -N1 -n"$PROCS" "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$TOOLS_CLASSPATH" \
    io.remus.tools.Remus $(bench_args /tmp/rendezvous-srun-bench) > "$OUT/srun-bench.json" 2> "$OUT/srun-bench.err" \
    || { say "srun (bench lock) failed"; status=1; }
else
  status=$rc
fi
say "srun steps finished"
slurm_down
cp /tmp/slurm/*.log /tmp/slurm/*.out /tmp/slurm/slurm.conf "$OUT/slurm/" 2>/dev/null
say "done (status $status)"
exit "$status"
