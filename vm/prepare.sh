#!/usr/bin/env bash
# vm/prepare.sh - prepare everything vm/run.sh needs to boot a Debian 6.1
# kernel under qemu (TCG) with the gpio-sim module loaded.
#
#   bash vm/prepare.sh            # idempotent; a warm run takes well under 1 s
#   VM_REFRESH=1 bash vm/prepare.sh   # re-resolve the newest Debian kernel
#   bash vm/prepare.sh -q         # (run.sh) no summary, only report real work
#
# Steps (each one skipped when its result is already in the cache):
#   1. apt-get install qemu-system-x86 busybox-static gpiod kmod cpio ...
#   2. pick the kernel: the ABI that Debian's linux-image-amd64 metapackage
#      points at (or $GPIO_DEBOUNCE_VM_KABI, e.g. 6.1.0-56), with the exact
#      same package version for image, headers and linux-source-6.1,
#   3. download the image and linux-source-6.1 .debs into the cache and
#      extract them there (the image is NOT installed on the host: that would
#      run initramfs hooks and add a boot entry on a real machine), install
#      linux-headers-<kver> (needed by kbuild),
#   4. build gpio-sim.ko out of tree from linux-source (gpio-sim.c +
#      kernel/irq/irq_sim.c, which Debian does not enable), patching
#      irq_sim.c to avoid the unexported irq_to_desc(),
#   5. extract the uncompressed vmlinux (qemu boots it via PVH, faster),
#   6. build an uncompressed busybox initramfs with vm/initramfs-init.sh as
#      /init and the modules in modprobe --show-depends order.
#
# Cache: ${GPIO_DEBOUNCE_VM_CACHE:-/var/cache/gpio-debounce-vm}
# Progress goes to stderr; the final "where things are" summary to stdout.
set -euo pipefail

export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
export DEBIAN_FRONTEND=noninteractive

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
CACHE=${GPIO_DEBOUNCE_VM_CACHE:-/var/cache/gpio-debounce-vm}
# Bump when the module build recipe changes, to force a rebuild.
MODULE_RECIPE=1

QUIET=0
[[ ${1:-} == -q ]] && QUIET=1
log() { echo "prepare: $*" >&2; }
info() { ((QUIET)) || log "$@"; }
die() { echo "prepare: ERROR: $*" >&2; exit 1; }

[[ $(id -u) == 0 ]] || die "must run as root (apt-get, 9p export of /)"
[[ $(uname -m) == x86_64 ]] || die "only x86_64 hosts are supported"

mkdir -p "$CACHE/debs"
# One prepare at a time (parallel run.sh calls on a cold cache).
exec 9>"$CACHE/.lock"
flock 9

# --- apt helpers --------------------------------------------------------------
apt_updated=0
apt_update_once() {
    if ((apt_updated == 0)); then
        log "apt-get update"
        apt-get update -qq >&2
        apt_updated=1
    fi
}

# Install packages (names may carry =version); retry after apt-get update.
apt_install() {
    log "apt-get install $*"
    if ! apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "$@" >&2; then
        apt_update_once
        apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "$@" >&2
    fi
}

# Print the given packages that are not installed.
missing_pkgs() {
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
    done
}

# Download pkg=version into $CACHE/debs (once); prints the .deb path.
download_deb() {
    local pkg=$1 ver=$2 f
    f=$(compgen -G "$CACHE/debs/${pkg}_${ver//:/%3a}_*.deb" | head -n1 || true)
    if [[ -z $f ]]; then
        log "downloading $pkg=$ver"
        (cd "$CACHE/debs" && { apt-get download -qq -o APT::Sandbox::User=root "$pkg=$ver" >&2 ||
            { apt_update_once && apt-get download -qq -o APT::Sandbox::User=root "$pkg=$ver" >&2; }; })
        f=$(compgen -G "$CACHE/debs/${pkg}_${ver//:/%3a}_*.deb" | head -n1 || true)
        [[ -n $f ]] || die "download of $pkg=$ver failed"
    fi
    echo "$f"
}

# --- 1. host tools -----------------------------------------------------------
# qemu + busybox to boot, gpiod and strace for the tests (they run on the
# host's fs inside the VM), kmod/cpio/xz/zstd/gzip to assemble the initramfs
# and extract vmlinux, make/gcc for the module (headers pull in gcc-12).
HOST_PKGS=(qemu-system-x86 busybox-static gpiod kmod cpio xz-utils zstd gzip strace
    make gcc binutils util-linux)
mapfile -t need < <(missing_pkgs "${HOST_PKGS[@]}")
if ((${#need[@]})); then
    apt_install "${need[@]}"
fi

# --- 2. choose the kernel ----------------------------------------------------
KVER=""
if [[ -z ${VM_REFRESH:-} && -z ${GPIO_DEBOUNCE_VM_KABI:-} && -s $CACHE/current ]]; then
    KVER=$(<"$CACHE/current")
    [[ -s $CACHE/$KVER/pkgversion ]] || KVER=""
fi
if [[ -z $KVER ]]; then
    if [[ -n ${GPIO_DEBOUNCE_VM_KABI:-} ]]; then
        IMGPKG="linux-image-${GPIO_DEBOUNCE_VM_KABI}-amd64"
        PKGVER=$(apt-cache show --no-all-versions "$IMGPKG" 2>/dev/null | sed -n 's/^Version: //p' | head -n1 || true)
        if [[ -z $PKGVER ]]; then
            apt_update_once
            PKGVER=$(apt-cache show --no-all-versions "$IMGPKG" | sed -n 's/^Version: //p' | head -n1)
        fi
    else
        # "Depends: linux-image-6.1.0-56-amd64 (= 6.1.192-2)"
        dep=$(apt-cache show --no-all-versions linux-image-amd64 2>/dev/null | sed -n 's/^Depends: //p' | head -n1 || true)
        if [[ -z $dep || -n ${VM_REFRESH:-} ]]; then
            apt_update_once
            dep=$(apt-cache show --no-all-versions linux-image-amd64 | sed -n 's/^Depends: //p' | head -n1)
        fi
        [[ $dep =~ ^(linux-image-[^ ]+-amd64)\ \(=\ ([^\)]+)\) ]] || die "cannot parse linux-image-amd64 Depends: '$dep'"
        IMGPKG=${BASH_REMATCH[1]}
        PKGVER=${BASH_REMATCH[2]}
    fi
    [[ -n $PKGVER ]] || die "no version for $IMGPKG"
    KVER=${IMGPKG#linux-image-}
    [[ $KVER == 6.1.* ]] || die "kernel $KVER is not a 6.1 kernel (linux-source-6.1 must match)"
    mkdir -p "$CACHE/$KVER"
    echo "$PKGVER" >"$CACHE/$KVER/pkgversion"
    echo "$KVER" >"$CACHE/current"
fi
PKGVER=$(<"$CACHE/$KVER/pkgversion")
KD=$CACHE/$KVER
info "kernel $KVER (Debian package version $PKGVER), cache $KD"

# --- 3./4. gpio-sim.ko --------------------------------------------------------
module_stamp="$KVER $PKGVER recipe=$MODULE_RECIPE"
if [[ ! -s $KD/gpio-sim.ko || ! -s $KD/extract-vmlinux || $(cat "$KD/gpio-sim.ko.stamp" 2>/dev/null) != "$module_stamp" ]]; then
    HDRPKG=linux-headers-$KVER
    if [[ -n $(missing_pkgs "$HDRPKG") ]] ||
        [[ $(dpkg-query -W -f='${Version}' "$HDRPKG") != "$PKGVER" ]]; then
        apt_install "$HDRPKG=$PKGVER"
    fi
    KDIR=/usr/src/linux-headers-$KVER
    [[ -f $KDIR/Makefile ]] || die "$KDIR missing after installing $HDRPKG"

    srcdeb=$(download_deb linux-source-6.1 "$PKGVER")
    src=$KD/src
    if [[ ! -f $src/.complete ]]; then
        log "extracting gpio-sim.c, gpiolib.h, irq_sim.c, extract-vmlinux from $(basename "$srcdeb") (takes ~20 s)"
        rm -rf "$src"
        mkdir -p "$src"
        # The .deb holds usr/src/linux-source-6.1.tar.xz; stream it, take 4 files.
        dpkg-deb --fsys-tarfile "$srcdeb" |
            tar -xO ./usr/src/linux-source-6.1.tar.xz |
            tar -xJ -C "$src" --strip-components=1 \
                linux-source-6.1/drivers/gpio/gpio-sim.c \
                linux-source-6.1/drivers/gpio/gpiolib.h \
                linux-source-6.1/kernel/irq/irq_sim.c \
                linux-source-6.1/scripts/extract-vmlinux
        touch "$src/.complete"
    fi

    b=$KD/build
    rm -rf "$b"
    mkdir -p "$b"
    cp "$src/drivers/gpio/gpio-sim.c" "$b/gpio-sim-main.c"
    cp "$src/drivers/gpio/gpiolib.h" "$b/gpiolib.h"
    cp "$src/kernel/irq/irq_sim.c" "$b/irq_sim.c"
    # irq_to_desc() is not exported to modules; generic_handle_irq() is.
    sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' "$b/irq_sim.c"
    if grep -q irq_to_desc "$b/irq_sim.c"; then
        die "irq_sim.c patch did not apply (irq_to_desc still used)"
    fi
    # One module "gpio-sim" made of the driver and the irq simulator.
    cat >"$b/Kbuild" <<'EOF'
obj-m := gpio-sim.o
gpio-sim-y := gpio-sim-main.o irq_sim.o
EOF
    log "building gpio-sim.ko against $KDIR"
    make -s -C "$KDIR" M="$b" -j2 modules >&2
    cp "$b/gpio-sim.ko" "$KD/gpio-sim.ko"
    install -m 0755 "$src/scripts/extract-vmlinux" "$KD/extract-vmlinux"
    echo "$module_stamp" >"$KD/gpio-sim.ko.stamp"
    rm -f "$KD/vmlinux" "$KD/modules/load-order"   # force the steps below
fi

# --- 5./6. vmlinux and the modules for the initramfs ---------------------------
WANT_MODULES=(virtio_pci 9pnet_virtio 9p overlay gpio-sim uinput evdev)
if [[ ! -s $KD/vmlinux || ! -s $KD/modules/load-order ]] || ! grep -qx uinput.ko "$KD/modules/load-order"; then
    imgdeb=$(download_deb "linux-image-$KVER" "$PKGVER")
    root=$KD/root
    rm -rf "$root"
    mkdir -p "$root"
    log "extracting $(basename "$imgdeb")"
    dpkg-deb -x "$imgdeb" "$root"
    vmlinuz=$root/boot/vmlinuz-$KVER
    [[ -f $vmlinuz ]] || die "no $vmlinuz in $(basename "$imgdeb")"

    log "extracting vmlinux"
    "$KD/extract-vmlinux" "$vmlinuz" >"$KD/vmlinux.tmp"
    [[ $(head -c4 "$KD/vmlinux.tmp" | od -An -tx1 | tr -d ' ') == 7f454c46 ]] ||
        die "extract-vmlinux did not produce an ELF file"
    mv "$KD/vmlinux.tmp" "$KD/vmlinux"
    cp "$vmlinuz" "$KD/vmlinuz"

    # Let modprobe compute the load order, our module included.
    mkdir -p "$root/lib/modules/$KVER/extra"
    cp "$KD/gpio-sim.ko" "$root/lib/modules/$KVER/extra/"
    depmod -b "$root" "$KVER"
    rm -rf "$KD/modules"
    mkdir -p "$KD/modules"
    : >"$KD/modules/load-order.tmp"
    for m in "${WANT_MODULES[@]}"; do
        modprobe -d "$root" -S "$KVER" --show-depends "$m"
    done |
        awk '$1 == "insmod" && !seen[$2]++ { print $2 }' |
        while read -r ko; do
            name=$(basename "$ko")
            case $name in
            *.ko.xz) xz -dc "$ko" >"$KD/modules/${name%.xz}"; name=${name%.xz} ;;
            *.ko.zst) zstd -qdc "$ko" >"$KD/modules/${name%.zst}"; name=${name%.zst} ;;
            *.ko.gz) gzip -dc "$ko" >"$KD/modules/${name%.gz}"; name=${name%.gz} ;;
            *) cp "$ko" "$KD/modules/$name" ;;
            esac
            echo "$name" >>"$KD/modules/load-order.tmp"
        done
    grep -qx gpio-sim.ko "$KD/modules/load-order.tmp" || die "gpio-sim.ko missing from the load order"
    mv "$KD/modules/load-order.tmp" "$KD/modules/load-order"
    rm -rf "$root"   # ~400 MB; the .deb stays in $CACHE/debs
fi

# --- 6. initramfs ------------------------------------------------------------
BUSYBOX=/bin/busybox
[[ -x $BUSYBOX && $(ldd "$BUSYBOX" 2>&1 || true) == *"not a dynamic"* ]] ||
    die "$BUSYBOX is not the static busybox (package busybox-static)"
initrd_stamp=$(cat "$HERE/initramfs-init.sh" "$KD/modules/load-order" "$KD/gpio-sim.ko" "$BUSYBOX" | sha256sum | cut -d' ' -f1)
if [[ ! -s $KD/initramfs.cpio || $(cat "$KD/initramfs.cpio.stamp" 2>/dev/null) != "$initrd_stamp" ]]; then
    log "building initramfs"
    st=$KD/initramfs.d
    rm -rf "$st"
    mkdir -p "$st"/{bin,dev,proc,sys,newroot,modules}
    cp "$BUSYBOX" "$st/bin/busybox"
    for applet in $("$BUSYBOX" --list); do
        [[ $applet == busybox ]] || ln -s busybox "$st/bin/$applet"
    done
    install -m 0755 "$HERE/initramfs-init.sh" "$st/init"
    cp "$KD/modules/"* "$st/modules/"
    # Uncompressed: decompressing under TCG costs more than reading it.
    (cd "$st" && find . -print0 | LC_ALL=C sort -z |
        cpio --null -o -H newc -R 0:0 --quiet) >"$KD/initramfs.cpio.tmp"
    mv "$KD/initramfs.cpio.tmp" "$KD/initramfs.cpio"
    echo "$initrd_stamp" >"$KD/initramfs.cpio.stamp"
    rm -rf "$st"
fi

# Stable names for run.sh.
[[ $(readlink "$CACHE/kernel" 2>/dev/null) == "$KVER" ]] || ln -sfn "$KVER" "$CACHE/kernel"

((QUIET)) && exit 0
cat <<EOF
gpio-debounce VM ready:
  kernel     $KVER (Debian $PKGVER)
  vmlinux    $CACHE/kernel/vmlinux
  initramfs  $CACHE/kernel/initramfs.cpio  (modules: $(paste -sd' ' "$KD/modules/load-order"))
  gpio-sim   $CACHE/kernel/gpio-sim.ko
  qemu       $(command -v qemu-system-x86_64)
EOF
