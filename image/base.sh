#!/bin/bash
# Layer 1: the Debian root as a tarball, cached by its inputs.
#   image/base.sh arm64   -> $CACHE_DIR/base-arm64-<key>.tar   (the appliance root)
#   image/base.sh amd64   -> $CACHE_DIR/base-amd64-<key>.tar   (the root of the fast CI check)
#   image/base.sh newcomer -> $CACHE_DIR/base-newcomer-<key>.tar (the README's box: python3, venv, cargo)
# Prints the tarball's path on stdout.
source "$(dirname "$0")/common.sh"
need_root
flavour=${1:?usage: base.sh arm64|amd64|newcomer}
arch=$flavour
case $flavour in
  arm64) pkgs=("${APPLIANCE_PACKAGES[@]}"); ensure_binfmt ;;
  amd64) pkgs=("${CHECK_PACKAGES[@]}") ;;
  newcomer) pkgs=("${NEWCOMER_PACKAGES[@]}"); arch=$(dpkg --print-architecture) ;;
  *) die "unknown flavour $flavour" ;;
esac
# The key: what goes into the layer (release, architecture, packages, the mmdebstrap recipe, the hooks), not this
# script's other lines, so logging or cache housekeeping here does not rebuild 20 minutes of layer.
BASE_RECIPE="mmdebstrap --mode=root --format=tar --variant=minbase, path-excludes doc/man/locale/info v1"
key=$(layer_key "$RELEASE" "$arch" "${pkgs[*]}" "$BASE_RECIPE" "$IMAGE_DIR/hooks/base-essential.sh" \
  "$IMAGE_DIR/hooks/base-customize.sh" "$IMAGE_DIR/hooks/initramfs-modules")
tar=$CACHE_DIR/base-$flavour-$key.tar
if [ -s "$tar" ]; then
  log "base layer $flavour cached: $tar"
  echo "$tar"; exit 0
fi
mkdir -p "$CACHE_DIR"
log "building base layer $flavour ($RELEASE, ${#pkgs[@]} packages) -> $tar"
start=$(date +%s)
tmp=$CACHE_DIR/tmp-$$-base-$flavour.tar
trap 'rm -f "$tmp"' EXIT
mapfile -t srcs < <(sources_for "$RELEASE")
IFS=,
mmdebstrap --mode=root --format=tar --variant=minbase --architectures="$arch" \
  --include="${pkgs[*]}" \
  --aptopt='Acquire::Retries "3"' \
  --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --essential-hook="$IMAGE_DIR/hooks/base-essential.sh \"\$1\" $arch" \
  --customize-hook="$IMAGE_DIR/hooks/base-customize.sh \"\$1\"" \
  "$RELEASE" "$tmp" "${srcs[@]}"
unset IFS
mv "$tmp" "$tar"
prune_cache "base-$flavour-*.tar" "$tar"
log "base layer $flavour built in $(( $(date +%s) - start )) s, $(du -h "$tar" | cut -f1)"
echo "$tar"
