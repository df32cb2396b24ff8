#!/bin/sh
# Runs inside one Soft-RoCE guest (started by softroce/bench-object through softroce/vm.sh): creates
# rxe0 on a dummy netdev, then runs `remus bench object --fabric verbs -d rxe0 --json --plot` in one
# process. The JSON report goes to /mnt/job/out/objects.json, the plot to objects.png, standard error
# to objects.err, rxe0's counters after the run to rxe-counters.txt. Parameters come from
# /mnt/job/params.
set -u
. /mnt/job/params

. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy "$ADDR" || exit $?
OUT=/mnt/job/out
mkdir -p "$OUT" /tmp/work
cd /tmp/work
status=0
# shellcheck disable=SC2086
timeout 1200 "$JAVA" --enable-native-access=ALL-UNNAMED -cp "$CLASSPATH" io.remus.tools.Remus bench object \
  --fabric verbs -d rxe0 --json --plot="$OUT/objects.png" $ARGS > "$OUT/objects.json" 2> "$OUT/objects.err" || status=$?
for f in /sys/class/infiniband/rxe0/ports/1/hw_counters/*; do
  echo "$(basename "$f") $(cat "$f")"
done > "$OUT/rxe-counters.txt" 2>/dev/null
echo "guest: done (status $status)"
exit "$status"
