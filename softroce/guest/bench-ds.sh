#!/bin/sh
# Runs inside one Soft-RoCE guest (started by softroce/bench-ds through softroce/vm.sh): creates rxe0 on
# a dummy netdev, then starts `remus bench ds` as NODES processes, one per node, joined through a
# rendezvous directory on the guest's tmpfs (--node-id, --node.count), as DsBenchClusterDeviceTest does.
# Node 0's table goes to /mnt/job/out/ds.txt, its JSON report to ds.json and its plot to ds.png (only
# node 0 is given --json and --plot), the other nodes' standard output to node<i>.out, every node's
# standard error to node<i>.err, rxe0's counters after the run to rxe-counters.txt. Parameters come
# from /mnt/job/params.
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
  out="$OUT/node$i.out" extra=""
  [ "$i" -ne 0 ] || { out="$OUT/ds.txt"; extra="--json=$OUT/ds.json --plot=$OUT/ds.png"; }
  # shellcheck disable=SC2086
  timeout 1500 "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" io.remus.tools.Remus bench ds \
    $extra -d rxe0 $ARGS --rendezvous=/tmp/rendezvous --node-id="$i" \
    --node.count="$NODES" --seg-size=16M --timeout.ms=20000 > "$out" 2> "$OUT/node$i.err" &
  pids="$pids $!"
  i=$((i + 1))
done
echo "guest: $NODES processes of remus bench ds started"
for p in $pids; do wait "$p" || status=1; done
for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
  echo "$(basename "$f") $(cat "$f")"
done > "$OUT/rxe-counters.txt" 2>/dev/null
echo "guest: done (status $status)"
exit "$status"
