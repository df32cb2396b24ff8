#!/bin/sh
# Runs inside a Soft-RoCE guest (started by softroce/vm.sh from run-tests or run-cluster):
# creates rxe0, then runs the JUnit Platform console launcher over the project's classes.
# Parameters come from /mnt/job/params (written by the host); JUnit XML reports go to
# /mnt/job/reports, the launcher's output to /mnt/job/junit.log and rxe0's hardware counters
# after the run to /mnt/job/rxe-counters.txt. JVMs run in /mnt/job/work, so a crashing JVM's
# hs_err_pid*.log comes back. The exit status is the
# launcher's (1: a test failed, 2: no test matched), or 10-13 when the device setup failed.
set -u
. /mnt/job/params

. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up "$NETDEV" "$ADDR" || exit $?
ibv_devinfo -v -d rxe0 > /mnt/job/ibv_devinfo.txt 2>&1
echo "guest: running JUnit tests tagged $INCLUDE_TAG"
# Every child JVM a test starts (ChildJvm) gets these options.
export REMUS_CHILD_JVM_OPTIONS="${CHILD_JVM_OPTIONS:-}"

set --
[ -z "${INCLUDE_CLASSNAME:-}" ] || set -- --include-classname="$INCLUDE_CLASSNAME"
mkdir -p /mnt/job/reports /mnt/job/work
cd /mnt/job/work
timeout -k 30 "$JUNIT_TIMEOUT" "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" \
  org.junit.platform.console.ConsoleLauncher execute \
  --scan-class-path="$SCAN" --include-tag="$INCLUDE_TAG" ${EXCLUDE_TAG:+--exclude-tag="$EXCLUDE_TAG"} \
  "$@" \
  --reports-dir=/mnt/job/reports --details=tree --details-theme=ascii --disable-banner --disable-ansi-colors --fail-if-no-tests \
  > /mnt/job/junit.log 2>&1
rc=$?
[ "$rc" -ne 124 ] || echo "guest: JUnit ran past ${JUNIT_TIMEOUT}s and was killed"
# rxe0's counters over the whole run (retransmissions, duplicates, RNR NAKs): the first
# evidence to read when a test here hangs or fails while the same test passes on the simulator.
for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
  echo "$(basename "$f") $(cat "$f")"
done > /mnt/job/rxe-counters.txt 2>/dev/null
exit "$rc"
