#!/bin/sh
# Guest script for softroce/vm.sh: creates rxe0, builds rxe-fence.c and runs it, two processes at a
# time, with and without IBV_SEND_FENCE. Output goes to /mnt/job/rxe-fence.txt.
set -u
here=$(dirname "$(readlink -f "$0")")
ip link add d0 type dummy && ip addr add 198.18.0.1/24 dev d0 && ip link set d0 up || exit 10
rdma link add rxe0 type rxe netdev d0 || exit 12
n=0; until ibv_devinfo -d rxe0 2>/dev/null | grep -q PORT_ACTIVE; do n=$((n + 1)); [ "$n" -lt 60 ] || exit 13; sleep 1; done
out=/mnt/job/rxe-fence.txt
uname -r > "$out"
gcc -O2 -o /tmp/rxe-fence "$here/rxe-fence.c" -libverbs || exit 14
run() { timeout 400 /tmp/rxe-fence "$@" >> "$out" 2>&1; echo "exit $? for: $*" >> "$out"; }
run 1 20000 1 0 1 & run 1 20000 1 0 1 & wait
run 0 20000 1 0 1 & run 0 20000 1 0 1 & wait
run 1 300 32 0 0 & run 0 300 32 0 0 & wait
exit 0
