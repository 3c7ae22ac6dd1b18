#!/usr/bin/env bash
# vm/arm64/prepare.sh - prepare the arm64 guest that vm/run.sh boots with VM_ARCH=arm64:
# Debian 12's arm64 kernel on qemu-system-aarch64 (machine virt, TCG) with gpio-sim, and an arm64
# Debian 12 root file system that the guest runs its script in.
#
#   bash vm/arm64/prepare.sh                 # idempotent; a warm run takes well under 1 s
#   bash vm/arm64/prepare.sh --deb FILE.deb  # also: the root holds that package (apt install)
#   VM_REFRESH=1 bash vm/arm64/prepare.sh    # re-read the index, move to the newest kernel
#   bash vm/arm64/prepare.sh -q              # (run.sh) no summary, only report real work
#
# Steps (each one skipped when its result is already in the cache):
#   1. apt-get install qemu-system-arm qemu-user-static gcc-aarch64-linux-gnu debootstrap ... on
#      the host (amd64),
#   2. a private apt configuration (arm64 and amd64 indexes of bookworm, -updates and -security;
#      the system's apt sources and state are not touched) picks the kernel that Debian's
#      linux-image-arm64 points at and downloads, without installing anything: linux-image-<kver>,
#      linux-headers-<kver> and -common (arm64), linux-kbuild-6.1 (amd64: kbuild's host tools, so
#      that no arm64 tool has to run), linux-source-6.1 and busybox-static (arm64),
#   3. builds gpio-sim.ko for arm64 out of tree with aarch64-linux-gnu-gcc, as vm/prepare.sh does
#      for amd64 (Debian's arm64 kernels, 6.1 and trixie's 6.12 alike, lack CONFIG_GPIO_SIM):
#      gpio-sim.c + kernel/irq/irq_sim.c, irq_to_desc() patched out,
#   4. the kernel's Image (qemu boots it as it is) and the modules in modprobe --show-depends
#      order, and an initramfs of the arm64 busybox with vm/initramfs-init.sh as /init (the same
#      /init as the amd64 guest),
#   5. the root: debootstrap --variant=minbase bookworm arm64 with strace, gpiod and the package's
#      dependencies, kept as a tarball, unpacked to $CACHE/root (second stage under qemu-user),
#   6. with --deb: a fresh copy of that root with `apt-get install ./FILE.deb` done in it
#      (chroot, qemu-user); skipped when the root already holds the same file (sha256).
# The guest mounts $CACHE/root over 9p read-only with a tmpfs above it (vm/initramfs-init.sh), so
# nothing has to be packed into an image and a new package costs one apt install.
#
# Cache: ${GPIO_DEBOUNCE_VM_ARM64_CACHE:-/var/cache/gpio-debounce-vm-arm64} (~760 MB).
# Progress goes to stderr; the final "where things are" summary to stdout.
set -euo pipefail

export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
export DEBIAN_FRONTEND=noninteractive

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
VM=$(dirname "$HERE")
CACHE=${GPIO_DEBOUNCE_VM_ARM64_CACHE:-/var/cache/gpio-debounce-vm-arm64}
MIRROR=${GPIO_DEBOUNCE_DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${GPIO_DEBOUNCE_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
# Bump when the module or root recipe changes, to force a rebuild.
MODULE_RECIPE=1
ROOT_RECIPE=1
ROOT_PKGS=strace,gpiod,libmosquitto1,libstdc++6,systemd-standalone-sysusers

QUIET=0 DEB=""
while (($#)); do
    case $1 in
    -q) QUIET=1 ;;
    --deb) DEB=$(realpath -e -- "${2:?--deb needs a file}") || exit 1; shift ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
    *) echo "usage: $0 [-q] [--deb FILE.deb]" >&2; exit 2 ;;
    esac
    shift
done
log() { echo "prepare-arm64: $*" >&2; }
info() { ((QUIET)) || log "$@"; }
die() { echo "prepare-arm64: ERROR: $*" >&2; exit 1; }

[[ $(id -u) == 0 ]] || die "must run as root (apt-get, debootstrap, chroot)"
[[ $(uname -m) == x86_64 ]] || die "only x86_64 hosts are supported"
if [[ -n $DEB ]]; then
    [[ $(dpkg-deb -f "$DEB" Architecture 2>/dev/null) == arm64 ]] || die "$DEB is not an arm64 package"
fi

mkdir -p "$CACHE/debs"
exec 9>"$CACHE/.lock"
flock 9

# --- 1. host tools ----------------------------------------------------------------------------
HOST_PKGS=(qemu-system-arm qemu-user-static gcc-aarch64-linux-gnu debootstrap debian-archive-keyring
    make kmod cpio util-linux)
need=()
for p in "${HOST_PKGS[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if ((${#need[@]})); then
    log "apt-get install ${need[*]}"
    apt-get install -y -qq -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=600 --no-install-recommends "${need[@]}" >&2 ||
        { apt-get update -qq >&2 && apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "${need[@]}" >&2; }
fi

# --- 2. private apt: arm64 (and amd64 for linux-kbuild) indexes of Debian 12 -------------------
A=$CACHE/apt
mkdir -p "$A/empty" "$A/state/lists/partial" "$A/cache/archives/partial"
: >"$A/status" # nothing installed: apt only resolves and downloads
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$A/sources.list" <<EOF
deb [arch=arm64,amd64 signed-by=$keyring] $MIRROR bookworm main
deb [arch=arm64,amd64 signed-by=$keyring] $MIRROR bookworm-updates main
deb [arch=arm64,amd64 signed-by=$keyring] $SECURITY_MIRROR bookworm-security main
EOF
cat >"$A/apt.conf" <<EOF
Dir::Etc::SourceList "$A/sources.list";
Dir::Etc::SourceParts "$A/empty";
Dir::Etc::Preferences "$A/empty/none";
Dir::Etc::PreferencesParts "$A/empty";
Dir::Etc::Trusted "$A/empty/none";
Dir::Etc::TrustedParts "$A/empty";
Dir::State "$A/state";
Dir::State::Lists "$A/state/lists";
Dir::State::status "$A/status";
Dir::Cache "$A/cache";
Dir::Log "$A/log";
APT::Architecture "arm64";
#clear APT::Architectures;
APT::Architectures { "arm64"; "amd64"; };
APT::Sandbox::User "root";
Acquire::Languages "none";
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
EOF
papt_updated=0
papt_update() {
    ((papt_updated)) && return 0
    log "reading the bookworm arm64 index (private apt state in $A)"
    apt-get -c "$A/apt.conf" -qq update >&2 || die "apt-get update of the private arm64 index failed"
    papt_updated=1
}
if [[ -n ${VM_REFRESH:-} ]] || ! compgen -G "$A/state/lists/*_dists_bookworm_main_binary-arm64_Packages*" >/dev/null; then
    papt_update
fi
# fetch PKG VERSION -> prints the .deb's path in $CACHE/debs (downloaded once, checked by apt)
fetch() {
    local f
    f=$(compgen -G "$CACHE/debs/${1%:*}_${2//:/%3a}_*.deb" | head -n1 || true)
    if [[ -z $f ]]; then
        log "downloading $1=$2"
        (cd "$CACHE/debs" && apt-get -c "$A/apt.conf" -qq download "$1=$2" >&2) ||
            { papt_update && (cd "$CACHE/debs" && apt-get -c "$A/apt.conf" -qq download "$1=$2" >&2); } ||
            die "download of $1=$2 failed"
        f=$(compgen -G "$CACHE/debs/${1%:*}_${2//:/%3a}_*.deb" | head -n1)
    fi
    echo "$f"
}
candidate() { apt-cache -c "$A/apt.conf" policy "$1" | sed -n 's/^ *Candidate: *//p' | grep -vx '(none)' | head -n1; }

KVER=""
if [[ -z ${VM_REFRESH:-} && -s $CACHE/current ]]; then
    KVER=$(<"$CACHE/current")
    [[ -s $CACHE/$KVER/pkgversion ]] || KVER=""
fi
if [[ -z $KVER ]]; then
    # "Depends: linux-image-6.1.0-56-arm64 (= 6.1.192-2)"
    dep=$(apt-cache -c "$A/apt.conf" show "linux-image-arm64=$(candidate linux-image-arm64)" | sed -n 's/^Depends: //p' | head -n1)
    [[ $dep =~ ^linux-image-([^ ]+-arm64)\ \(=\ ([^\)]+)\) ]] || die "cannot parse linux-image-arm64 Depends: '$dep'"
    KVER=${BASH_REMATCH[1]}
    [[ $KVER == 6.1.* ]] || die "kernel $KVER is not a 6.1 kernel (linux-source-6.1, linux-kbuild-6.1)"
    mkdir -p "$CACHE/$KVER"
    echo "${BASH_REMATCH[2]}" >"$CACHE/$KVER/pkgversion"
    echo "$KVER" >"$CACHE/current"
fi
PKGVER=$(<"$CACHE/$KVER/pkgversion")
KD=$CACHE/$KVER
info "kernel $KVER (Debian package version $PKGVER), cache $KD"

# --- 3. gpio-sim.ko, cross-compiled -----------------------------------------------------------
module_stamp="$KVER $PKGVER recipe=$MODULE_RECIPE"
if [[ ! -s $KD/gpio-sim.ko || $(cat "$KD/gpio-sim.ko.stamp" 2>/dev/null) != "$module_stamp" ]]; then
    kb=$KD/kbuild # arm64 headers + amd64 kbuild tools, unpacked (not installed)
    rm -rf "$kb"
    mkdir -p "$kb"
    for p in "linux-headers-$KVER" "linux-headers-${KVER%-arm64}-common" linux-kbuild-6.1:amd64; do
        dpkg-deb -x "$(fetch "$p" "$PKGVER")" "$kb"
    done
    KDIR=$kb/usr/src/linux-headers-$KVER
    # Its Makefile includes the common headers by their installed path; point it at our copy.
    echo "include $kb/usr/src/linux-headers-${KVER%-arm64}-common/Makefile" >"$KDIR/Makefile"

    srcdeb=$(fetch linux-source-6.1 "$PKGVER")
    src=$KD/src
    if [[ ! -f $src/.complete ]]; then
        log "extracting gpio-sim.c, gpiolib.h, irq_sim.c from $(basename "$srcdeb") (takes ~20 s)"
        rm -rf "$src"
        mkdir -p "$src"
        dpkg-deb --fsys-tarfile "$srcdeb" | tar -xO ./usr/src/linux-source-6.1.tar.xz |
            tar -xJ -C "$src" --strip-components=1 linux-source-6.1/drivers/gpio/gpio-sim.c \
                linux-source-6.1/drivers/gpio/gpiolib.h linux-source-6.1/kernel/irq/irq_sim.c
        touch "$src/.complete"
    fi
    b=$KD/build
    rm -rf "$b"
    mkdir -p "$b"
    cp "$src/drivers/gpio/gpio-sim.c" "$b/gpio-sim-main.c"
    cp "$src/drivers/gpio/gpiolib.h" "$src/kernel/irq/irq_sim.c" "$b/"
    # irq_to_desc() is not exported to modules; generic_handle_irq() is.
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$b/irq_sim.c"
    ! grep -q irq_to_desc "$b/irq_sim.c" || die "irq_sim.c patch did not apply (irq_to_desc still used)"
    printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >"$b/Kbuild"
    log "cross-compiling gpio-sim.ko for $KVER"
    nice -n 10 make -s -C "$KDIR" M="$b" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- -j2 modules 2>&1 |
        grep -v 'Skipping BTF generation' >&2 || true
    [[ -s $b/gpio-sim.ko ]] || die "the module build made no gpio-sim.ko"
    cp "$b/gpio-sim.ko" "$KD/gpio-sim.ko"
    echo "$module_stamp" >"$KD/gpio-sim.ko.stamp"
    rm -rf "$kb" "$b"
    rm -f "$KD/Image" "$KD/modules/load-order" # force the step below
fi

# --- 4. Image, modules, initramfs -------------------------------------------------------------
WANT_MODULES=(virtio_pci 9pnet_virtio 9p overlay configfs gpio-sim)
if [[ ! -s $KD/Image || ! -s $KD/modules/load-order ]]; then
    r=$KD/image-root
    rm -rf "$r"
    mkdir -p "$r"
    dpkg-deb -x "$(fetch "linux-image-$KVER" "$PKGVER")" "$r"
    cp "$KD/gpio-sim.ko" "$r/lib/modules/$KVER/kernel/"
    depmod -b "$r" "$KVER"
    rm -rf "$KD/modules"
    mkdir -p "$KD/modules"
    for m in "${WANT_MODULES[@]}"; do modprobe -d "$r" -S "$KVER" --show-depends "$m"; done |
        awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
        [[ $ko == *.ko ]] || die "compressed module $ko: not handled"
        cp "$ko" "$KD/modules/"
        basename "$ko"
    done >"$KD/modules/load-order.tmp"
    grep -qx gpio-sim.ko "$KD/modules/load-order.tmp" || die "gpio-sim.ko missing from the load order"
    mv "$KD/modules/load-order.tmp" "$KD/modules/load-order"
    # Debian's arm64 vmlinuz is the uncompressed Image: qemu -kernel boots it as it is.
    cp "$r/boot/vmlinuz-$KVER" "$KD/Image.tmp"
    mv "$KD/Image.tmp" "$KD/Image"
    rm -rf "$r"
fi
bbdeb=$(fetch busybox-static "$(candidate busybox-static)")
initrd_stamp=$(cat "$VM/initramfs-init.sh" "$KD/modules/load-order" "$KD/gpio-sim.ko" "$bbdeb" | sha256sum | cut -d' ' -f1)
if [[ ! -s $KD/initramfs.cpio || $(cat "$KD/initramfs.cpio.stamp" 2>/dev/null) != "$initrd_stamp" ]]; then
    log "building initramfs"
    st=$KD/initramfs.d
    rm -rf "$st"
    mkdir -p "$st"/{bin,dev,proc,sys,newroot,modules}
    dpkg-deb --fsys-tarfile "$bbdeb" | tar -xO ./bin/busybox >"$st/bin/busybox"
    chmod 0755 "$st/bin/busybox"
    for applet in $(qemu-aarch64-static "$st/bin/busybox" --list); do
        [[ $applet == busybox ]] || ln -s busybox "$st/bin/$applet"
    done
    install -m 0755 "$VM/initramfs-init.sh" "$st/init"
    cp "$KD/modules/"* "$st/modules/"
    (cd "$st" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc -R 0:0 --quiet) >"$KD/initramfs.cpio.tmp"
    mv "$KD/initramfs.cpio.tmp" "$KD/initramfs.cpio"
    echo "$initrd_stamp" >"$KD/initramfs.cpio.stamp"
    rm -rf "$st"
fi
[[ $(readlink "$CACHE/kernel" 2>/dev/null) == "$KVER" ]] || ln -sfn "$KVER" "$CACHE/kernel"

# --- 5./6. the arm64 root ---------------------------------------------------------------------
binfmt_ready() {
    # shellcheck source=packaging/qemu-binfmt.sh
    source "$VM/../packaging/qemu-binfmt.sh"
    ensure_qemu_aarch64 || die "arm64 programs cannot run here (above)"
}
base=$CACHE/root-base.tar
base_stamp="bookworm minbase $ROOT_PKGS recipe=$ROOT_RECIPE"
if [[ ! -s $base || $(cat "$base.stamp" 2>/dev/null) != "$base_stamp" ]]; then
    binfmt_ready
    t=$CACHE/root-base.new
    rm -rf "$t"
    log "debootstrap bookworm arm64 (minbase, $ROOT_PKGS): ~3 min under qemu-user"
    nice -n 10 debootstrap --arch=arm64 --variant=minbase --include="$ROOT_PKGS" bookworm "$t" "$MIRROR" \
        >"$CACHE/debootstrap.log" 2>&1 || { tail -n 20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed"; }
    rm -rf "$t/var/cache/apt/archives/"*.deb
    tar -C "$t" -cf "$base.tmp" .
    mv "$base.tmp" "$base"
    echo "$base_stamp" >"$base.stamp"
    rm -rf "$t" "$CACHE/root.stamp"
fi
base_id="base=$(sha256sum "$base.stamp" | cut -c1-16)"
root_stamp="$base_id deb=${DEB:+$(sha256sum "$DEB" | cut -d' ' -f1)}"
have=$(cat "$CACHE/root.stamp" 2>/dev/null || true)
# With --deb the root must hold exactly that file; without, any root made from this base will do.
root_ok=0
if [[ -n $DEB && $have == "$root_stamp" ]] || [[ -z $DEB && $have == "$base_id "* ]]; then root_ok=1; fi
if [[ ! -d $CACHE/root ]] || ((!root_ok)); then
    rm -f "$CACHE/root.stamp"
    rm -rf --one-file-system "$CACHE/root"
    mkdir -p "$CACHE/root"
    tar -C "$CACHE/root" -xf "$base"
    if [[ -n $DEB ]]; then
        binfmt_ready
        log "apt-get install ./$(basename "$DEB") in the arm64 root (qemu-user)"
        cp "$DEB" "$CACHE/root/tmp/"
        if ! nice -n 10 chroot "$CACHE/root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
            LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -q --no-install-recommends "/tmp/$(basename "$DEB")" >"$CACHE/install.log" 2>&1; then
            tail -n 20 "$CACHE/install.log" >&2
            die "apt-get install of $(basename "$DEB") in the arm64 root failed (log: $CACHE/install.log)"
        fi
        rm -f "$CACHE/root/tmp/$(basename "$DEB")"
    fi
    echo "$root_stamp" >"$CACHE/root.stamp"
fi

((QUIET)) && exit 0
cat <<EOF
gpio-debounce arm64 VM ready:
  kernel     $KVER (Debian $PKGVER)
  Image      $CACHE/kernel/Image
  initramfs  $CACHE/kernel/initramfs.cpio  (modules: $(paste -sd' ' "$KD/modules/load-order"))
  root       $CACHE/root  (${DEB:+package $(basename "$DEB"), }stamp $(<"$CACHE/root.stamp"))
  qemu       $(command -v qemu-system-aarch64)
EOF
