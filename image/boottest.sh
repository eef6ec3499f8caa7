#!/bin/bash
# Boot the built image under qemu-system-aarch64 -M virt -m 416 (the image's own kernel and
# initrd, its root partition as a virtio disk, snapshot=on so the image stays pristine) with the
# self-test unit pulled in from the kernel command line. The self-test checks the appliance from the
# inside (units active, users, vault, `shelldon say "hello"`), prints its verdict on the serial
# console and powers off; this script waits for qemu to exit (no sleeps) and reports.
#   image/boottest.sh [IMG] [LOG]     exit 0 only on "SHELLDON-SELFTEST: PASS"
source "$(dirname "$0")/common.sh"
"$IMAGE_DIR/deps.sh" test
img=${1:-$OUT_DIR/shelldon-arm64.img}
log_file=${2:-$OUT_DIR/boot.log}
[ -f "$img" ] || die "no image at $img: run just image first"
kernel=$OUT_DIR/vmlinuz initrd=$OUT_DIR/initrd.img
# With SHELLDON_BOOT_TOML (just image-test sets image/test/boot-shelldon.toml), a sparse copy of the
# image gets that file on its FAT partition, to see first boot move its API key into the vault.
toml=${SHELLDON_BOOT_TOML:-}
if [ -n "$toml" ]; then
  copy=$OUT_DIR/boottest-copy.img
  cp --sparse=always "$img" "$copy"
  trap 'rm -f "$copy"' EXIT
  fat_offset=$(( $(sfdisk -J "$copy" | python3 -c 'import json,sys; print(json.load(sys.stdin)["partitiontable"]["partitions"][0]["start"])') * 512 ))
  mcopy -o -i "$copy@@$fat_offset" "$toml" ::shelldon.toml
  img=$copy
  log "booting a copy with $(basename "$toml") on its FAT partition"
fi
mem=${SHELLDON_QEMU_MEM:-416}
cmdline="root=LABEL=RASPIROOT rw rootwait console=ttyAMA0 systemd.wants=shelldon-selftest.service systemd.show_status=1"
case ${SHELLDON_QEMU_MACHINE:-virt} in
  virt)  # the default: -M virt, the image as a virtio disk
    machine=(-M virt -cpu cortex-a72 -smp 2 -m "$mem"
      -drive "if=none,id=sd,file=$img,format=raw,snapshot=on" -device virtio-blk-pci,drive=sd) ;;
  raspi3b)  # BCM2837 like the Zero 2 W, the image as its SD card (mmcblk0): the size must be a power
            # of two, so a sparse copy is grown to 2 GiB (first boot's growroot then fills it)
    sd=$OUT_DIR/boottest-sd.img
    cp --sparse=always "$img" "$sd"; truncate -s 2G "$sd"
    trap 'rm -f "$sd" "${copy:-}"' EXIT
    machine=(-M raspi3b -dtb "$OUT_DIR/root/boot/firmware/bcm2837-rpi-3-b.dtb"
      -drive "if=sd,file=$sd,format=raw") ;;
  *) die "SHELLDON_QEMU_MACHINE is virt or raspi3b" ;;
esac
start=$(date +%s.%N)
set +e
timeout --foreground "${SHELLDON_BOOT_TIMEOUT:-1200}" qemu-system-aarch64 "${machine[@]}" \
  -kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
  -nic none -nographic -no-reboot -serial mon:stdio < /dev/null 2>&1 | tr -d '\r' > "$log_file"
rc=${PIPESTATUS[0]}
set -e
secs=$(python3 -c "import time; print(f'{time.time() - $start:.0f}')")
log "qemu exited ($rc) after $secs s; log in $log_file"
grep -E '^(selftest|SHELLDON-SELFTEST)' "$log_file" >&2 || true
grep -q '^SHELLDON-SELFTEST: PASS' "$log_file"
if [ -n "$toml" ]; then
  # The key moved: the vault has the entry, the FAT file has no api_key line (checked inside).
  grep -q '^selftest ok   vault entries : boottest$' "$log_file" || die "the FAT key did not reach the vault"
  grep -q '^selftest ok   no API key on FAT' "$log_file" || die "an API key is still on the FAT partition"
  log "first boot moved the FAT partition's API key into the vault and wiped it"
fi
