#!/bin/bash
# mmdebstrap customize hook: only what cannot fail. Checks and the raspi-firmware run happen in
# layer.sh (image/hooks/raspi-boot.sh), where a failure costs a minute instead of this whole layer.
set -euo pipefail
root=$1
# No per-image identity in a layer: machine-id and SSH host keys are made on first boot.
: > "$root/etc/machine-id"
rm -f "$root"/etc/ssh/ssh_host_*_key "$root"/etc/ssh/ssh_host_*_key.pub
# What one `apt-get update` writes to a card (docs/image.md, "Upgrading": why no unattended-upgrades).
echo "apt lists of this root: $(du -sk "$root/var/lib/apt/lists" | cut -f1) KiB" >&2 || true
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
