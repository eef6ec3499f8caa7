#!/bin/bash
# The Rust extension for aarch64, cross-compiled with Debian's own toolchain: rustc-web/cargo-web
# 1.96 and the arm64 standard library (libstd-rust-web-dev:arm64) from Debian 12's security suite,
# linked by gcc-aarch64-linux-gnu, in a cached amd64 build root (rustup here has no other target).
# Crates are vendored on the host (`cargo vendor`); the build itself is offline.
#   image/native.sh OUT_DIR   -> prints OUT_DIR/_native.abi3.so (an aarch64 ELF, checked)
# Prints nothing (and says why) when the repo has no crate yet.
source "$(dirname "$0")/common.sh"
need_root
out=${1:?out dir}
if [ ! -f "$REPO_DIR/Cargo.toml" ]; then
  log "WARNING: no Cargo.toml in the repo yet: no native module in this image"; exit 0
fi
# Keyed on what makes the build root (not on this script: the build steps below change more often).
BUILDER_RECIPE="mmdebstrap --variant=apt --architectures=amd64,arm64 v1"
key=$(layer_key "$BUILDER_RELEASE" "${BUILDER_PACKAGES[*]}" "$BUILDER_RECIPE")
tar=$CACHE_DIR/builder-amd64-$key.tar
bdir=$CACHE_DIR/builder-$key
mkdir -p "$CACHE_DIR"
if [ ! -s "$tar" ]; then
  log "building the cross-build root ($BUILDER_RELEASE amd64 + arm64 std) -> $tar"
  tmp=$CACHE_DIR/tmp-$$-builder.tar
  trap 'rm -f "$tmp"' EXIT
  mapfile -t srcs < <(sources_for "$BUILDER_RELEASE")
  (IFS=,; mmdebstrap --mode=root --format=tar --variant=apt --architectures=amd64,arm64 \
    --include="${BUILDER_PACKAGES[*]}" --aptopt='Acquire::Retries "3"' \
    "$BUILDER_RELEASE" "$tmp" "${srcs[@]}")
  mv "$tmp" "$tar"
  prune_cache "builder-amd64-*.tar" "$tar"
fi
if [ ! -x "$bdir/usr/bin/aarch64-linux-gnu-gcc" ]; then
  rm -rf "$bdir"; mkdir -p "$bdir"
  tar -C "$bdir" --numeric-owner -xpf "$tar"
  for d in "$CACHE_DIR"/builder-*/; do [ "${d%/}" = "$bdir" ] || rm -rf "${d%/}"; done
fi

log "vendoring crates on the host"
src=$bdir/build/src
rm -rf "$src"; mkdir -p "$src/.cargo" "$bdir/build/target"
cp "$REPO_DIR/Cargo.toml" "$src/"
[ -f "$REPO_DIR/Cargo.lock" ] && cp "$REPO_DIR/Cargo.lock" "$src/"
[ -f "$REPO_DIR/build.rs" ] && cp "$REPO_DIR/build.rs" "$src/"
cp -a "$REPO_DIR/rust" "$src/"
# pyproject/README may be referenced by Cargo.toml (readme, include): copy the small top-level files.
for f in pyproject.toml README.md LICENSE; do [ -f "$REPO_DIR/$f" ] && cp "$REPO_DIR/$f" "$src/"; done
(cd "$src" && cargo vendor --quiet --locked --versioned-dirs vendor)
cat > "$src/.cargo/config.toml" <<'TOML'
[source.crates-io]
replace-with = "vendored-sources"
[source.vendored-sources]
directory = "vendor"
TOML
libname=$(python3 - "$src/Cargo.toml" <<'PY'
import sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))
print(d.get("lib", {}).get("name") or d["package"]["name"].replace("-", "_"))
PY
)

log "cross-compiling lib$libname.so for aarch64 with Debian's rustc-web"
mounted=()
cleanup() { for m in "${mounted[@]}"; do umount -l "$m" 2>/dev/null || true; done; }
trap cleanup EXIT
mount -t proc proc "$bdir/proc"; mounted+=("$bdir/proc")
mount --bind /dev "$bdir/dev"; mounted+=("$bdir/dev")
start=$(date +%s)
chroot "$bdir" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/build CARGO_HOME=/build/cargo-home \
  CARGO_TARGET_DIR=/build/target CARGO_PROFILE_RELEASE_STRIP=symbols \
  CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
  PYO3_CROSS_PYTHON_VERSION=3.11 \
  sh -c 'cd /build/src && rustc --version && cargo --version &&
         cargo build --release --offline --lib --features extension-module --target aarch64-unknown-linux-gnu' >&2
cleanup; mounted=()
so=$bdir/build/target/aarch64-unknown-linux-gnu/release/lib$libname.so
[ -f "$so" ] || die "no $so after the build"
desc=$(file -b "$so")
log "built in $(( $(date +%s) - start )) s: $desc"
case $desc in
  *"ELF 64-bit LSB shared object, ARM aarch64"*) ;;
  *) die "the native module is not an aarch64 ELF: $desc" ;;
esac
mkdir -p "$out"
install -m 0644 "$so" "$out/_native.abi3.so"
echo "$out/_native.abi3.so"
