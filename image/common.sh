#!/bin/bash
# Shared settings for the image build scripts. Sourced, never run.
# The release and package sets are the inputs of the cached base layer: changing any of
# them (or the hook scripts) changes the layer's key and rebuilds it.
set -euo pipefail

IMAGE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$IMAGE_DIR/.." && pwd)
# Cache outlives work trees: the base layers are minutes of emulated work.
CACHE_DIR=${SHELLDON_IMAGE_CACHE:-/var/cache/shelldon-image}
OUT_DIR=${SHELLDON_IMAGE_OUT:-$IMAGE_DIR/out}
MIRROR=${SHELLDON_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${SHELLDON_SECURITY_MIRROR:-http://deb.debian.org/debian-security}

# Debian 13 "trixie" for the appliance (see docs/image.md, "Release").
RELEASE=${SHELLDON_RELEASE:-trixie}
# The cross-compiler for the Rust extension comes from Debian 12, whose security suite
# carries rustc-web 1.96 together with the arm64 standard library (see docs/image.md).
BUILDER_RELEASE=bookworm

# Packages of the appliance root (arm64). minbase + these.
APPLIANCE_PACKAGES=(
  systemd systemd-sysv udev dbus systemd-timesyncd systemd-resolved
  linux-image-arm64 initramfs-tools zstd raspi-firmware firmware-brcm80211 wireless-regdb wpasupplicant
  openssh-server ca-certificates tzdata iproute2 kmod netbase procps less
  cloud-guest-utils e2fsprogs dosfstools fdisk
  python3 python3-msgspec
  python3-qrcode  # `shelldon telegram pair` draws the deep link as a QR code (optional at run time)
  openssl  # verifies update bundles (ed25519, `openssl pkeyutl -verify`; ca-certificates pulls it in anyway)
  unattended-upgrades  # Debian security updates, inside quiet hours (docs/image.md, "Security updates")
  espeak-ng opus-tools  # voice notes: speech out, Telegram's OGG/Opus in and out
)
# The amd64 check root: the same userland minus kernel, firmware and radio.
CHECK_PACKAGES=(
  systemd systemd-sysv udev dbus systemd-timesyncd systemd-resolved
  openssh-server ca-certificates tzdata iproute2 kmod netbase procps
  cloud-guest-utils e2fsprogs fdisk
  python3 python3-msgspec
)
# The newcomer's box (tests/image/test_readme_setup.py): a stock Debian with only what the README asks
# for, in the host's architecture. minbase + these (+ their dependencies: gcc, ca-certificates).
NEWCOMER_PACKAGES=(python3 python3-venv cargo)
BUILDER_PACKAGES=(
  rustc-web cargo-web libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross
  python3 file ca-certificates
)

sources_for() {  # $1 = release -> the deb lines (release, -updates, -security)
  local r=$1
  local comps="main non-free-firmware"
  printf '%s\n' \
    "deb $MIRROR $r $comps" \
    "deb $MIRROR $r-updates $comps" \
    "deb $SECURITY_MIRROR $r-security $comps"
}

log() { printf '[image %(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

need_root() { [ "$(id -u)" = 0 ] || die "the image build runs as root (mmdebstrap --mode=root, chown in the tree)"; }

# Version of shelldon: pyproject's version if there is one, else the git describe.
shelldon_version() {
  local v=""
  if [ -f "$REPO_DIR/pyproject.toml" ]; then
    v=$(python3 - "$REPO_DIR/pyproject.toml" <<'PY'
import sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))
print(d.get("project", {}).get("version", ""))
PY
)
  fi
  if [ -z "$v" ] && [ -f "$REPO_DIR/Cargo.toml" ]; then
    v=$(python3 - "$REPO_DIR/Cargo.toml" <<'PY'
import sys, tomllib
print(tomllib.load(open(sys.argv[1], "rb")).get("package", {}).get("version", ""))
PY
)
  fi
  [ -n "$v" ] || v=0.0.0
  printf '%s\n' "$v"
}

# Key of a layer: hash of the named files' contents and the given strings. Contents only, not the
# files' paths: another clone or work tree of the same sources finds the same cached layer.
layer_key() {
  { for a in "$@"; do
      if [ -f "$a" ]; then sha256sum < "$a"; else printf '%s\n' "$a"; fi
    done; } | sha256sum | cut -c1-16
}

# Keep the cache bounded: of the files matching PATTERN keep KEEP and the 5 newest others (layers
# of other work trees' versions), delete the rest.
prune_cache() {  # prune_cache PATTERN KEEP
  local pattern=$1 keep=$2 f n=0
  for f in $(ls -t "$CACHE_DIR"/$pattern 2>/dev/null); do
    [ "$f" = "$keep" ] && continue
    n=$((n + 1))
    [ $n -gt 5 ] && rm -f "$f"
  done
  return 0
}

ensure_binfmt() {
  if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  fi
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "no binfmt handler for aarch64 (qemu-user-static)"
}

# Run a command inside a tree with /proc mounted, in a private mount namespace (nothing to clean up
# and nothing leaks to the host, whatever happens).
in_root() {  # in_root ROOT CMD...
  local r=$1; shift
  unshare --mount --propagation private --fork -- sh -c \
    'r=$1; shift; mount -t proc proc "$r/proc" && mount -t tmpfs tmpfs "$r/run" && exec chroot "$r" "$@"' \
    in_root "$r" "$@"
}
