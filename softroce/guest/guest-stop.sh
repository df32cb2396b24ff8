#!/bin/sh
# Runs inside each of the two Soft-RoCE guests that softroce/run-guest-stop boots on a private bridge
# (guest i: rxe0 on eth0, ADDR). Parameters come from /mnt/job/params; everything the processes
# write goes to /mnt/job/out, which the host reads while the guest runs.
#
# ROLE=lone (guest 1): runs node 0 of io.remus.ds.replicate.GuestStopMain, the log's first leader,
#   output in out/node0.log (its COMMITTED lines are the appends a majority acknowledged). It
#   creates out/ready after its first commits; the host then stops this guest with QEMU's `quit`, so
#   this script normally never ends (the guest reports no exit status).
# ROLE=pair (guest 0): runs nodes 1 and 2 (out/node1.log, out/node2.log). The host writes out/acked
#   and out/killed once guest 1 is gone; node 1 takes over and appends, both apply; then
#   `GuestStopMain verdict` writes out/verdict. Exit status: the verdict's (0 passed), 1 when a node
#   failed, 10-13 when rxe0 did not come up.
set -u
. /mnt/job/params
. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"

OUT=/mnt/job/out
mkdir -p "$OUT" /tmp/work
say() { echo "guest: [$(cut -d. -f1 /proc/uptime)s] $*"; }
rxe0_up eth0 "$ADDR" || exit $?
cd /tmp/work

main=io.remus.ds.replicate.GuestStopMain
node() { # NODE_ID: one process of the cluster, bounded by NODE_TIMEOUT
  timeout -k 10 "$NODE_TIMEOUT" "$JAVA" --enable-native-access=ALL-UNNAMED $JAVA_OPTS -cp "$CLASSPATH" \
    "$main" node rxe0 "$1" "$HOSTS" "$BASE_PORT" "$OUT" "$CONNECT_MILLIS" > "$OUT/node$1.log" 2>&1
}
keep_crash_logs() {
  for f in /tmp/work/hs_err_pid*.log; do [ -f "$f" ] && cp "$f" "$OUT/"; done
  return 0
}

if [ "$ROLE" = lone ]; then
  say "node 0 (the first leader) starts"
  node 0; rc=$?
  keep_crash_logs
  say "node 0 ended with status $rc before the host stopped this guest"
  exit 1
fi

say "nodes 1 and 2 start"
node 1 & p1=$!
node 2 & p2=$!
wait "$p1"; rc1=$?
wait "$p2"; rc2=$?
keep_crash_logs
say "node 1 exited $rc1, node 2 exited $rc2"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] || { tail -n 20 "$OUT/node1.log" "$OUT/node2.log"; exit 1; }
"$JAVA" $JAVA_OPTS -cp "$CLASSPATH" "$main" verdict "$OUT" > "$OUT/verdict.log" 2>&1; rc=$?
cat "$OUT/verdict.log"
exit "$rc"
