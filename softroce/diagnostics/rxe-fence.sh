#!/bin/sh
# Guest script for softroce/vm.sh: creates rxe0, builds rxe-fence.c and runs it, two processes at a
# time, with and without IBV_SEND_FENCE. Output goes to /mnt/job/rxe-fence.txt.
set -u
. "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"
rxe0_up dummy 198.18.0.1 || exit $?
out=/mnt/job/rxe-fence.txt
uname -r > "$out"
gcc -O2 -o /tmp/rxe-fence "$SOFTROCE_ROOT/softroce/diagnostics/rxe-fence.c" -libverbs || exit 14
run() { timeout 400 /tmp/rxe-fence "$@" >> "$out" 2>&1; echo "exit $? for: $*" >> "$out"; }
run 1 20000 1 0 1 & run 1 20000 1 0 1 & wait
run 0 20000 1 0 1 & run 0 20000 1 0 1 & wait
run 1 300 32 0 0 & run 0 300 32 0 0 & wait
exit 0
