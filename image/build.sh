#!/bin/bash
# `just image`: the flashable SD-card image, layer by layer.
#   1. base layer   image/base.sh arm64    (cached tarball; ~10 min under emulation when it changes)
#   2. native       image/native.sh        (aarch64 .so by cross-compiling; incremental)
#   3. shelldon     image/layer.sh         (overlay, package, users, units: ~1 min)
#   4. disk         image/disk.sh          (no loop devices) -> out/shelldon-<version>-arm64.img
#   5. bmap (bmaptool: which blocks hold data, for a fast verified write) + xz + sha256
# Also leaves out/vmlinuz, out/initrd.img (for the boot test) and out/build-times.txt.
source "$(dirname "$0")/common.sh"
need_root
"$IMAGE_DIR/deps.sh" build
ensure_binfmt
mkdir -p "$OUT_DIR"
version=$(shelldon_version)
name=shelldon-$version-arm64
times=$OUT_DIR/build-times.txt
: > "$times"
step() { local s=$(date +%s); "$@"; printf '%-8s %4d s\n' "$STEP" $(( $(date +%s) - s )) >> "$times"; }

STEP=base;   step "$IMAGE_DIR/base.sh" arm64 > "$OUT_DIR/.base"
base=$(cat "$OUT_DIR/.base")
STEP=native; step "$IMAGE_DIR/native.sh" "$OUT_DIR/native" > "$OUT_DIR/.native"
native=$(cat "$OUT_DIR/.native")
root=$OUT_DIR/root
STEP=layer;  step "$IMAGE_DIR/layer.sh" "$base" "$root" arm64 "$native"
if [ -n "$native" ]; then
  desc=$(file -b "$root/opt/shelldon/current/lib/shelldon/_native.abi3.so")
  case $desc in *"ARM aarch64"*) log "native module in the image: $desc" ;; *) die "native module in the image is $desc" ;; esac
fi
kver=$(basename "$(ls -d "$root"/lib/modules/* | sort -V | tail -n1)")
cp "$root/boot/vmlinuz-$kver" "$OUT_DIR/vmlinuz"
cp "$root/boot/initrd.img-$kver" "$OUT_DIR/initrd.img"
img=$OUT_DIR/$name.img
STEP=disk;   step "$IMAGE_DIR/disk.sh" "$root" "$img"
STEP=bmap;   step sh -c 'bmaptool create -o "$1.bmap" "$1"' bmap "$img"
STEP=xz;     step xz -T2 -3 -k -f "$img"
STEP=bundle; step "$IMAGE_DIR/bundle.sh" > /dev/null
(cd "$OUT_DIR" && sha256sum "$name.img.xz" "$name.img.bmap" > "$name.img.xz.sha256")
ln -sfn "$name.img" "$OUT_DIR/shelldon-arm64.img"
log "image: $OUT_DIR/$name.img.xz ($(du -h "$img.xz" | cut -f1); $(du -h --apparent-size "$img" | cut -f1) raw, $(du -h "$img" | cut -f1) of it data) + $name.img.bmap"
cat "$times" >&2
