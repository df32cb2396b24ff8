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
# INSN: the kernel's symbols, to name the addresses of the plugin's profile (PERF_INSNPROF)
[ -z "${INSN:-}" ] || cat /proc/kallsyms > /mnt/job/kallsyms.txt
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
# MARK (PERF_WINDOW=1 or PERF_INSN=1, softroce/diagnostics/insn-count/mark): ours marks its measured window
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
counters_snapshot() { # label: the label, then rxe0's hardware counters, one "file:value" per line
  echo "$1"; grep . "$COUNTERS"/* 2>/dev/null
}
client_maps() { # file program: copies, every second while it lives, the /proc/PID/maps of the process
  # running program (its command line's first word) whose command line names the server's address:
  # the client. It is found with bash builtins only (a fork per process would take seconds in this
  # guest, beside the measured run), within 60 s.
  client_maps_pid=""
  for client_maps_try in $(seq 1 120); do
    sleep 0.5
    for client_maps_dir in /proc/[0-9]*; do
      mapfile -d '' client_maps_argv < "$client_maps_dir/cmdline" 2>/dev/null || continue
      [ "${client_maps_argv[0]:-}" = "$2" ] || continue
      case " ${client_maps_argv[*]} " in
        *" $ADDR "*) client_maps_pid=${client_maps_dir#/proc/}; break 2 ;;
      esac
    done
  done
  [ -n "$client_maps_pid" ] || return 0
  while cat "/proc/$client_maps_pid/maps" > "$1.new" 2>/dev/null && [ -s "$1.new" ]; do
    mv "$1.new" "$1"
    sleep 1
  done
  rm -f "$1.new"
}
marked() { # name tool program command... (sh has no local variables: these names are marked's own)
  marked_name=$1; marked_tool=$2; marked_program=$3; shift 3
  marked_file=/mnt/job/raw/$marked_name.$marked_tool.counters
  counters_snapshot before > "$marked_file"
  [ -z "${MARK:-}" ] || echo "run $marked_name $marked_tool" >> /mnt/job/window-counters.txt
  [ -z "${INSN:-}" ] || "$MARK"
  marked_lines=$(wc -l < "$WINDOW_LINES")
  # INSN: the client's mappings, to name the user-space addresses of the profile: taken every
  # second while it runs (the last copy holds what it loaded late, e.g. the rxe provider)
  [ -z "${INSN:-}" ] || client_maps "/mnt/job/raw/$marked_name.$marked_tool.maps" "$marked_program" &
  "$@"; marked_status=$?
  # the mark reader has long written its lines: the client's end mark precedes its report and exit
  [ -z "${INSN:-}" ] || { "$MARK"; echo "$marked_name $marked_tool $marked_status $(($(wc -l < "$WINDOW_LINES") - marked_lines))" >> /mnt/job/insn-plan.txt; }
  counters_snapshot after >> "$marked_file"
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
    marked "$name" perftest "$bin" timeout 300 $ON_CLIENT $bin -d rxe0 "$@" "$ADDR" > "/mnt/job/raw/$name.perftest.txt" 2>&1
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
  marked "$name" "$label" "$JAVA" timeout 300 $ON_CLIENT "$JAVA" --enable-native-access=ALL-UNNAMED $opts $WINDOW_OPT -XX:ErrorFile="/mnt/job/raw/$name.$label.client.hs_err_%p.log" \
    -cp "$cp" io.remus.tools.Remus bench "$test" --fabric verbs -d rxe0 --timeout 120 --no-progress --json \
    ${hgrm:+--hgrm "/mnt/job/raw/$name.$label.hgrm"} "$@" "$ADDR" \
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
  # latency tests: every iteration's latency for the host's chart, perftest's in its output (-U: "#, usec",
  # then "i, latency" lines, unsorted), ours' histogram in an .hgrm file next to its report (remus_pair, start_pair)
  hgrm=""
  case $1 in *_lat) pt="$pt -U" hgrm=1 ;; esac
}

# SAME_JVM (PERF_SAME_JVM=1): ours runs all REPS repetitions of a test in one server and one client JVM
# (remus bench --repeat REPS), and perftest's repetitions run in between, run by run, while ours' JVMs
# are stopped (SIGSTOP): the tools alternate closely, and ours starts its JVMs once per test instead
# of once per repetition. With REMUS_JAVA_OPTS_B or CLASSPATH_B a second pair of ours' JVMs (label
# remus-b, TCP port 18516) takes its turn too, and only the pair whose turn it is runs. The client
# waits at its run gate before each repetition (-Dremus.bench.runGate, tools' RunGate: it says
# "ready k" on <gate>/to-harness, waits for "go" on <gate>/to-client, says "done k" after the run).
# Its JSON holds one result per repetition: /mnt/job/raw/<test>.all.<label>.txt; rxe0's counters
# around repetition k: <test>.<k>.<label>.counters.
same_jvm_labels="remus"
[ -z "${REMUS_JAVA_OPTS_B:-}${CLASSPATH_B:-}" ] || same_jvm_labels="remus remus-b"
declare -A server_of client_of ok_of in_fd out_fd
gate_expect() { # label line: the next line that label's client says, within 900 s and while it lives
  gate_waited=0
  until IFS= read -r -t 5 -u "${in_fd[$1]}" gate_line; do
    gate_waited=$((gate_waited + 5))
    kill -0 "${client_of[$1]}" 2>/dev/null || { echo "guest: $1's client exited (expected '$2')"; return 1; }
    [ "$gate_waited" -lt 900 ] || { echo "guest: $1 said nothing within 900 s (expected '$2')"; return 1; }
  done
  [ "$gate_line" = "$2" ] || { echo "guest: $1 said '$gate_line', expected '$2'"; return 1; }
}
signal_pair() { # signal label: to that label's two JVMs, the children of their timeout processes (no pkill:
  # the portable guest's busybox has none)
  for signal_parent in "${server_of[$2]}" "${client_of[$2]}"; do
    for signal_child in $(cat "/proc/$signal_parent/task/$signal_parent/children" 2>/dev/null); do
      kill "-$1" "$signal_child" 2>/dev/null
    done
  done
}
ours_rep() { # label test rep: lets that client run repetition rep (its pair alone running) and waits until it is done
  [ "${ok_of[$1]}" = 1 ] || return 0
  counters_file=/mnt/job/raw/$2.$3.$1.counters
  counters_snapshot before > "$counters_file"
  signal_pair CONT "$1"
  # INSN (PERF_HOSTPROF): the plugin's marks around the repetition, as `marked` puts them around perftest's client
  if [ -n "${INSN:-}" ]; then
    for maps_child in $(cat "/proc/${client_of[$1]}/task/${client_of[$1]}/children" 2>/dev/null); do
      cat "/proc/$maps_child/maps" > "/mnt/job/raw/$2.$3.$1.maps" 2>/dev/null
    done
    "$MARK"
  fi
  echo go >&"${out_fd[$1]}"
  ours_status=1
  gate_expect "$1" "done $3" && ours_status=0
  [ -z "${INSN:-}" ] || { "$MARK"; echo "$2.$3 $1 $ours_status 0" >> /mnt/job/insn-plan.txt; }
  if [ "$ours_status" = 0 ] && { [ "$3" -ge "$REPS" ] || gate_expect "$1" "ready $(($3 + 1))"; }; then
    counters_snapshot after >> "$counters_file"
    signal_pair STOP "$1"
  else
    ok_of[$1]=0; signal_pair KILL "$1"; signal_pair CONT "$1"
  fi
}
start_pair() { # label test fd-in fd-out port: starts that label's server and client and waits until the client is ready
  label=$1 t=$2 gate=/tmp/work/gate-$1
  opts=$REMUS_JAVA_OPTS cp=$CLASSPATH
  if [ "$label" = remus-b ]; then opts=${REMUS_JAVA_OPTS_B:-$REMUS_JAVA_OPTS} cp=${CLASSPATH_B:-$CLASSPATH}; fi
  rm -rf "$gate"; mkdir -p "$gate"
  mkfifo "$gate/to-harness" "$gate/to-client" || exit 15
  # held open read-write: neither side's open waits, and a dead client cannot block the harness
  eval "exec $3<> \"$gate/to-harness\" $4<> \"$gate/to-client\""
  in_fd[$label]=$3 out_fd[$label]=$4
  limit=$((REPS * 600 + 300))
  # shellcheck disable=SC2086
  timeout "$limit" $ON_SERVER "$JAVA" --enable-native-access=ALL-UNNAMED $opts -XX:ErrorFile="/mnt/job/raw/$t.all.$label.server.hs_err_%p.log" \
    -cp "$cp" io.remus.tools.Remus bench $rm --repeat "$REPS" -p "$5" --fabric verbs -d rxe0 --timeout 120 --no-progress > "/tmp/work/$t.$label.server.txt" 2>&1 &
  server_of[$label]=$!
  # INSN: the client's generated code named at its exit (/tmp/perf-PID.map), for the profile (PERF_INSNPROF)
  client_opts=$opts
  [ -z "${INSN:-}" ] || client_opts="$opts -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit"
  # shellcheck disable=SC2086
  timeout "$limit" $ON_CLIENT "$JAVA" --enable-native-access=ALL-UNNAMED $client_opts -Dremus.bench.runGate="$gate" \
    -XX:ErrorFile="/mnt/job/raw/$t.all.$label.client.hs_err_%p.log" -cp "$cp" io.remus.tools.Remus bench $rm --repeat "$REPS" -p "$5" \
    --fabric verbs -d rxe0 --timeout 120 --no-progress --json ${hgrm:+--hgrm "/mnt/job/raw/$t.all.$label.hgrm"} "$ADDR" \
    > "/mnt/job/raw/$t.all.$label.txt" 2> "/mnt/job/raw/$t.all.$label.err" &
  client_of[$label]=$!
  ok_of[$label]=1
  if gate_expect "$label" "ready 1"; then signal_pair STOP "$label"; else ok_of[$label]=0; signal_pair KILL "$label"; fi
}
finish_pair() { # label test
  # the client's JVM, the timeout process's one child (the file holds "PID ", no newline)
  finish_java=$(cat "/proc/${client_of[$1]}/task/${client_of[$1]}/children" 2>/dev/null)
  finish_java=${finish_java%% *}
  signal_pair CONT "$1"
  wait "${client_of[$1]}"; echo "exit=$?" >> "/mnt/job/raw/$2.all.$1.err"
  [ -z "${INSN:-}" ] || [ -z "$finish_java" ] || cp "/tmp/perf-$finish_java.map" "/mnt/job/raw/$2.all.$1.perfmap" 2>/dev/null
  wait "${server_of[$1]}" 2>/dev/null
  cat "/tmp/work/$2.$1.server.txt" >> "/mnt/job/raw/$2.all.$1.err"
  eval "exec ${in_fd[$1]}<&- ${out_fd[$1]}>&-"
}
same_jvm_test() { # test: REPS repetitions of perftest and of each of ours' labels, ours' in one pair of JVMs each
  t=$1 k=0
  for label in $same_jvm_labels; do
    # one pair starts at a time, the other stopped, so that the first pair's start-up is not the second's noise
    start_pair "$label" "$t" $((3 + 2 * k)) $((4 + 2 * k)) $((18515 + k))
    k=$((k + 1))
  done
  rep=1
  while [ "$rep" -le "$REPS" ]; do
    echo "guest: rep $rep $t (ours in one JVM: $same_jvm_labels)"
    # perftest and ours alternate which goes first, so neither always runs on a fresher guest
    if [ $((rep % 2)) = 1 ]; then
      # shellcheck disable=SC2086
      perftest_pair "$t.$rep" $pt
      for label in $same_jvm_labels; do ours_rep "$label" "$t" "$rep"; done
    else
      for label in $(echo "$same_jvm_labels" | tr ' ' '\n' | tac); do ours_rep "$label" "$t" "$rep"; done
      # shellcheck disable=SC2086
      perftest_pair "$t.$rep" $pt
    fi
    rep=$((rep + 1))
  done
  for label in $same_jvm_labels; do finish_pair "$label" "$t"; done
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
