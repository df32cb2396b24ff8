#!/usr/bin/env bash
# Boots one QEMU guest running Debian's generic kernel, which has Soft-RoCE (rdma_rxe), and
# runs GUEST_SCRIPT in it as root. The host's / is visible read-only at the same paths (9p +
# a tmpfs overlay), so the JDK, rdma-core, perftest, ~/.m2 and the built classes are there.
# JOB_DIR is mounted read-write at /mnt/job: results come back through it. Writes elsewhere
# (/tmp included, which is not hidden so that a checkout under /tmp is visible) go to a tmpfs.
#
#   softroce/vm.sh GUEST_SCRIPT JOB_DIR
#   SOFTROCE_PREPARE_ONLY=1 softroce/vm.sh      fetch the kernel, build the initramfs, exit
#
# Exit status: the guest script's own (the guest writes it to JOB_DIR/guest-exit and prints
# GUEST_EXIT=N on the console); 124 if the guest ran past SOFTROCE_TIMEOUT; 125 if the guest
# reported no status (boot failure, crash). The console goes to stdout.
#
# Environment: SOFTROCE_WORK (kernel/initramfs cache, shared and locked; default
# ~/.cache/softroce-vm), SOFTROCE_MEM (default 4G, even number of G), SOFTROCE_TIMEOUT
# (seconds, default 1200), SOFTROCE_NET (QEMU network options; default -nic none),
# SOFTROCE_TCG_THREAD (single or multi; default single, see below), SOFTROCE_KERNEL_ARGS (appended
# to the guest kernel's command line, e.g. "clocksource=tsc tsc=reliable"), SOFTROCE_MONITOR_SOCKET
# (a path: QEMU's monitor listens there, e.g. for `info jit`; see softroce/diagnostics/tcg-stats).
# For a machine other than this project's (softroce/portable): SOFTROCE_SMP (vCPUs, even, split
# between the two NUMA nodes; default 2), SOFTROCE_HOSTROOT (the directory the guest sees as its /;
# default /), SOFTROCE_QEMU (the QEMU command; default qemu-system-x86_64), SOFTROCE_ACCEL (tcg or
# kvm; default tcg) and SOFTROCE_CPU (QEMU's -cpu; default max under TCG, host under KVM).
#
# TCG runs single-threaded by default: under multi-threaded TCG (QEMU 7.2), guest JVMs
# crashed with SIGSEGV at the verified entry point of C1-compiled methods, the 5-byte jump
# HotSpot patches in while another vCPU may be running that code (cross-modifying code).
# Seen twice in about ten device-suite runs (hs_err: SEGV_MAPERR on that jmp). Single-threaded
# TCG still emulates 2 vCPUs (NUMA nodes keep one each) but runs them on one host thread.
set -euo pipefail
WORK=${SOFTROCE_WORK:-$HOME/.cache/softroce-vm}
MEM=${SOFTROCE_MEM:-4G}
TIMEOUT=${SOFTROCE_TIMEOUT:-1200}
MODS="crc32_generic virtio_pci 9pnet_virtio 9p overlay virtio_net rdma_rxe ib_uverbs rdma_ucm dummy veth"

die() { echo "vm.sh: $*" >&2; exit 125; }

if [ -z "${SOFTROCE_PREPARE_ONLY:-}" ]; then
  [ $# -eq 2 ] || die "usage: vm.sh GUEST_SCRIPT JOB_DIR (or SOFTROCE_PREPARE_ONLY=1 vm.sh)"
  GUEST_SCRIPT=$(readlink -f "$1"); [ -f "$GUEST_SCRIPT" ] || die "no guest script $1"
  mkdir -p "$2"; JOB_DIR=$(readlink -f "$2")
fi
[ "$(id -u)" -eq 0 ] || die "run as root (QEMU's 9p export of / and the cluster's network namespace need it)"
QEMU=${SOFTROCE_QEMU:-qemu-system-x86_64}
ACCEL=${SOFTROCE_ACCEL:-tcg}
SMP=${SOFTROCE_SMP:-2}
HOSTROOT=${SOFTROCE_HOSTROOT:-/}
need() { for tool in "$@"; do command -v "$tool" >/dev/null 2>&1 || die "$tool missing: run bin/install-deps softroce"; done; }
need "${QEMU%% *}"
case $ACCEL in tcg|kvm) ;; *) die "SOFTROCE_ACCEL must be tcg or kvm, not $ACCEL" ;; esac
[[ "$SMP" =~ ^[0-9]+$ ]] && [ "$SMP" -ge 2 ] && [ $((SMP % 2)) -eq 0 ] || die "SOFTROCE_SMP must be an even number of vCPUs, at least 2"
[ -d "$HOSTROOT" ] || die "no SOFTROCE_HOSTROOT $HOSTROOT"

mkdir -p "$WORK"
exec 9>"$WORK/.lock"
flock 9

fetch_kernel() {
  local pkg
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
  [ -n "$pkg" ] || return 1
  (cd "$WORK" && apt-get download "$pkg" >/dev/null 2>&1 && dpkg-deb -x "$pkg"_*.deb kernel.new && rm -f "$pkg"_*.deb) || return 1
  mv "$WORK/kernel.new" "$WORK/kernel"
}
if [ ! -d "$WORK/kernel/lib/modules" ]; then
  need apt-get dpkg-deb
  rm -rf "$WORK/kernel.new"
  fetch_kernel || { apt-get update -qq && fetch_kernel; } || die "cannot download Debian's linux-image-amd64 (network?)"
fi
KV=$(ls "$WORK/kernel/lib/modules" | head -1)
[ -f "$WORK/kernel/lib/modules/$KV/modules.dep" ] || { need depmod; depmod -b "$WORK/kernel" "$KV"; }

init_script() {
  cat <<INIT
#!/bin/sh
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs dev /dev
for m in $MODS; do modprobe \$m || echo "remus-init: modprobe \$m failed"; done
fail() { echo "remus-init: \$1 failed"; poweroff -f; }
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /lower || fail "mount of the host's /"
mount -t tmpfs -o size=2g tmpfs /rw || fail "tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /newroot || fail "overlay"
mkdir -p /newroot/mnt/job
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 job /newroot/mnt/job || fail "mount of the job dir"
umount /proc /sys /dev
exec switch_root /newroot /bin/sh /mnt/job/.remus-guest/wrapper
INIT
}

# The initramfs is ours (named by a hash of its init and module list); the kernel is shared.
INITRD="$WORK/remus-initrd-$(init_script | sha256sum | cut -c1-12).gz"
if [ ! -f "$INITRD" ]; then
  need busybox cpio
  K="$WORK/kernel/lib/modules/$KV"; R=$(mktemp -d "$WORK/initrd.XXXXXX")
  mkdir -p "$R"/{bin,proc,sys,dev,lower,rw,newroot,lib/modules/$KV}
  cp "$(command -v busybox)" "$R/bin/busybox"
  for a in sh mount mkdir modprobe switch_root umount poweroff; do ln -s busybox "$R/bin/$a"; done
  declare -A copied
  add_module() {
    local line file dep
    line=$(grep -E "/$1.ko(\.[a-z]+)?:" "$K/modules.dep" | head -1) || die "kernel $KV has no module $1"
    file=${line%%:*}
    [ -z "${copied[$file]:-}" ] || return 0
    copied[$file]=1
    mkdir -p "$R/lib/modules/$KV/$(dirname "$file")"
    cp "$K/$file" "$R/lib/modules/$KV/$file"
    for dep in ${line#*:}; do add_module "$(basename "${dep%%.ko*}")"; done
  }
  for m in $MODS; do add_module "$m"; done
  cp "$K"/modules.{dep,alias,builtin,order} "$R/lib/modules/$KV/"
  init_script > "$R/init"; chmod +x "$R/init"
  (cd "$R" && find . | cpio -o -H newc 2>/dev/null | gzip -1 > "$INITRD.tmp")
  mv "$INITRD.tmp" "$INITRD"; rm -rf "$R"
fi
flock -u 9
[ -z "${SOFTROCE_PREPARE_ONLY:-}" ] || exit 0

G="$JOB_DIR/.remus-guest"
mkdir -p "$G"
cp "$GUEST_SCRIPT" "$G/script"
rm -f "$JOB_DIR/guest-exit" "$G/qemu.pid"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
printf "export SOFTROCE_ROOT='%s'\n" "$ROOT" > "$G/wrapper"
cat >> "$G/wrapper" <<'WRAP'
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
ip link set lo up
sh /mnt/job/.remus-guest/script; rc=$?
echo "$rc" > /mnt/job/guest-exit; sync
echo "GUEST_EXIT=$rc"
poweroff -f
WRAP

half=$(( ${MEM%G} / 2 ))G
cpus() { if [ "$1" = "$2" ]; then echo "$1"; else echo "$1-$2"; fi; }  # a QEMU cpu range
mid=$((SMP / 2))
if [ "$ACCEL" = kvm ]; then accel=(-accel kvm -cpu "${SOFTROCE_CPU:-host}"); else accel=(-accel "tcg,thread=${SOFTROCE_TCG_THREAD:-single}" -cpu "${SOFTROCE_CPU:-max}"); fi
set +e
# KVM guests hang in early boot on these machines and on a nested Intel Xeon machine (see
# softroce/README.md, "Portable"): TCG by default. Two emulated NUMA nodes, half the vCPUs each.
# shellcheck disable=SC2086
timeout --kill-after=30 "$TIMEOUT" $QEMU "${accel[@]}" -smp "$SMP" -m "$MEM" \
  -object memory-backend-ram,size=$half,id=m0 -object memory-backend-ram,size=$half,id=m1 \
  -numa node,nodeid=0,cpus=$(cpus 0 $((mid - 1))),memdev=m0 -numa node,nodeid=1,cpus=$(cpus $mid $((SMP - 1))),memdev=m1 \
  -kernel "$WORK/kernel/boot/vmlinuz-$KV" -initrd "$INITRD" \
  -append "console=ttyS0 quiet loglevel=3 panic=-1 ${SOFTROCE_KERNEL_ARGS:-}" \
  -virtfs local,path="$HOSTROOT",mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs local,path="$JOB_DIR",mount_tag=job,security_model=none \
  ${SOFTROCE_NET:--nic none} ${SOFTROCE_MONITOR_SOCKET:+-monitor unix:$SOFTROCE_MONITOR_SOCKET,server,nowait} \
  -pidfile "$G/qemu.pid" -nographic -no-reboot < /dev/null &
qemu=$!
trap 'kill "$qemu" 2>/dev/null; wait "$qemu"; exit 130' INT TERM HUP
wait "$qemu"; qemu_rc=$?
set -e
if [ "$qemu_rc" -eq 124 ] || [ "$qemu_rc" -eq 137 ]; then
  echo "vm.sh: guest ran past SOFTROCE_TIMEOUT=${TIMEOUT}s" >&2; exit 124
fi
status=$(cat "$JOB_DIR/guest-exit" 2>/dev/null || true)
[[ "$status" =~ ^[0-9]+$ ]] || die "the guest reported no exit status (qemu exited $qemu_rc)"
exit "$status"
