# Sourced by the scripts that boot several Soft-RoCE guests on one private bridge (run-guest-stop):
#   bridge_up NS                 creates network namespace NS with bridge br0 and no uplink
#   bridge_boot NS I MAC SCRIPT JOB_DIR [VAR=VALUE...]
#                                adds tap I to br0 and boots guest I (softroce/vm.sh SCRIPT JOB_DIR, console in
#                                JOB_DIR/console.log) in the background with the NIC's MAC address MAC and the
#                                extra environment given; sets BRIDGE_PID to vm.sh's process id
#   bridge_down NS JOB_DIR...    kills the QEMU left of each job dir's guest and deletes NS
# Guest memory is SOFTROCE_MEM, default 2G. ROOT is the checkout.
bridge_up() {
  ip netns add "$1"
  ip netns exec "$1" ip link add br0 type bridge
  ip netns exec "$1" ip link set br0 up
}

bridge_boot() {
  local ns=$1 i=$2 mac=$3 script=$4 job=$5
  shift 5
  ip netns exec "$ns" ip tuntap add "tap$i" mode tap
  ip netns exec "$ns" ip link set "tap$i" master br0
  ip netns exec "$ns" ip link set "tap$i" up
  ip netns exec "$ns" env SOFTROCE_MEM="${SOFTROCE_MEM:-2G}" "$@" \
    SOFTROCE_NET="-netdev tap,id=n0,ifname=tap$i,script=no,downscript=no -device virtio-net-pci,netdev=n0,mac=$mac" \
    "$ROOT/softroce/vm.sh" "$script" "$job" > "$job/console.log" 2>&1 &
  BRIDGE_PID=$!
}

bridge_down() {
  local ns=$1 job pid
  shift
  for job in "$@"; do
    [ -f "$job/.remus-guest/qemu.pid" ] || continue
    pid=$(cat "$job/.remus-guest/qemu.pid")
    if [ -n "$pid" ] && grep -q qemu "/proc/$pid/comm" 2>/dev/null; then kill "$pid" 2>/dev/null || true; fi
  done
  ip netns del "$ns" 2>/dev/null || true
}
