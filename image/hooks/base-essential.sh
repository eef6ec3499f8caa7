#!/bin/bash
# mmdebstrap essential hook: runs before the kernel and initramfs-tools are installed, so the first
# initramfs is already built with the short module list.
set -euo pipefail
root=$1 arch=$2
[ "$arch" = arm64 ] || exit 0
here=$(dirname "$0")
mkdir -p "$root/etc/initramfs-tools/conf.d" "$root/usr/share/initramfs-tools/modules.d"
printf 'MODULES=list\nCOMPRESS=zstd\n' > "$root/etc/initramfs-tools/conf.d/shelldon.conf"
grep -v '^#' "$here/initramfs-modules" > "$root/usr/share/initramfs-tools/modules.d/shelldon"
