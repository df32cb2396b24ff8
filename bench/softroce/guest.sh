#!/bin/sh
# Runs inside a Soft-RoCE guest (started by bench/softroce/run through softroce/vm.sh): creates
# rxe0 on a dummy netdev, then runs the JMH jar with the arguments from /mnt/job/params. JMH's
# output goes to /mnt/job/jmh.log, its result table to /mnt/job/jmh.txt. With PERFTEST=1 in the
# params, perftest's ib_read_lat runs first (loopback) and its report goes to /mnt/job/perftest.txt.
set -u
. /mnt/job/params

. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy 198.18.0.1 || exit $?
ibv_devinfo -d rxe0 > /mnt/job/ibv_devinfo.txt 2>&1
cd /tmp
if [ "${PERFTEST:-0}" = 1 ]; then
  echo "guest: perftest ib_read_lat on rxe0 (the same boot's reference latency)"
  (ib_read_lat -d rxe0 -n 2000 > /tmp/perftest-server.log 2>&1 &)
  sleep 1
  timeout 120 ib_read_lat -d rxe0 -n 2000 198.18.0.1 > /mnt/job/perftest.txt 2>&1
fi
echo "guest: rxe0 is active; running benchmarks.jar $JMH_ARGS"
# shellcheck disable=SC2086
REMUS_TEST_DEVICE=rxe0 timeout -k 30 900 "$JAVA" --enable-native-access=ALL-UNNAMED -jar "$JAR" $JMH_ARGS \
  -rf text -rff /mnt/job/jmh.txt > /mnt/job/jmh.log 2>&1
