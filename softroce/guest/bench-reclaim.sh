#!/bin/sh
# Runs inside one Soft-RoCE guest (started by softroce/bench-reclaim through softroce/vm.sh): creates
# rxe0 on a dummy netdev, then starts `remus bench reclaim --json --plot` as NODES processes, one per
# node, joined through a rendezvous directory on the guest's tmpfs (--node-id, --node.count), as
# ReclaimBenchClusterDeviceTest does. Node 0's JSON report and plot (only node 0 is given --plot) go
# to /mnt/job/out/reclaim.json and reclaim.png, the other nodes' standard output (nothing) to
# node<i>.out, every node's standard error to node<i>.err, rxe0's counters after the run to
# rxe-counters.txt. Parameters come from /mnt/job/params.
set -u
. /mnt/job/params

. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy "$ADDR" || exit $?
OUT=/mnt/job/out
mkdir -p "$OUT" /tmp/work /tmp/rendezvous
cd /tmp/work
nproc > "$OUT/guest-cpus.txt"
status=0
pids=""
i=0
while [ "$i" -lt "$NODES" ]; do
  out="$OUT/node$i.out" plot=""
  [ "$i" -ne 0 ] || { out="$OUT/reclaim.json"; plot="--plot=$OUT/reclaim.png"; }
  # shellcheck disable=SC2086
  timeout 1200 "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" io.remus.tools.Remus bench reclaim \
    --json $plot -d rxe0 $ARGS --rendezvous=/tmp/rendezvous --node-id="$i" \
    --node.count="$NODES" --timeout.ms=20000 > "$out" 2> "$OUT/node$i.err" &
  pids="$pids $!"
  i=$((i + 1))
done
echo "guest: $NODES processes of remus bench reclaim started"
for p in $pids; do wait "$p" || status=1; done
ibv_devinfo -d rxe0 -v > "$OUT/ibv_devinfo.txt" 2>&1
for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
  echo "$(basename "$f") $(cat "$f")"
done > "$OUT/rxe-counters.txt" 2>/dev/null
echo "guest: done (status $status)"
exit "$status"
