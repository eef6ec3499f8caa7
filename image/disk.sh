#!/bin/bash
# The SD-card image from a finished root tree, without loop devices: a FAT32 boot partition made
# with mkfs.vfat + mtools, the ext4 root with `mke2fs -d`, an MBR with sfdisk (the Pi 3 and Zero 2 W
# boot from MBR only), both filesystems written at their offsets with dd.
#   image/disk.sh ROOT_DIR IMG
source "$(dirname "$0")/common.sh"
need_root
root=${1:?root dir} img=${2:?image path}
MiB=$((1024 * 1024))
ALIGN_MIB=4
BOOT_MIB=${SHELLDON_BOOT_MIB:-256}
work=$(mktemp -d "${img%/*}/.disk.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The FAT partition's content is what the raspi-firmware hook put into /boot/firmware; in the ext4
# tree /boot/firmware stays an empty mount point.
mv "$root/boot/firmware" "$work/firmware"
mkdir -m 0755 "$root/boot/firmware"
trap 'rm -rf "$root/boot/firmware"; mv "$work/firmware" "$root/boot/firmware"; rm -rf "$work"' EXIT

used_kib=$(du -sk --apparent-size "$root" | cut -f1)
# Room for ext4 metadata and the first boots; growroot takes the rest of the card at first boot.
root_mib=$(( (used_kib * 13 / 10 / 1024 + 256 + ALIGN_MIB - 1) / ALIGN_MIB * ALIGN_MIB ))
total_mib=$(( ALIGN_MIB + BOOT_MIB + root_mib ))
log "disk: boot ${BOOT_MIB} MiB, root ${root_mib} MiB (tree $((used_kib / 1024)) MiB), total ${total_mib} MiB"

mkfs.vfat -F 32 -n RASPIFIRM -C "$work/boot.img" $((BOOT_MIB * 1024)) >/dev/null
mcopy -s -p -m -i "$work/boot.img" "$work/firmware"/* ::
mke2fs -q -t ext4 -L RASPIROOT -E root_owner=0:0 \
  -d "$root" "$work/root.img" "${root_mib}M"

rm -f "$img"
truncate -s "${total_mib}M" "$img"
sfdisk --quiet "$img" <<PT
label: dos
unit: sectors
start=$((ALIGN_MIB * MiB / 512)), size=$((BOOT_MIB * MiB / 512)), type=c, bootable
start=$(((ALIGN_MIB + BOOT_MIB) * MiB / 512)), type=83
PT
dd if="$work/boot.img" of="$img" bs=1M seek=$ALIGN_MIB conv=notrunc,sparse status=none
dd if="$work/root.img" of="$img" bs=1M seek=$((ALIGN_MIB + BOOT_MIB)) conv=notrunc,sparse status=none
sfdisk -l "$img" >&2
