#!/bin/sh
# Guest script of softroce/diagnostics/tcg-stats (through softroce/vm.sh): runs perftest's and our
# read and atomic latency tests in duration mode, each as a server and a client process on rxe0,
# and writes the name of what runs into /mnt/job/phase for the host's sampler of QEMU's `info jit`.
# Duration mode ignores --warmup: ours warm up in the leading margin (2 s of -D), which, once per
# JVM, lasts until the JIT is quiet (so the window begins after that). Parameters from
# /mnt/job/params (JAVA, CLASSPATH, JAVA_OPTS, SECONDS_EACH, REPS).
set -u
. /mnt/job/params
. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy 198.18.0.1 || exit $?
out=/mnt/job/out; mkdir -p "$out"; cd /tmp
phase() { echo "$1" > /mnt/job/phase; }
perftest() { # name binary args...
  name=$1; bin=$2; shift 2
  phase "$name.perftest-start"
  timeout 600 "$bin" -d rxe0 -F "$@" > /dev/null 2>&1 &
  spid=$!
  sleep 2
  phase "$name.perftest"
  timeout 600 "$bin" -d rxe0 -F "$@" 198.18.0.1 > "$out/$name.perftest.txt" 2>&1
  wait "$spid"
}
# shellcheck disable=SC2086
ours() { # name test args...: the phase switches to NAME.remus once the client's progress line says it measures
  name=$1; test=$2; shift 2
  phase "$name.remus-start"
  timeout 600 "$JAVA" --enable-native-access=ALL-UNNAMED $JAVA_OPTS -cp "$CLASSPATH" io.remus.tools.Remus bench "$test" --fabric verbs -d rxe0 --timeout 120 --no-progress "$@" > /dev/null 2>&1 &
  spid=$!
  timeout 600 "$JAVA" --enable-native-access=ALL-UNNAMED $JAVA_OPTS -cp "$CLASSPATH" io.remus.tools.Remus bench "$test" --fabric verbs -d rxe0 --timeout 120 --json --interval-log "$out/$name.intervals" "$@" 198.18.0.1 > "$out/$name.remus.txt" 2> "$out/$name.remus.err" &
  cpid=$!
  # the interval log gets its first line when the measured window begins
  while kill -0 "$cpid" 2>/dev/null; do
    if [ -s "$out/$name.intervals" ] && grep -q '^[0-9]' "$out/$name.intervals"; then phase "$name.remus"; break; fi
    sleep 1
  done
  wait "$cpid"; wait "$spid"
}
rep=1
while [ "$rep" -le "$REPS" ]; do
  perftest "read.$rep" ib_read_lat -s 8 -D "$SECONDS_EACH"
  ours "read.$rep" read-lat -s 8 -D "$SECONDS_EACH"
  perftest "atomic.$rep" ib_atomic_lat -A FETCH_AND_ADD -D "$SECONDS_EACH"
  ours "atomic.$rep" atomic-lat -A FETCH_AND_ADD -D "$SECONDS_EACH"
  rep=$((rep + 1))
done
phase idle
sleep 3
exit 0
