#!/bin/sh
# Runs inside each of the two Soft-RoCE guests that softroce/run-mpi-cluster boots on a private
# bridge (guest i: rxe0 on eth0, 198.18.0.<i+1>, host name remus-g<i>). Parameters come from
# /mnt/job/params; outputs go to /mnt/job/out.
#
# ROLE=remote (guest 1): starts dropbear (Debian's dropbear-bin) on eth0's address with a host key
#   made here by dropbearkey (in /run/remus-ssh, tmpfs) and the run's client key
#   (/mnt/job/ssh/id.pub, made by the host per run) as root's only authorized key. dropbear has no
#   option for an authorized-keys path: it reads /root/.ssh/authorized_keys, which this script
#   writes only after checking that / is the guest's overlay (host / read-only below, tmpfs above),
#   so the host's /root is never written. Then waits until guest 0 says it is done
#   (ssh remus-g1 touch /tmp/mpi-done) or REMOTE_TIMEOUT.
# ROLE=launcher (guest 0): waits until ssh reaches guest 1, then runs Open MPI's mpirun with
#   --host remus-g0:2,remus-g1:1 -np 3, so that mpirun itself starts rank 2 in guest 1 (its rsh
#   launcher: ssh remus-g1 orted ...; orted then starts the rank there):
#   1. a trivial command: each rank prints its rank and host name (out/mpirun-trivial.txt);
#   2. io.remus.core.testing.LauncherClusterMain: the three JVMs join one Remus cluster over rxe
#      (peers found through rank 0's TCP rendezvous, tcp://198.18.0.1:RENDEZVOUS_PORT), each
#      fetch-and-adds a counter on node 0, meets the others at the barrier, reads the counter and
#      closes with the shutdown handshake (out/mpirun-cluster.txt; each rank first prints
#      "placement rank=R host=H");
#   3. `remus bench lock` (the tools' main class, io.remus.tools.Remus, on TOOLS_CLASSPATH) as the
#      three processes, one node each, joined the same way through rank 0's rendezvous on
#      RENDEZVOUS_PORT + 1: one lock kind, one worker per process, BENCH_SECONDS; node 0 prints one
#      JSON report over every node's counts and latency histograms (out/mpirun-bench.json; every
#      process's standard error, after its "placement rank=R host=H" line, in out/mpirun-bench.err).
#   4. `remus bench index` as the same three processes, rendezvous on RENDEZVOUS_PORT + 4: three
#      shards of three replicas, every node a replica and a client, YCSB A with zipfian keys over 64
#      keys, INDEX_OPS operations per process; node 0 prints one JSON report over every node's counts
#      and latency histograms (out/mpirun-index.json; standard error as for bench lock, in
#      out/mpirun-index.err).
#   5. Only with EXPERIMENT_SECONDS above 0: `remus experiment sharing` and `remus experiment kv` as the same
#      three processes (rendezvous on RENDEZVOUS_PORT + 2 and + 3, extra flags SHARING_ARGS and KV_ARGS), node
#      0's JSON reports in out/mpirun-sharing.json and out/mpirun-kv.json.
# Open MPI settings (environment, OMPI_MCA_*): plm_rsh_agent=ssh with plm_rsh_args "-F FILE" (an
# ssh configuration in tmpfs: the run's key, StrictHostKeyChecking off, known hosts /dev/null,
# BatchMode) and oob_tcp_if_include=198.18.0.0/24 (orted calls mpirun back on the bridge, not on
# lo). --allow-run-as-root: the guest scripts run as root.
# Exit status: 0 when every step ran, 1 when one failed, 2 (ssh or dropbear setup), 10-13 (rxe0).
set -u
. /mnt/job/params
. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"

OUT=/mnt/job/out
SSH=/run/remus-ssh
mkdir -p "$OUT" /tmp/work "$SSH"
chmod 700 "$SSH"
say() { echo "guest: [$(cut -d. -f1 /proc/uptime)s] $*"; }

hostname "$NODE_NAME"
echo "$HOSTS_LINES" | tr ';' '\n' >> /etc/hosts
rxe0_up eth0 "$ADDR" || exit $?
cd /tmp/work

keep_crash_logs() {
  for f in /tmp/work/hs_err_pid*.log; do [ -f "$f" ] && cp "$f" "$OUT/"; done
  return 0
}

if [ "$ROLE" = remote ]; then
  root_fs=$(awk '$2 == "/" { t = $3 } END { print t }' /proc/mounts)
  [ "$root_fs" = overlay ] || { say "/ is $root_fs, not the guest's overlay: not writing /root/.ssh"; exit 2; }
  dropbearkey -t ed25519 -f "$SSH/host_key" > "$OUT/dropbearkey.txt" 2>&1 || { say "dropbearkey failed"; exit 2; }
  mkdir -p /root/.ssh && chmod 700 /root/.ssh || exit 2
  cp /mnt/job/ssh/id.pub /root/.ssh/authorized_keys && chmod 600 /root/.ssh/authorized_keys || exit 2
  # -F -E: foreground, log to stderr (the job's out dir); -s: no password logins; -m: no motd.
  /usr/sbin/dropbear -F -E -s -m -r "$SSH/host_key" -p "$ADDR:22" -P "$SSH/dropbear.pid" \
    > "$OUT/dropbear.log" 2>&1 &
  dropbear_pid=$!
  sleep 1
  kill -0 "$dropbear_pid" 2>/dev/null || { say "dropbear did not start"; cat "$OUT/dropbear.log"; exit 2; }
  say "dropbear listens on $ADDR:22; waiting up to ${REMOTE_TIMEOUT}s for the launcher guest"
  deadline=$(($(date +%s) + REMOTE_TIMEOUT))
  until [ -f /tmp/mpi-done ] || [ "$(date +%s)" -ge "$deadline" ]; do sleep 2; done
  keep_crash_logs
  kill "$dropbear_pid" 2>/dev/null
  [ -f /tmp/mpi-done ] || { say "the launcher guest never said it was done"; exit 1; }
  say "done"
  exit 0
fi

cp /mnt/job/ssh/id "$SSH/id" && chmod 600 "$SSH/id" || exit 2
cat > "$SSH/ssh_config" <<EOF
Host *
  User root
  IdentityFile $SSH/id
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  BatchMode yes
  ConnectTimeout 10
  LogLevel ERROR
EOF
export OMPI_MCA_plm_rsh_agent=ssh OMPI_MCA_plm_rsh_args="-F $SSH/ssh_config" OMPI_MCA_oob_tcp_if_include=198.18.0.0/24
remote_ssh() { ssh -F "$SSH/ssh_config" "$PEER_NAME" "$@"; }

say "waiting up to ${SSH_WAIT}s for ssh to $PEER_NAME"
deadline=$(($(date +%s) + SSH_WAIT))
until remote_ssh true 2> "$OUT/ssh-wait.txt"; do
  [ "$(date +%s)" -lt "$deadline" ] || { say "ssh to $PEER_NAME never succeeded"; cat "$OUT/ssh-wait.txt"; exit 2; }
  sleep 3
done
say "ssh reaches $PEER_NAME"

status=0
mpi() { timeout "$1" mpirun --allow-run-as-root --host "$MPI_HOSTS" -np "$PROCS" sh -c "$2"; }
say "mpirun --host $MPI_HOSTS -np $PROCS (trivial)"
mpi "$STEP_TIMEOUT" 'echo "rank=$OMPI_COMM_WORLD_RANK size=$OMPI_COMM_WORLD_SIZE host=$(hostname)"' \
  > "$OUT/mpirun-trivial.txt" 2>&1 || { say "mpirun (trivial) failed"; status=1; }
say "mpirun --host $MPI_HOSTS -np $PROCS (LauncherClusterMain)"
join="--device=rxe0 --rendezvous=tcp://$ADDR:$RENDEZVOUS_PORT --seg-size=64K --segment.count=2 --buffer.size=8K --timeout.ms=20000 --join.timeout.ms=$JOIN_TIMEOUT_MS"
mpi "$CLUSTER_STEP_TIMEOUT" "echo \"placement rank=\$OMPI_COMM_WORLD_RANK host=\$(hostname)\";
  exec '$JAVA' --enable-native-access=ALL-UNNAMED -cp '$CLASSPATH' io.remus.core.testing.LauncherClusterMain $join" \
  > "$OUT/mpirun-cluster.txt" 2>&1 || { say "mpirun (cluster) failed"; status=1; }
say "mpirun --host $MPI_HOSTS -np $PROCS (remus bench lock)"
bench="bench lock --json --lock alock --threads 1 --keys 6 -D $BENCH_SECONDS --warmup 0 --join-timeout $BENCH_JOIN_SECONDS --device=rxe0 --rendezvous=tcp://$ADDR:$((RENDEZVOUS_PORT + 1)) --buffer.size=8K --timeout.ms=20000"
mpi "$BENCH_STEP_TIMEOUT" "echo \"placement rank=\$OMPI_COMM_WORLD_RANK host=\$(hostname)\" >&2;
  exec '$JAVA' --enable-native-access=ALL-UNNAMED -cp '$TOOLS_CLASSPATH' io.remus.tools.Remus $bench" \
  > "$OUT/mpirun-bench.json" 2> "$OUT/mpirun-bench.err" || { say "mpirun (bench lock) failed"; status=1; }
say "mpirun --host $MPI_HOSTS -np $PROCS (remus bench index)"
index="bench index --json --ycsb A --shards 3 --replicas 3 --keys 64 --num-ops $INDEX_OPS --join-timeout $BENCH_JOIN_SECONDS --device=rxe0 --rendezvous=tcp://$ADDR:$((RENDEZVOUS_PORT + 4)) --timeout.ms=20000"
mpi "$INDEX_STEP_TIMEOUT" "echo \"placement rank=\$OMPI_COMM_WORLD_RANK host=\$(hostname)\" >&2;
  exec '$JAVA' --enable-native-access=ALL-UNNAMED -cp '$TOOLS_CLASSPATH' io.remus.tools.Remus $index" \
  > "$OUT/mpirun-index.json" 2> "$OUT/mpirun-index.err" || { say "mpirun (bench index) failed"; status=1; }
if [ "${EXPERIMENT_SECONDS:-0}" != 0 ]; then
  common_exp="--fabric verbs -D $EXPERIMENT_SECONDS --join-timeout $BENCH_JOIN_SECONDS --device=rxe0 --seg-size=16M --buffer.size=256K --timeout.ms=20000"
  say "mpirun --host $MPI_HOSTS -np $PROCS (remus experiment sharing)"
  sharing="experiment sharing --json $common_exp $SHARING_ARGS --rendezvous=tcp://$ADDR:$((RENDEZVOUS_PORT + 2))"
  mpi "$EXPERIMENT_STEP_TIMEOUT" "echo \"placement rank=\$OMPI_COMM_WORLD_RANK host=\$(hostname)\" >&2;
    exec '$JAVA' --enable-native-access=ALL-UNNAMED -cp '$TOOLS_CLASSPATH' io.remus.tools.Remus $sharing" \
    > "$OUT/mpirun-sharing.json" 2> "$OUT/mpirun-sharing.err" || { say "mpirun (experiment sharing) failed"; status=1; }
  say "mpirun --host $MPI_HOSTS -np $PROCS (remus experiment kv)"
  kv="experiment kv --json $OUT/mpirun-kv.json $common_exp $KV_ARGS --rendezvous=tcp://$ADDR:$((RENDEZVOUS_PORT + 3))"
  mpi "$EXPERIMENT_STEP_TIMEOUT" "echo \"placement rank=\$OMPI_COMM_WORLD_RANK host=\$(hostname)\" >&2;
    exec '$JAVA' --enable-native-access=ALL-UNNAMED -cp '$TOOLS_CLASSPATH' io.remus.tools.Remus $kv" \
    > "$OUT/mpirun-kv.txt" 2> "$OUT/mpirun-kv.err" || { say "mpirun (experiment kv) failed"; status=1; }
fi
keep_crash_logs
remote_ssh touch /tmp/mpi-done || { say "could not tell $PEER_NAME that the run is done"; status=1; }
say "done (status $status)"
exit "$status"
