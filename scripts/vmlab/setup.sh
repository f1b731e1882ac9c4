#!/usr/bin/env bash
# scripts/vmlab/setup.sh — the device lab's machine: QEMU, a Debian kernel and a busybox
# initramfs, set up once from Debian packages and cached (tests/vmlab/README.md).
#
# Installs qemu-system-x86 and busybox-static (--no-install-recommends) where missing, and the
# tools the scenarios run in the guest from this machine's root (nvme-cli, smartmontools,
# sg3-utils, hdparm, mdadm, lvm2: the guest sees this machine's /usr read-only), downloads
# the linux-image-amd64 package's kernel with `apt-get download` and unpacks only its vmlinuz and
# the modules the lab needs (never installed into this machine's /boot), and builds the guest's
# initramfs: busybox, those modules with busybox's depmod, and scripts/vmlab/init. Everything goes
# to $VMLAB_CACHE (default /var/tmp/ptsbench-vmlab); a second run reuses it. Prints the cache's
# path on its last line. Exit 0, or 1 with one line saying what is missing.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${VMLAB_CACHE:-/var/tmp/ptsbench-vmlab}
mkdir -p "$cache"

need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] || [ -x /usr/bin/busybox ] || need+=(busybox-static)
for t in nvme:nvme-cli smartctl:smartmontools sg_format:sg3-utils hdparm:hdparm mdadm:mdadm \
         lvcreate:lvm2; do
  PATH=$PATH:/usr/sbin:/sbin command -v "${t%%:*}" >/dev/null || need+=("${t#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then echo "vmlab: need ${need[*]} (run as root to install)" >&2; exit 1; fi
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" \
    >/dev/null || { echo "vmlab: cannot install ${need[*]}" >&2; exit 1; }
fi
busybox=$(command -v busybox)

# the lab's drivers and what they need: virtio and 9p (the root), block (null_blk, its configfs),
# nvme, scsi, ata, md/dm, ext4; a change of this list unpacks the kernel's modules again
mods="drivers/virtio fs/9p fs/netfs fs/fscache net/9p drivers/nvme drivers/block drivers/scsi
      drivers/ata drivers/md block lib crypto fs/ext4 fs/jbd2 fs/mbcache.ko fs/configfs"
mods=$(echo $mods)

# The kernel: the version linux-image-amd64 depends on today, unless one is cached already.
kv=$(cat "$cache/kernel-version" 2>/dev/null || true)
if [ -z "$kv" ] || [ ! -f "$cache/vmlinuz-$kv" ] || [ "$(cat "$cache/modules-list" 2>/dev/null)" != "$mods" ]; then
  apt-get update -qq >/dev/null 2>&1 || true
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ ]*\)$/\1/p' | head -1)
  [ -n "$pkg" ] || { echo "vmlab: apt knows no linux-image-amd64" >&2; exit 1; }
  kv=${pkg#linux-image-}
  work=$(mktemp -d "$cache/dl-XXXXXX")
  (cd "$work" && apt-get download "$pkg" >/dev/null 2>&1) ||
    { rm -rf "$work"; echo "vmlab: cannot download $pkg" >&2; exit 1; }
  mkdir -p "$work/x"
  dpkg-deb --fsys-tarfile "$work"/*.deb | tar -x -C "$work/x" ./boot "./lib/modules/$kv/kernel"
  cp "$work/x/boot/vmlinuz-$kv" "$cache/vmlinuz-$kv"
  rm -rf "$cache/modules-$kv"
  mkdir -p "$cache/modules-$kv"
  for d in $mods; do
    [ -e "$work/x/lib/modules/$kv/kernel/$d" ] || continue
    mkdir -p "$cache/modules-$kv/$(dirname "$d")"
    cp -r "$work/x/lib/modules/$kv/kernel/$d" "$cache/modules-$kv/$(dirname "$d")/"
  done
  rm -rf "$work"
  echo "$kv" > "$cache/kernel-version"
  echo "$mods" > "$cache/modules-list"
  rm -f "$cache/initrd-$kv.gz"
fi

# The initramfs, rebuilt when the init script changed.
if [ ! -f "$cache/initrd-$kv.gz" ] || [ "$here/init" -nt "$cache/initrd-$kv.gz" ]; then
  ir=$(mktemp -d "$cache/ir-XXXXXX")
  mkdir -p "$ir"/{bin,proc,sys,dev,tmp,newroot,lib/modules/"$kv"}
  cp "$busybox" "$ir/bin/busybox"
  cp -r "$cache/modules-$kv" "$ir/lib/modules/$kv/kernel"
  (cd "$ir" && "$busybox" depmod -b . "$kv")
  cp "$here/init" "$ir/init"
  chmod +x "$ir/init"
  (cd "$ir" && find . | "$busybox" cpio -o -H newc 2>/dev/null | gzip -1 > "$cache/initrd-$kv.gz.tmp")
  mv "$cache/initrd-$kv.gz.tmp" "$cache/initrd-$kv.gz"
  rm -rf "$ir"
fi
echo "$cache"
