#!/usr/bin/env bash
# vm/arm64/run-package-test.sh [DEB] - the arm64 package's binary on an emulated arm64 machine:
# Debian 12's arm64 kernel under qemu-system-aarch64 (virt, TCG) with gpio-sim chips laid out as a
# Raspberry Pi 5's kernel before 6.6.47 numbers them, the package installed with apt in an arm64
# Debian 12 root. Runs vm/arm64/package-test.sh there (its header lists the checks).
#
#   bash vm/arm64/run-package-test.sh       # as root; DEB defaults to dist/gpio-debounce_<version>_arm64.deb
#
# Prepares everything on first use (vm/arm64/prepare.sh: ~4 min and ~300 MB of downloads, cached in
# /var/cache/gpio-debounce-vm-arm64); a new package costs one apt install under qemu-user. Every
# vm/run.sh variable applies (VM_TIMEOUT defaults to 900 here, VM_DEBUG=1 shows the guest's console).
# Prints the guest's `N passed, M failed` last and exits 1 if a check failed, 125 (after a
# `0 passed, 1 failed` line) if the VM did not get as far as running the checks.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
top=$(cd "$here/../.." && pwd -P)
started=$SECONDS
case ${1:-} in -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
if [[ -n ${1:-} ]]; then
    deb=$(realpath -e -- "$1")
else
    deb=$top/dist/gpio-debounce_$(cd "$top" && dpkg-parsechangelog -SVersion)_arm64.deb
fi
[[ -f $deb ]] || { echo "run-package-test: no $deb: build it with scripts/package arm64, or name a .deb" >&2; exit 2; }
echo "run-package-test: $(basename "$deb") ($(stat -c %s "$deb") bytes, sha256 $(sha256sum "$deb" | cut -c1-16))"

bash "$here/prepare.sh" -q --deb "$deb"
echo "run-package-test: prepared in $((SECONDS - started)) s; booting the arm64 VM"
status=0
VM_ARCH=arm64 VM_TIMEOUT=${VM_TIMEOUT:-900} VM_WORKDIR=$top bash "$here/../run.sh" "$here/package-test.sh" || status=$?
echo "run-package-test: $((SECONDS - started)) s in all, exit $status"
if ((status > 1)); then
    echo "0 passed, 1 failed" # the VM itself failed (run.sh said why above)
fi
exit "$status"
