#!/bin/bash
# Host tools for the image build and its tests, from Debian's packages. Idempotent; quick when
# everything is there (dpkg-query only, no apt-get update).
#   image/deps.sh check   tools of the fast CI check (systemd-analyze, nspawn, mmdebstrap)
#   image/deps.sh build   + arm64 emulation, disk image tools
#   image/deps.sh test    + qemu-system-aarch64 for the boot test
set -euo pipefail
what=${1:-check}
pkgs=(mmdebstrap systemd-container fdisk e2fsprogs strace espeak-ng opus-tools)  # strace: tests/core/storage/test_durability.py counts fsyncs; espeak-ng, opus-tools: the voice-note tests (tests/support/audio.py)
case $what in
  check) ;;
  build) pkgs+=(arch-test qemu-user-static binfmt-support dosfstools mtools xz-utils file bmap-tools) ;;
  test)  pkgs+=(arch-test qemu-user-static binfmt-support dosfstools mtools xz-utils file bmap-tools qemu-system-arm ipxe-qemu) ;;
  *) echo "usage: deps.sh check|build|test" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "image/deps.sh: missing ${missing[*]} and not root: cannot install" >&2; exit 1
fi
echo "image/deps.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
