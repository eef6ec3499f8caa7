#!/bin/bash
# One self-test boot of the built image under qemu-system-aarch64 (-M virt -m 416 by default;
# SHELLDON_QEMU_MACHINE=raspi3b for the Zero 2 W's SoC), on a sparse copy of the image with
# $SHELLDON_BOOT_TOML on its FAT partition when set. The kernel gets the image's own cmdline.txt
# (qemu's serial console instead of the Pi's) and pulls in the self-test, which checks the appliance
# from the inside, prints its verdict on the serial console and powers off.
#   image/boottest.sh [IMG] [LOG]     exit 0 only on "SHELLDON-SELFTEST: PASS"
# `just image-test` runs the whole test (image/imagetest.py all): this boot plus the fsck, power-cut
# and upgrade phases.
source "$(dirname "$0")/common.sh"
"$IMAGE_DIR/deps.sh" test
exec python3 "$IMAGE_DIR/imagetest.py" boot "${1:-$OUT_DIR/shelldon-arm64.img}" "${2:-$OUT_DIR/boot.log}"
