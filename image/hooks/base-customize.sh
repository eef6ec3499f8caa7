#!/bin/bash
# mmdebstrap customize hook: settle what depends on packages of the base layer only.
set -euo pipefail
root=$1 arch=$2
# No per-image identity in a layer: machine-id and SSH host keys are made on first boot.
: > "$root/etc/machine-id"
rm -f "$root"/etc/ssh/ssh_host_*_key "$root"/etc/ssh/ssh_host_*_key.pub
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
[ "$arch" = arm64 ] || exit 0
# raspi-firmware: root by label, the Zero 2 W's serial (ttyS1) and the screen as consoles, no CMA
# reservation (saves 64 MB of a 512 MB board: shelldon has no camera or GPU work).
cat > "$root/etc/default/raspi-firmware" <<'CONF'
ROOTPART=LABEL=RASPIROOT
CMA=0
CONSOLES="ttyS1,115200 tty0"
KERNEL_ARCH=arm64
CONF
kver=$(basename "$(ls -d "$root"/lib/modules/* | sort -V | tail -n1)")
# MODULES=list must have reached the initramfs: fail the layer rather than ship an unbootable card.
# (Listed into a variable first: `grep -q` in a pipe would SIGPIPE lsinitramfs under pipefail.)
listing=$(chroot "$root" lsinitramfs "/boot/initrd.img-$kver")
case $listing in
  *mmc_block.ko*) echo "initramfs: $(printf '%s\n' "$listing" | grep -c '\.ko') modules, mmc_block among them" ;;
  *) echo "initramfs lacks mmc_block: MODULES=list not applied" >&2; exit 1 ;;
esac
chroot "$root" env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware "$kver"
ls "$root/boot/firmware"
