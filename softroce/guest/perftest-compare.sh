#!/bin/sh
# bash for SAME_JVM's timed reads (read -t); the guest sees the host's /, so bash is there
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
# Runs inside one Soft-RoCE guest (started by softroce/perftest-compare through softroce/vm.sh):
# creates rxe0 on a dummy netdev, then runs REPS interleaved repetitions of each perftest binary
# and the matching `remus bench` test, each as a server and a client process on rxe0, with the
# same size, iterations and flags (ours a second time with REMUS_JAVA_OPTS_B and/or from CLASSPATH_B
# when either is set, to compare JVM options or two builds in one boot). Raw outputs go to
# /mnt/job/raw/<test>.<rep>.<tool>.txt; the host parses them. Parameters come from /mnt/job/params.
set -u
. /mnt/job/params

. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy "$ADDR" || exit $?
ibv_devinfo -v -d rxe0 > /mnt/job/ibv_devinfo.txt 2>&1
mkdir -p /mnt/job/raw /tmp/work
cd /tmp/work
nproc > /mnt/job/guest-cpus.txt
cat /sys/devices/system/clocksource/clocksource0/current_clocksource > /mnt/job/clocksource.txt
# PIN="S C": every server runs on vCPU S and every client on vCPU C, perftest's and ours alike
ON_SERVER="" ON_CLIENT=""
if [ -n "${PIN:-}" ]; then
  # shellcheck disable=SC2086
  set -- $PIN
  ON_SERVER="taskset -c $1" ON_CLIENT="taskset -c $2"
fi
# shellcheck disable=SC2086
timeout 120 "$JAVA" --enable-native-access=ALL-UNNAMED $REMUS_JAVA_OPTS -cp "$CLASSPATH" io.remus.tools.Remus devices \
  > /mnt/job/remus-devices.txt 2>&1

# Around every client run, rxe0's hardware counters (retransmissions, RNR, duplicates) go to
# /mnt/job/raw/<name>.<tool>.counters, before and after.
# MARK (PERF_WINDOW=1 or PERF_INSN=1, softroce/insn-count/mark): ours marks its measured window
# (WINDOW_OPT: the system property remus.bench.windowMarks) through a FIFO that "mark FIFO DIR"
# reads; it executes the marker instruction for each mark and appends rxe0's counters right after
# it to /mnt/job/window-counters.txt, below a line "run name tool" that marked writes first.
# INSN (PERF_INSN=1): every client also runs between two marks of the instruction-counting QEMU
# plugin, and /mnt/job/insn-plan.txt gets one line per client run: "name tool exit inside",
# inside being how many marks the client made itself (ours: two).
COUNTERS=/sys/class/infiniband/rxe0/ports/1/hw_counters
WINDOW_OPT="" WINDOW_LINES=/tmp/work/window-lines.txt
: > "$WINDOW_LINES"
if [ -n "${MARK:-}" ]; then
  mkfifo /tmp/work/window-marks || exit 15
  "$MARK" /tmp/work/window-marks "$COUNTERS" > "$WINDOW_LINES" 2>> /mnt/job/window-counters.txt &
  WINDOW_OPT="-Dremus.bench.windowMarks=/tmp/work/window-marks"
fi
marked() { # name tool command... (sh has no local variables: these names are marked's own)
  marked_name=$1; marked_tool=$2; shift 2
  marked_file=/mnt/job/raw/$marked_name.$marked_tool.counters
  { echo before; grep . "$COUNTERS"/* 2>/dev/null; } > "$marked_file"
  [ -z "${MARK:-}" ] || echo "run $marked_name $marked_tool" >> /mnt/job/window-counters.txt
  [ -z "${INSN:-}" ] || "$MARK"
  marked_lines=$(wc -l < "$WINDOW_LINES")
  "$@"; marked_status=$?
  # the mark reader has long written its lines: the client's end mark precedes its report and exit
  [ -z "${INSN:-}" ] || { "$MARK"; echo "$marked_name $marked_tool $marked_status $(($(wc -l < "$WINDOW_LINES") - marked_lines))" >> /mnt/job/insn-plan.txt; }
  { echo after; grep . "$COUNTERS"/* 2>/dev/null; } >> "$marked_file"
  return $marked_status
}

perftest_pair() { # name binary args...
  name=$1; bin=$2; shift 2
  timeout 300 $ON_SERVER $bin -d rxe0 "$@" > "/tmp/work/$name.server.txt" 2>&1 &
  spid=$!
  tries=0
  # perftest's client gives up at once when its server is not listening yet: retry for a minute
  while :; do
    sleep 1
    marked "$name" perftest timeout 300 $ON_CLIENT $bin -d rxe0 "$@" "$ADDR" > "/mnt/job/raw/$name.perftest.txt" 2>&1
    status=$?
    tries=$((tries + 1))
    grep -q "Couldn't connect" "/mnt/job/raw/$name.perftest.txt" && [ "$tries" -lt 60 ] || break
  done
  echo "exit=$status tries=$tries" >> "/mnt/job/raw/$name.perftest.txt"
  wait "$spid" 2>/dev/null
}

# shellcheck disable=SC2086
remus_pair() { # name tool-label java-options class-path test args...: tool-label names the raw files (remus, remus-b)
  name=$1; label=$2; opts=$3; cp=$4; test=$5; shift 5
  # a JVM that crashes leaves its hs_err file with the raw results
  timeout 300 $ON_SERVER "$JAVA" --enable-native-access=ALL-UNNAMED $opts -XX:ErrorFile="/mnt/job/raw/$name.$label.server.hs_err_%p.log" \
    -cp "$cp" io.remus.tools.Remus bench "$test" --fabric verbs -d rxe0 --timeout 120 --no-progress "$@" > "/tmp/work/$name.server.txt" 2>&1 &
  spid=$!
  marked "$name" "$label" timeout 300 $ON_CLIENT "$JAVA" --enable-native-access=ALL-UNNAMED $opts $WINDOW_OPT -XX:ErrorFile="/mnt/job/raw/$name.$label.client.hs_err_%p.log" \
    -cp "$cp" io.remus.tools.Remus bench "$test" --fabric verbs -d rxe0 --timeout 120 --no-progress --json "$@" "$ADDR" \
    > "/mnt/job/raw/$name.$label.txt" 2> "/mnt/job/raw/$name.$label.err"
  echo "exit=$?" >> "/mnt/job/raw/$name.$label.err"
  wait "$spid" 2>/dev/null
  cat "/tmp/work/$name.server.txt" >> "/mnt/job/raw/$name.$label.err"
}

ours() { # name test args...: ours with REMUS_JAVA_OPTS, then (when either is set) with REMUS_JAVA_OPTS_B
  # (else REMUS_JAVA_OPTS) from CLASSPATH_B (else CLASSPATH)
  name=$1; shift
  remus_pair "$name" remus "$REMUS_JAVA_OPTS" "$CLASSPATH" "$@"
  [ -z "${REMUS_JAVA_OPTS_B:-}${CLASSPATH_B:-}" ] \
    || remus_pair "$name" remus-b "${REMUS_JAVA_OPTS_B:-$REMUS_JAVA_OPTS}" "${CLASSPATH_B:-$CLASSPATH}" "$@"
}

# the two commands of test $1 with n latency and bn bandwidth iterations: sets pt (perftest) and rm (ours)
commands() {
  case $1 in
    read_lat)   pt="ib_read_lat -F -s 8 -n $n";                rm="read-lat -s 8 -n $n --warmup $WARMUP" ;;
    write_lat)  pt="ib_write_lat -F -s 8 -n $n -I $INLINE";    rm="write-lat -s 8 -n $n -I $INLINE --warmup $WARMUP" ;;
    atomic_lat) pt="ib_atomic_lat -F -n $n -A FETCH_AND_ADD";  rm="atomic-lat -n $n -A FETCH_AND_ADD --warmup $WARMUP" ;;
    read_bw)    pt="ib_read_bw -F -s $BW_SIZE -n $bn -t 128 -o 16"; rm="read-bw -s $BW_SIZE -n $bn -t 128 -o 16 --warmup $BW_WARMUP" ;;
    write_bw)   pt="ib_write_bw -F -s $BW_SIZE -n $bn -t 128 -I $INLINE"; rm="write-bw -s $BW_SIZE -n $bn -t 128 -I $INLINE --warmup $BW_WARMUP" ;;
    send_lat)   pt="ib_send_lat -F -s 8 -n $n -I $INLINE";     rm="send-lat -s 8 -n $n -I $INLINE --warmup $WARMUP" ;;
    send_bw)    pt="ib_send_bw -F -s $BW_SIZE -n $bn -t 128 -I $INLINE"; rm="send-bw -s $BW_SIZE -n $bn -t 128 -I $INLINE --warmup $BW_WARMUP" ;;
    *) echo "guest: unknown test $1"; exit 14 ;;
  esac
  # QP_TIMEOUT (PERF_QP_TIMEOUT): both tools' -u, the QPs' ACK timeout exponent
  [ -z "${QP_TIMEOUT:-}" ] || { pt="$pt -u $QP_TIMEOUT"; rm="$rm -u $QP_TIMEOUT"; }
}

# SAME_JVM (PERF_SAME_JVM=1): ours runs all REPS repetitions of a test in one server and one client JVM
# (remus bench --repeat REPS), and perftest's repetitions run in between, run by run, while both of
# ours' JVMs are stopped (SIGSTOP): the two tools alternate closely, and ours starts its JVMs once per
# test instead of once per repetition. The client waits at its run gate before each repetition
# (-Dremus.bench.runGate, tools' RunGate: it says "ready k" on GATE/to-harness, waits for "go" on
# GATE/to-client, says "done k" after the run). Its JSON holds one result per repetition:
# /mnt/job/raw/<test>.all.remus.txt; rxe0's counters around repetition k: <test>.<k>.remus.counters.
GATE=/tmp/work/gate
gate_expect() { # line: the next line ours' client says, within 900 s and while it lives
  gate_waited=0
  until IFS= read -r -t 5 -u 3 gate_line; do
    gate_waited=$((gate_waited + 5))
    kill -0 "$cpid" 2>/dev/null || { echo "guest: ours' client exited (expected '$1')"; return 1; }
    [ "$gate_waited" -lt 900 ] || { echo "guest: ours said nothing within 900 s (expected '$1')"; return 1; }
  done
  [ "$gate_line" = "$1" ] || { echo "guest: ours said '$gate_line', expected '$1'"; return 1; }
}
ours_stopped() { pkill -STOP -x java; }
ours_continued() { pkill -CONT -x java; }
ours_rep() { # test rep: lets ours' client run repetition rep and waits until it is done
  [ "$ours_ok" = 1 ] || return 0
  counters_file=/mnt/job/raw/$1.$2.remus.counters
  { echo before; grep . "$COUNTERS"/* 2>/dev/null; } > "$counters_file"
  echo go >&4
  if gate_expect "done $2" && { [ "$2" -ge "$REPS" ] || gate_expect "ready $(($2 + 1))"; }; then
    { echo after; grep . "$COUNTERS"/* 2>/dev/null; } >> "$counters_file"
  else
    ours_ok=0; pkill -KILL -x java
  fi
}
same_jvm_test() { # test: REPS repetitions of both tools, ours in one pair of JVMs
  t=$1
  rm -rf "$GATE"; mkdir -p "$GATE"
  mkfifo "$GATE/to-harness" "$GATE/to-client" || exit 15
  # held open read-write: neither side's open waits, and a dead client cannot block the harness
  exec 3<> "$GATE/to-harness" 4<> "$GATE/to-client"
  limit=$((REPS * 400 + 300))
  # shellcheck disable=SC2086
  timeout "$limit" $ON_SERVER "$JAVA" --enable-native-access=ALL-UNNAMED $REMUS_JAVA_OPTS -XX:ErrorFile="/mnt/job/raw/$t.all.remus.server.hs_err_%p.log" \
    -cp "$CLASSPATH" io.remus.tools.Remus bench $rm --repeat "$REPS" --fabric verbs -d rxe0 --timeout 120 --no-progress > "/tmp/work/$t.server.txt" 2>&1 &
  spid=$!
  # shellcheck disable=SC2086
  timeout "$limit" $ON_CLIENT "$JAVA" --enable-native-access=ALL-UNNAMED $REMUS_JAVA_OPTS -Dremus.bench.runGate="$GATE" \
    -XX:ErrorFile="/mnt/job/raw/$t.all.remus.client.hs_err_%p.log" -cp "$CLASSPATH" io.remus.tools.Remus bench $rm --repeat "$REPS" \
    --fabric verbs -d rxe0 --timeout 120 --no-progress --json "$ADDR" > "/mnt/job/raw/$t.all.remus.txt" 2> "/mnt/job/raw/$t.all.remus.err" &
  cpid=$!
  ours_ok=1
  gate_expect "ready 1" || { ours_ok=0; pkill -KILL -x java; }
  rep=1
  while [ "$rep" -le "$REPS" ]; do
    echo "guest: rep $rep $t (ours in one JVM)"
    if [ $((rep % 2)) = 1 ]; then
      # shellcheck disable=SC2086
      ours_stopped; perftest_pair "$t.$rep" $pt; ours_continued; ours_rep "$t" "$rep"
    else
      # shellcheck disable=SC2086
      ours_rep "$t" "$rep"; ours_stopped; perftest_pair "$t.$rep" $pt; ours_continued
    fi
    rep=$((rep + 1))
  done
  wait "$cpid"; echo "exit=$?" >> "/mnt/job/raw/$t.all.remus.err"
  wait "$spid" 2>/dev/null
  cat "/tmp/work/$t.server.txt" >> "/mnt/job/raw/$t.all.remus.err"
  exec 3<&- 4>&-
}

if [ -n "${SAME_JVM:-}" ]; then
  n=$LAT_ITERS bn=$BW_ITERS
  for t in $TESTS; do
    commands "$t"
    same_jvm_test "$t"
  done
  echo "guest: done"
  exit 0
fi

rep=1
while [ "$rep" -le "$REPS" ]; do
  # LAT_ITERS_ALT / BW_ITERS_ALT: even repetitions run latency / bandwidth tests with this many
  # iterations instead (two run lengths whose difference in counted instructions is the steady
  # state's: start-up and warm-up cancel)
  n=$LAT_ITERS bn=$BW_ITERS
  [ -z "${LAT_ITERS_ALT:-}" ] || [ $((rep % 2)) = 1 ] || n=$LAT_ITERS_ALT
  [ -z "${BW_ITERS_ALT:-}" ] || [ $((rep % 2)) = 1 ] || bn=$BW_ITERS_ALT
  for t in $TESTS; do
    commands "$t"
    echo "guest: rep $rep $t"
    # perftest and remus alternate which goes first, so neither always runs on a fresher guest
    if [ $((rep % 2)) = 1 ]; then
      # shellcheck disable=SC2086
      perftest_pair "$t.$rep" $pt; ours "$t.$rep" $rm
    else
      # shellcheck disable=SC2086
      ours "$t.$rep" $rm; perftest_pair "$t.$rep" $pt
    fi
  done
  rep=$((rep + 1))
done
echo "guest: done"
