#!/bin/sh
# Runs inside one Soft-RoCE guest (started by softroce/tool-runs through softroce/vm.sh): creates
# rxe0 on a dummy netdev, then runs the remus tool as a user would: `experiment numa` (the guest
# has two emulated NUMA nodes) and `experiment loopback` on the verbs fabric, each with its
# plot, send-lat / send-bw as a server and a client process on rxe0 beside perftest's
# ib_send_lat / ib_send_bw with the same flags, and rpc-lat (both nodes in one process); STEPS
# (numa,loopback,send,rpc) picks which run. Outputs go to /mnt/job/out/; parameters come
# from /mnt/job/params.
set -u
. /mnt/job/params

. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy "$ADDR" || exit $?
mkdir -p /mnt/job/out /tmp/work
cd /tmp/work
OUT=/mnt/job/out
status=0
# shellcheck disable=SC2086
remus() { timeout 600 "$JAVA" --enable-native-access=ALL-UNNAMED $REMUS_JAVA_OPTS -cp "$CLASSPATH" io.remus.tools.Remus "$@"; }

step() { case ",$STEPS," in *,"$1",*) return 0 ;; *) return 1 ;; esac; }

numactl --hardware > "$OUT/numactl.txt" 2>&1
nproc > "$OUT/guest-cpus.txt"
if step numa; then
  echo "guest: experiment numa"
  remus experiment numa --fabric verbs -d rxe0 $NUMA_ARGS --plot "$OUT/numa.png" > "$OUT/numa.txt" 2>&1 || status=1
fi
if step loopback; then
  echo "guest: experiment loopback"
  remus experiment loopback --fabric verbs -d rxe0 $LOOPBACK_ARGS --plot "$OUT/loopback.png" > "$OUT/loopback.txt" 2>&1 || status=1
fi

pair() { # NAME: remus's server and client processes, then perftest's, with the same flags
  name=$1; shift
  remus bench "$name" --fabric verbs -d rxe0 --timeout 120 --no-progress "$@" > "$OUT/$name.remus-server.txt" 2>&1 &
  spid=$!
  remus bench "$name" --fabric verbs -d rxe0 --timeout 120 --no-progress --perftest-format "$@" "$ADDR" \
    > "$OUT/$name.remus.txt" 2>&1 || status=1
  wait "$spid" || status=1
  bin=ib_$(echo "$name" | tr - _)
  timeout 300 "$bin" -d rxe0 -F "$@" > "$OUT/$name.perftest-server.txt" 2>&1 &
  spid=$!
  tries=0
  while :; do
    sleep 1
    timeout 300 "$bin" -d rxe0 -F "$@" "$ADDR" > "$OUT/$name.perftest.txt" 2>&1
    tries=$((tries + 1))
    grep -q "Couldn't connect" "$OUT/$name.perftest.txt" && [ "$tries" -lt 60 ] || break
  done
  wait "$spid"
}
if step send; then
  echo "guest: send-lat, send-bw"
  # shellcheck disable=SC2086
  pair send-lat $SEND_LAT_ARGS
  # shellcheck disable=SC2086
  pair send-bw $SEND_BW_ARGS
fi
if step rpc; then
  # Both of its nodes in one process on rxe0: the RPC endpoint's round trip, beside send-lat and ib_send_lat.
  echo "guest: rpc-lat"
  # shellcheck disable=SC2086
  remus bench rpc-lat --fabric verbs -d rxe0 $RPC_LAT_ARGS > "$OUT/rpc-lat.txt" 2>&1 || status=1
fi
echo "guest: done (status $status)"
exit "$status"
