#!/usr/bin/env bash
# vm/run.sh SCRIPT [ARGS...] - run SCRIPT as root inside a qemu VM (TCG) that
# boots Debian's 6.1 kernel with gpio-sim loaded, and exit with its status.
#
# Inside the VM the script runs chrooted into the host's / (9p, read-only),
# so host-built binaries and the host's libgpiod/gpiod tools work unchanged.
# The work dir (see VM_WORKDIR) is shared read-write at the same path as on
# the host. /tmp, /var/tmp, /run, /dev/shm are fresh tmpfs. Everything else
# is writable too, through an overlay whose upper layer is a tmpfs: such
# writes never reach the host and vanish at power-off (VM_ROOT_OVERLAY=0:
# plain read-only root instead).
# /proc, /sys, /sys/kernel/config (configfs) and /dev (devtmpfs) are mounted.
# SCRIPT is run directly if executable, else with bash; the working directory
# is the caller's (if visible in the VM, else /). The script's stdout and
# stderr arrive on this command's stdout and stderr (two serial ports).
#
# Environment:
#   VM_CPUS=1        vCPUs (1 is deterministic for fast edge sequences)
#   VM_MEM=512M      guest memory
#   VM_TIMEOUT=300   seconds before qemu is killed; run.sh then exits 124
#   VM_WORKDIR=DIR   host dir shared read-write (default: the git work tree
#                    that contains this script, else its parent directory)
#   VM_PASSENV="A B" extra variable names passed into the VM (PATH, LANG,
#                    TERM are always passed; HOME is /root)
#   VM_DEBUG=1       show the kernel console on stderr (not quiet)
#   VM_ROOT_CACHE=loose  9p cache mode of the read-only host / in the guest;
#                    "none" if host files change while the VM runs (slower).
#                    The work dir is always uncached (coherent both ways).
#   VM_ROOT_OVERLAY=1  tmpfs overlay over the read-only host / (see above)
#   VM_QEMU_CPU=max  qemu -cpu model;  VM_APPEND="..." extra kernel cmdline
#   GPIO_DEBOUNCE_VM_CACHE  cache dir (default /var/cache/gpio-debounce-vm)
#   VM_ARCH=arm64    boot Debian's arm64 kernel on qemu-system-aarch64 (machine
#                    virt, -cpu VM_QEMU_CPU, default cortex-a76) instead, with
#                    vm/arm64/prepare.sh's arm64 Debian 12 root in place of the
#                    host's / (vm/arm64/, cache GPIO_DEBOUNCE_VM_ARM64_CACHE)
# Inside, GPIO_DEBOUNCE_VM=1 and GPIOSIM_LIB=<path of vm/gpio-sim.sh> are set.
#
# Exit status: SCRIPT's status; 124 on timeout; 125 if the VM failed
# (no status came back: boot/mount failure, kernel panic, ...).
set -euo pipefail

export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
CACHE=${GPIO_DEBOUNCE_VM_CACHE:-/var/cache/gpio-debounce-vm}
VM_CPUS=${VM_CPUS:-1}
VM_MEM=${VM_MEM:-512M}
VM_TIMEOUT=${VM_TIMEOUT:-300}

die() { echo "run.sh: ERROR: $*" >&2; exit 125; }

if (($# < 1)); then
    echo "usage: $0 SCRIPT [ARGS...]" >&2
    exit 2
fi
[[ $(id -u) == 0 ]] || die "must run as root"
script=$(realpath -e -- "$1") || die "no such script: $1"
shift
[[ -f $script ]] || die "not a file: $script"
[[ $VM_TIMEOUT =~ ^[0-9]+$ && $VM_CPUS =~ ^[0-9]+$ ]] || die "VM_TIMEOUT and VM_CPUS must be integers"

if [[ -n ${VM_WORKDIR:-} ]]; then
    workdir=$(realpath -e -- "$VM_WORKDIR") || die "VM_WORKDIR does not exist: $VM_WORKDIR"
else
    workdir=$(git -C "$HERE" rev-parse --show-toplevel 2>/dev/null || dirname "$HERE")
    workdir=$(realpath -e -- "$workdir")
fi
[[ -d $workdir && $workdir != / ]] || die "work dir must be a directory other than /: $workdir"

# The guest hides these host dirs behind fresh tmpfs mounts.
hidden_in_vm() {
    local p=$1 d
    [[ $p == "$workdir" || $p == "$workdir"/* ]] && return 1
    [[ ${VM_ARCH:-x86_64} == arm64 ]] && return 0 # the guest's root is not the host's
    for d in /tmp /var/tmp /run /dev /proc /sys; do
        [[ $p == "$d" || $p == "$d"/* ]] && return 0
    done
    return 1
}
hidden_in_vm "$script" &&
    die "$script is not visible in the VM (/tmp, /var/tmp, /run are tmpfs there); put it in $workdir or set VM_WORKDIR"

# What differs between the guests: the prepare script, the kernel file, the
# root shared as "hostroot", the machine, and where the serial ports are.
# no_timer_check: on a loaded host the emulated timer may fail the kernel's boot-time IO-APIC check
# ("IO-APIC + timer doesn't work!", a panic).
# shellcheck disable=SC2054  # commas belong to qemu options
case ${VM_ARCH:-x86_64} in
x86_64)
    prepare=$HERE/prepare.sh kernel=vmlinux guest_root=/ console=ttyS0
    qemu=(qemu-system-x86_64 -machine pc,accel=tcg -cpu "${VM_QEMU_CPU:-max}")
    serials=(-serial chardev:con -serial chardev:out -serial chardev:err)
    ;;
arm64)
    CACHE=${GPIO_DEBOUNCE_VM_ARM64_CACHE:-/var/cache/gpio-debounce-vm-arm64}
    prepare=$HERE/arm64/prepare.sh kernel=Image guest_root=$CACHE/root console=ttyAMA0
    qemu=(qemu-system-aarch64 -machine virt,accel=tcg -cpu "${VM_QEMU_CPU:-cortex-a76}")
    # virt has one UART (the console); PCI 16550s become ttyS0..2 as on a pc.
    serials=(-serial chardev:con -chardev null,id=nul -device pci-serial,chardev=nul
        -device pci-serial,chardev=out -device pci-serial,chardev=err)
    ;;
*) die "VM_ARCH must be x86_64 or arm64 (got '$VM_ARCH')" ;;
esac

# Prepare (fast no-op when the cache is complete); its chatter goes to stderr.
bash "$prepare" -q || die "$prepare failed"
KD=$(realpath -e "$CACHE/kernel") || die "$CACHE/kernel missing after $prepare"
for f in "$kernel" initramfs.cpio; do
    [[ -s $KD/$f ]] || die "$KD/$f missing after prepare.sh"
done

# Per-run exchange dir: io/ is shared with the guest (tag vmio); the fifos
# and the console log stay outside it.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gpio-debounce-vm.XXXXXX")
qemu_pid=""
# shellcheck disable=SC2317  # called from the EXIT trap
cleanup() {
    if [[ -n $qemu_pid ]]; then kill "$qemu_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
io=$tmp/io
mkdir -p "$io"
printf '%s\n' "$workdir" >"$io/workdir"

# inner.sh runs (bash, chrooted into the host fs) as the guest's payload.
cwd=$(pwd -P)
{
    echo '# generated by vm/run.sh'
    printf 'cd %q 2>/dev/null || cd /\n' "$cwd"
    printf 'script=%q\n' "$script"
    printf 'set --'
    (($#)) && printf ' %q' "$@"
    echo
    env_args=(GPIO_DEBOUNCE_VM=1 "GPIOSIM_LIB=$HERE/gpio-sim.sh" HOME=/root USER=root LOGNAME=root
        "PATH=$PATH" "LANG=${LANG:-C.UTF-8}" "TERM=${TERM:-dumb}")
    for v in ${VM_PASSENV:-}; do
        [[ -n ${!v+x} ]] && env_args+=("$v=${!v}")
    done
    printf 'env_args=('
    printf '%q ' "${env_args[@]}"
    echo ')'
    cat <<'EOF'
if [[ -x $script ]]; then
    exec env -i "${env_args[@]}" "$script" "$@"
else
    exec env -i "${env_args[@]}" /bin/bash "$script" "$@"
fi
EOF
} >"$io/inner.sh"

mkfifo "$tmp/out" "$tmp/err" "$tmp/con"
cat "$tmp/out" &
out_pid=$!
cat "$tmp/err" >&2 &
err_pid=$!
if [[ -n ${VM_DEBUG:-} ]]; then
    tee "$tmp/console.log" <"$tmp/con" >&2 &
else
    cat "$tmp/con" >"$tmp/console.log" &
fi
con_pid=$!

quiet="quiet loglevel=3"
[[ -n ${VM_DEBUG:-} ]] && quiet=""
# no_timer_check: on a loaded host the emulated timer may fail the kernel's boot-time IO-APIC check
# ("IO-APIC + timer doesn't work!", a panic).
# shellcheck disable=SC2054  # commas belong to qemu options
qemu_args=(
    -nodefaults -no-user-config -display none -monitor none
    -smp "$VM_CPUS" -m "$VM_MEM"
    -kernel "$KD/$kernel" -initrd "$KD/initramfs.cpio"
    -append "console=$console $quiet panic=-1 mitigations=off no_timer_check gdvm_root_cache=${VM_ROOT_CACHE:-loose} gdvm_root_overlay=${VM_ROOT_OVERLAY:-1} ${VM_APPEND:-}"
    -no-reboot
    -chardev "file,id=con,path=$tmp/con"
    -chardev "file,id=out,path=$tmp/out"
    -chardev "file,id=err,path=$tmp/err"
    "${serials[@]}"
    -fsdev "local,id=hostroot,path=$guest_root,security_model=none,readonly=on,multidevs=remap"
    -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
    -fsdev "local,id=work,path=$workdir,security_model=none,multidevs=remap"
    -device virtio-9p-pci,fsdev=work,mount_tag=work
    -fsdev "local,id=vmio,path=$io,security_model=none"
    -device virtio-9p-pci,fsdev=vmio,mount_tag=vmio
)

start=$SECONDS
set +e
timeout --kill-after=5 "$VM_TIMEOUT" "${qemu[@]}" "${qemu_args[@]}" </dev/null &
qemu_pid=$!
wait "$qemu_pid"
qemu_rc=$?
qemu_pid=""
set -e

# If qemu never opened a fifo, its reader is still blocked in open():
# an O_RDWR open never blocks and releases it with EOF.
for f in out err con; do
    exec 3<>"$tmp/$f"
    exec 3>&-
done
wait "$out_pid" "$err_pid" "$con_pid" || true

show_console() {
    echo "run.sh: last kernel console lines:" >&2
    if [[ -s $tmp/console.log ]]; then
        tail -n 40 "$tmp/console.log" | sed 's/^/  | /' >&2
    else
        echo "  (none: the kernel is quiet; VM_DEBUG=1 shows the boot log, and if that is" >&2
        echo "   empty too the kernel never started, e.g. VM_MEM too small)" >&2
    fi
}
if ((qemu_rc == 124 || qemu_rc == 137)); then
    echo "run.sh: ERROR: VM timed out after ${VM_TIMEOUT}s (VM_TIMEOUT); qemu killed" >&2
    show_console
    exit 124
fi
if [[ ! -s $io/status ]]; then
    echo "run.sh: ERROR: VM ended without a script status (qemu exit $qemu_rc after $((SECONDS - start))s)" >&2
    show_console
    exit 125
fi
status=$(<"$io/status")
[[ -n ${VM_DEBUG:-} ]] && echo "run.sh: VM cycle $((SECONDS - start))s, script status $status" >&2
exit "$status"
