# packaging/qemu-binfmt.sh - sourced by packaging/cross-arm64 and scripts/test-package.
# ensure_qemu_aarch64: arm64 programs run here through qemu-user-static, registered with binfmt_misc.
# qemu-user-static ships the registration in two forms; either is used, whichever this machine can:
# binfmt-support's update-binfmts (/usr/share/binfmts/qemu-aarch64), or, where that is not installed
# and no systemd-binfmt ran (a container, a machine booted without it), the line of systemd's
# /usr/lib/binfmt.d/qemu-aarch64.conf written to the kernel's register file as systemd-binfmt does.
# Returns 1 with a message on stderr when arm64 programs still cannot run.
ensure_qemu_aarch64() {
    local binfmt=/proc/sys/fs/binfmt_misc
    command -v qemu-aarch64-static >/dev/null || { echo "qemu-user-static is not installed" >&2; return 1; }
    if [ ! -e "$binfmt/status" ] && ! mount -t binfmt_misc binfmt_misc "$binfmt"; then
        echo "cannot mount binfmt_misc: arm64 programs cannot run here" >&2
        return 1
    fi
    [ -e "$binfmt/qemu-aarch64" ] && return 0
    if command -v update-binfmts >/dev/null; then
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
    if [ ! -e "$binfmt/qemu-aarch64" ] && [ -r /usr/lib/binfmt.d/qemu-aarch64.conf ]; then
        grep -m1 '^:qemu-aarch64:' /usr/lib/binfmt.d/qemu-aarch64.conf >"$binfmt/register" 2>/dev/null || true
    fi
    [ -e "$binfmt/qemu-aarch64" ] && return 0
    echo "qemu-aarch64 is not registered with binfmt_misc, and registering it failed (install binfmt-support and run update-binfmts --enable qemu-aarch64)" >&2
    return 1
}
