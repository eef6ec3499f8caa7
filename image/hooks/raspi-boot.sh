#!/bin/bash
# The boot files of an arm64 root (run by layer.sh, in seconds to a minute under qemu-user):
# raspi-firmware's settings, its hook re-run to fill /boot/firmware (kernel, initrd, DTBs,
# config.txt, cmdline.txt), and a check that the initramfs can find the root.
#   hooks/raspi-boot.sh ROOT
set -euo pipefail
root=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../common.sh"
# Root by label, the Zero 2 W's serial (ttyS1) and the screen as consoles, no CMA reservation
# (64 MB back on a 512 MB board: shelldon does no camera or GPU work). `CMA=0` would not do it: the
# hook then writes no cma= at all and the device tree's 64 MiB pool stays. `cma=0M` on the command
# line makes the kernel skip the device tree's pool.
cat > "$root/etc/default/raspi-firmware" <<'CONF'
ROOTPART=LABEL=RASPIROOT
CMA=0M
CONSOLES="ttyS1,115200 tty0"
KERNEL_ARCH=arm64
CONF
kver=$(basename "$(ls -d "$root"/lib/modules/* | sort -V | tail -n1)")
# The initramfs again, with fsck in it. initramfs-tools' fsck hook looks the root's type up from the
# device fstab names, which does not exist in a build tree ("Couldn't identify type of root file
# system"), so it left fsck out and every boot said "fsck not present, so skipping root file
# system". FSTYPE names the type for the hook (at boot the initramfs detects it as before).
printf '# fsck.ext4 into the initramfs: the root is checked before it is mounted (docs/image.md)\nFSTYPE=ext4\n' \
  > "$root/etc/initramfs-tools/conf.d/shelldon-fsck.conf"
in_root "$root" update-initramfs -u -k "$kver" >&2
# Every driver of the list must be in the initramfs or built into the kernel.
listing=$(in_root "$root" lsinitramfs "/boot/initrd.img-$kver")
builtin=$(cat "$root/lib/modules/$kver/modules.builtin" 2>/dev/null || true)
missing=()
n=0
for m in $(grep -v '^#' "$here/initramfs-modules"); do
  f=${m//_/[_-]}
  if printf '%s\n' "$listing" | grep -q "/${f}\.ko"; then n=$((n + 1))
  elif printf '%s\n' "$builtin" | grep -q "/${f}\.ko"; then :
  else missing+=("$m"); fi
done
[ ${#missing[@]} = 0 ] || { echo "initramfs of $kver lacks: ${missing[*]}" >&2; exit 1; }
for tool in fsck fsck.ext4 logsave; do
  printf '%s\n' "$listing" | grep -q "sbin/$tool\$" || { echo "initramfs of $kver lacks $tool" >&2; exit 1; }
done
echo "initramfs of $kver: $n listed modules in it, the others built in; $(du -h "$root/boot/initrd.img-$kver" | cut -f1)"
# With /proc (in_root) the hook's `ischroot` sees the chroot and skips its "is /boot/firmware
# mounted" check.
in_root "$root" env DEB_MAINT_PARAMS=configure /etc/kernel/postinst.d/z50-raspi-firmware "$kver"
ls "$root/boot/firmware" | tr '\n' ' '; echo
cmdline=$(cat "$root/boot/firmware/cmdline.txt")
echo "cmdline.txt: $cmdline"
case " $cmdline " in *" cma=0M "*) ;; *) echo "cmdline.txt carries no cma=0M" >&2; exit 1 ;; esac
