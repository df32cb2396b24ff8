#!/bin/sh
# Runs inside each of the two Soft-RoCE guests that softroce/run-guest-stop boots on a private bridge
# (guest i: rxe0 on eth0, ADDR). Parameters come from /mnt/job/params; everything the processes
# write goes to /mnt/job/out, which the host reads (and, for the index, writes into) while the guest runs.
# SERVICE picks what runs over the replicated log:
#
# SERVICE=index: io.remus.ds.index.IndexGuestStopMain, five processes: the index shard's three servers
#   (nodes 0, 1, 2) and two client processes (nodes 3, 4).
#   ROLE=lone (guest 1): runs node 0, the shard's first leader (out/node0.log). It creates out/ready once it
#     has appended its first requests; the host then stops this guest with QEMU's `quit`, so this script
#     normally never ends (the guest reports no exit status). The host copies the start-up files
#     (rings-*, connected-*, armed-*, leading) between the two guests' out directories.
#   ROLE=pair (guest 0): runs nodes 1 to 4 (out/node<i>.log). The host writes out/node0.log (node 0's
#     output) and out/killed once guest 1 is gone; node 1 takes over, the clients find it and go on, the
#     survivors apply; then `IndexGuestStopMain verdict` writes out/verdict.
# SERVICE=log: io.remus.ds.replicate.GuestStopMain, the log alone, three processes.
#   ROLE=lone (guest 1): runs node 0, the log's first leader, output in out/node0.log (its COMMITTED
#     lines are the appends a majority acknowledged). It creates out/ready after its first commits; the
#     host then stops this guest as above.
#   ROLE=pair (guest 0): runs nodes 1 and 2 (out/node1.log, out/node2.log). The host writes out/acked
#     and out/killed once guest 1 is gone; node 1 takes over and appends, both apply; then
#     `GuestStopMain verdict` writes out/verdict.
# Guest 0's exit status: the verdict's (0 passed), 1 when a node failed, 10-13 when rxe0 did not come up.
set -u
. /mnt/job/params
. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"

OUT=/mnt/job/out
mkdir -p "$OUT" /tmp/work
say() { echo "guest: [$(cut -d. -f1 /proc/uptime)s] $*"; }
rxe0_up eth0 "$ADDR" || exit $?
cd /tmp/work

case "${SERVICE:-}" in
  index) main=io.remus.ds.index.IndexGuestStopMain; survivors="1 2 3 4" ;;
  log) main=io.remus.ds.replicate.GuestStopMain; survivors="1 2" ;;
  *) say "unknown SERVICE ${SERVICE:-(none)}"; exit 1 ;;
esac
node() { # NODE_ID: one process of the cluster, bounded by NODE_TIMEOUT
  timeout -k 10 "$NODE_TIMEOUT" "$JAVA" --enable-native-access=ALL-UNNAMED $JAVA_OPTS -cp "$CLASSPATH" \
    "$main" node rxe0 "$1" "$HOSTS" "$BASE_PORT" "$OUT" "$CONNECT_MILLIS" > "$OUT/node$1.log" 2>&1
}
keep_crash_logs() {
  for f in /tmp/work/hs_err_pid*.log; do [ -f "$f" ] && cp "$f" "$OUT/"; done
  return 0
}

if [ "$ROLE" = lone ]; then
  say "node 0 (the first leader, $SERVICE) starts"
  node 0; rc=$?
  keep_crash_logs
  say "node 0 ended with status $rc before the host stopped this guest"
  exit 1
fi

say "nodes $survivors start ($SERVICE)"
pids=""
for i in $survivors; do
  node "$i" & pids="$pids $!"
done
failed=""
set -- $survivors
for p in $pids; do
  wait "$p" || failed="$failed node$1"
  shift
done
keep_crash_logs
say "nodes $survivors ended${failed:+; failed:$failed}"
[ -z "$failed" ] || { for i in $survivors; do tail -n 20 "$OUT/node$i.log"; done; exit 1; }
"$JAVA" $JAVA_OPTS -cp "$CLASSPATH" "$main" verdict "$OUT" > "$OUT/verdict.log" 2>&1; rc=$?
cat "$OUT/verdict.log"
exit "$rc"
