#!/bin/bash
# The fast check's root: an amd64 Debian root built the same way as the appliance (same release,
# same overlay, same layer script), natively, in seconds when the base layer is cached.
#   image/checkroot.sh ROOT_DIR [NATIVE_SO]
# NATIVE_SO: an amd64 build of the extension (`just dev` leaves one in python/shelldon/).
source "$(dirname "$0")/common.sh"
need_root
root=${1:?root dir}
base=$("$IMAGE_DIR/base.sh" amd64)
"$IMAGE_DIR/layer.sh" "$base" "$root" amd64 "${2:-}"
