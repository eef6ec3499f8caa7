#!/bin/bash
# The update bundle of the last `just image`: its release (/opt/shelldon/releases/<release> of
# out/root), signed with the build machine's key (the one whose public half the image carries).
#   image/bundle.sh  -> out/shelldon-<release>.bundle   (`shelldon update FILE|URL` on a card, or
#                       shelldon-update.bundle on its FAT partition; docs/image.md, "Updates")
source "$(dirname "$0")/common.sh"
need_root
root=$OUT_DIR/root
[ -L "$root/opt/shelldon/current" ] || die "no release in $root: run \`just image\` first"
release=$(basename "$(readlink "$root/opt/shelldon/current")")
key=${SHELLDON_UPDATE_SIGNING_KEY:-$CACHE_DIR/update-signing.pem}
[ -s "$key" ] || die "no signing key at $key (\`just image\` makes it)"
out=$OUT_DIR/shelldon-$release.bundle
PYTHONPATH=$REPO_DIR/python python3 -m shelldon.appliance.update make-bundle \
  "$root/opt/shelldon/releases/$release" --version "$release" --key "$key" --out "$out" >/dev/null
log "bundle: $out ($(du -h "$out" | cut -f1)), release $release"
echo "$out"
