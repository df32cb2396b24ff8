# Sourced by the guest scripts (softroce/vm.sh exports SOFTROCE_ROOT, the checkout, in the guest):
#   . "$SOFTROCE_ROOT/softroce/guest/rxe0.sh"; rxe0_up NETDEV ADDR || exit $?
# rxe0_up gives NETDEV (dummy: a new dummy netdev d0) the address ADDR/24, creates rxe0 on it and
# waits until its port is ACTIVE, retrying each step. Returns 10 (no netdev), 11 (the address or
# link failed), 12 (rdma link add failed) or 13 (the port never became active); 0 when rxe0 is up.

retry() { # TRIES DELAY COMMAND...: runs COMMAND until it succeeds, at most TRIES times
  tries=$1 delay=$2; shift 2
  n=1
  until "$@"; do
    [ "$n" -lt "$tries" ] || return 1
    n=$((n + 1)); sleep "$delay"
  done
}
port_active() { ibv_devinfo -d rxe0 2>/dev/null | grep -q PORT_ACTIVE; }
has_link() { ip link show "$1" >/dev/null 2>&1; }

rxe0_up() { # NETDEV ADDR
  dev=$1
  if [ "$dev" = dummy ]; then
    dev=d0
    ip link add d0 type dummy || return 10
  else
    retry 60 1 has_link "$dev" || { echo "guest: no $dev"; return 10; }
  fi
  ip addr add "$2/24" dev "$dev" && ip link set "$dev" up || { echo "guest: cannot configure $dev"; return 11; }
  retry 5 2 rdma link add rxe0 type rxe netdev "$dev" || { echo "guest: rdma link add failed"; return 12; }
  retry 60 1 port_active || { echo "guest: rxe0's port never became active"; return 13; }
  echo "guest: rxe0 on $dev ($2) is active"
}
