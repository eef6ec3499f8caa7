#!/bin/bash
# Layer 2: shelldon on top of a base root.
#   image/layer.sh BASE_TAR ROOT_DIR ARCH [NATIVE_SO]
# Extracts the base layer into ROOT_DIR (made afresh), adds the overlay, the Python package and
# the native module, the boot files (arm64), then creates users, the data tree and unit links with
# the tree's own systemd tools (in_root; under qemu-user for arm64).
source "$(dirname "$0")/common.sh"
need_root
base=${1:?base tarball} root=${2:?root dir} arch=${3:?arch} native=${4:-}
[ -s "$base" ] || die "no base layer $base"
case $root in /|"") die "refusing root dir '$root'" ;; esac
rm -rf "$root"; mkdir -p "$root"
log "extracting $(basename "$base") -> $root"
tar -C "$root" --numeric-owner --xattrs --xattrs-include='*' -xpf "$base"

log "overlay"
tar -C "$IMAGE_DIR/overlay" --owner=0 --group=0 --numeric-owner -cf - . | tar -C "$root" -xpf -
chmod 0755 "$root/usr/bin/shelldon" "$root/usr/lib/shelldon/growroot" "$root/usr/lib/shelldon/selftest" \
  "$root/usr/lib/shelldon/firstboot.py" "$root/usr/lib/shelldon/drill" "$root/usr/lib/shelldon/security-update" \
  "$root/usr/lib/systemd/system-generators/shelldon-wifi-generator"
chmod 0640 "$root/etc/shelldon/shelldon.toml"
install -d -m 0755 "$root/usr/share/doc/shelldon"
[ -f "$REPO_DIR/docs/image.md" ] && install -m 0644 "$REPO_DIR/docs/image.md" "$root/usr/share/doc/shelldon/image.md"

# shelldon is the updatable unit (docs/image.md, "Updates"): each release in its own directory,
# `current` names the one the units run, an update adds one beside it and renames the link.
release_id=$(shelldon_version)+g$(git -C "$REPO_DIR" rev-parse --short HEAD 2>/dev/null || echo unknown)
release=$root/opt/shelldon/releases/$release_id
log "python package from $REPO_DIR/python/shelldon -> /opt/shelldon/releases/$release_id"
lib=$release/lib
install -d -m 0755 "$lib"
if [ -d "$REPO_DIR/python/shelldon" ]; then
  tar -C "$REPO_DIR/python" --owner=0 --group=0 --numeric-owner \
    --exclude='__pycache__' --exclude='*.pyc' --exclude='*.so' -cf - shelldon | tar -C "$lib" -xpf -
else
  log "WARNING: python/shelldon does not exist yet: the image carries no shelldon code"
fi
if [ -n "$native" ]; then
  [ -d "$lib/shelldon" ] || install -d -m 0755 "$lib/shelldon"
  install -m 0644 "$native" "$lib/shelldon/_native.abi3.so"
fi
find "$lib" -type d -exec chmod 0755 {} + ; find "$lib" -type f -exec chmod 0644 {} +
pyver=$(ls -d "$root"/usr/lib/python3.[0-9]* | sort -V | tail -n1); pyver=${pyver##*/}
echo /opt/shelldon/current/lib > "$root/usr/lib/python3/dist-packages/shelldon.pth"
shelldon_version > "$release/VERSION"
git -C "$REPO_DIR" rev-parse --short HEAD > "$release/REVISION" 2>/dev/null || echo unknown > "$release/REVISION"
ln -sfn "releases/$release_id" "$root/opt/shelldon/current"
ln -sfn "releases/$release_id" "$root/opt/shelldon/previous"
# The updater outside every release (a bundle never replaces it), and the key it trusts: made once
# per build machine, kept outside the repo with the cached layers (the private half never leaves it).
PYTHONPATH=$REPO_DIR/python python3 -m shelldon.appliance.update install-updater "$root/usr/lib/shelldon" >/dev/null
signing_key=${SHELLDON_UPDATE_SIGNING_KEY:-$CACHE_DIR/update-signing.pem}
if [ ! -s "$signing_key" ]; then
  log "making the update signing key $signing_key (Ed25519)"
  mkdir -p "$(dirname "$signing_key")"
  (umask 077; openssl genpkey -algorithm ed25519 -out "$signing_key")
fi
openssl pkey -in "$signing_key" -pubout -out "$root/etc/shelldon/update-key.pem"
chmod 0644 "$root/etc/shelldon/update-key.pem"

log "hostname, users, data tree, units"
echo shelldon > "$root/etc/hostname"
printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tshelldon\n' > "$root/etc/hosts"
if [ "$arch" = arm64 ]; then
  ensure_binfmt
  log "boot files (raspi-firmware) and the initramfs check"
  # The hardware watchdog's driver in the initramfs, so /dev/watchdog0 is there when systemd starts
  # and takes it (RuntimeWatchdogSec): bcm2835_wdt on the Pi, i6300esb on qemu's `-M virt`.
  printf '# the hardware watchdog (docs/image.md, "Watchdog")\nbcm2835_wdt\ni6300esb\n' \
    > "$root/etc/initramfs-tools/modules"
  "$IMAGE_DIR/hooks/raspi-boot.sh" "$root" >&2
  install -m 0644 "$IMAGE_DIR/boot/shelldon.toml" "$root/boot/firmware/shelldon.toml"
fi
# The tree's own systemd (the release's, not the host's) creates users and the data tree and
# enables units; offline, inside the tree (under qemu-user for arm64).
in_root "$root" systemd-sysusers
in_root "$root" systemd-tmpfiles --create --prefix=/var/lib/shelldon /usr/lib/tmpfiles.d/shelldon.conf
in_root "$root" systemctl enable --quiet shelldon.target shelldon-core.service shelldon-broker.service \
  shelldon-forkserver.service shelldon-firstboot.service shelldon-growroot.service shelldon-sshkeys.service \
  systemd-networkd.service systemd-resolved.service systemd-timesyncd.service \
  shelldon-update-boot.service shelldon-update-trial.service shelldon-update-fat.service
# Security updates run from shelldon's timer, inside quiet hours; Debian's own apt timers (random
# hours, any time of day) are masked so nothing else downloads or upgrades.
if [ -e "$root/usr/bin/unattended-upgrade" ]; then
  in_root "$root" systemctl enable --quiet shelldon-security-update.timer
  in_root "$root" systemctl mask --quiet apt-daily.timer apt-daily-upgrade.timer
fi
# wpa_supplicant@wlan0 is not enabled: shelldon-wifi-generator wants it only when Wi-Fi is configured.
# The package's own D-Bus wpa_supplicant.service (for NetworkManager and the like) is not used here:
# off, a daemon less in 416 MB.
[ "$arch" = arm64 ] && in_root "$root" systemctl disable --quiet wpa_supplicant.service
# No swap on the card, ever (nothing creates one by default; make sure nothing can).
in_root "$root" systemctl mask --quiet swap.target
# The broker reads the provider chain; the worker may not (no keys there, but no reason either).
# (By number: the host has no such group; sysusers.d fixes it at 900.)
chgrp 900 "$root/etc/shelldon/shelldon.toml"
ln -sf ../run/systemd/resolve/stub-resolv.conf "$root/etc/resolv.conf"

log "byte-compiling for $pyver"
if [ -d "$lib/shelldon" ]; then
  # Both levels: the owner's `shelldon` commands run plain, the three services at -OO
  # (PYTHONOPTIMIZE=2 in their units: no docstrings, 2 MB less). The root is read-only to them,
  # so what is not compiled here is compiled from source at every start.
  in_root "$root" /usr/bin/python3 -m compileall -q -j0 -o 0 -o 2 \
    "/opt/shelldon/releases/$release_id/lib" /usr/lib/shelldon/updater >/dev/null
  # Debian ships the stdlib and msgspec compiled at level 0 only.
  in_root "$root" /usr/bin/python3 -m compileall -q -j0 -o 2 \
    "/usr/lib/$pyver" /usr/lib/python3/dist-packages >/dev/null
fi
log "layer done: $(du -sh "$root" | cut -f1)"
