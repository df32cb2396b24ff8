#!/bin/sh
# Guest script of softroce/diagnostics/send-hang (through softroce/vm.sh): runs `remus bench` SEND tests (server and client processes on
# rxe0) again and again until one fails or DIAG_SECONDS pass, and records rxe0's hardware counters
# and QP states around each run and, every 5 s, while one runs. Parameters from /mnt/job/params
# (JAVA, CLASSPATH, DIAG_SECONDS, DIAG_TIMEOUT); output in /mnt/job/send-hang/.
set -u
. /mnt/job/params
. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy 198.18.0.1 || exit $?
out=/mnt/job/send-hang; mkdir -p "$out"; cd /tmp
uname -r > "$out/kernel.txt"
counters() { for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do echo "$(basename "$f") $(cat "$f")"; done; }
state() { echo "== $1 $(date +%s)"; counters; rdma res show qp 2>&1; rdma res show cq 2>&1; }
remus() { timeout 300 "$JAVA" --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -cp "$CLASSPATH" io.remus.tools.Remus "$@"; }
one() { # NAME ADDR ARGS...
  name=$1; addr=$2; shift 2
  state "before $name" > "$out/state.txt"
  remus bench "$@" --fabric verbs -d rxe0 --timeout "$DIAG_TIMEOUT" --no-progress > "$out/server.txt" 2>&1 &
  spid=$!
  ( while sleep 5; do state "during $name"; done ) > "$out/during.txt" 2>&1 &
  mpid=$!
  remus bench "$@" --fabric verbs -d rxe0 --timeout "$DIAG_TIMEOUT" --no-progress "$addr" > "$out/client.txt" 2>&1
  c=$?; wait "$spid"; s=$?
  kill "$mpid" 2>/dev/null; wait "$mpid" 2>/dev/null
  state "after $name" >> "$out/state.txt"
  echo "$(date +%s) $name client=$c server=$s" >> "$out/runs.txt"
  if [ "$c" -ne 0 ] || [ "$s" -ne 0 ]; then
    mkdir -p "$out/failed-$name"; cp "$out"/server.txt "$out"/client.txt "$out"/state.txt "$out"/during.txt "$out/failed-$name/"
    dmesg > "$out/failed-$name/dmesg.txt"
    return 1
  fi
}
end=$(( $(date +%s) + DIAG_SECONDS ))
while [ "$(date +%s)" -lt "$end" ]; do
  one bw-cm 198.18.0.1 send-bw -n 50 --warmup 5 -a -R -t 16 || break
  one lat-few 127.0.0.1 send-lat -n 10 --warmup 2 -a -I 32 -r 4 || break
  one bw-few 127.0.0.1 send-bw -n 1000 -t 64 -r 8 -s 1024 || break
done
dmesg > "$out/dmesg.txt"
exit 0
