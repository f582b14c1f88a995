#!/usr/bin/env bash
# Installs the build into a temporary DESTDIR and builds and runs a C program
# against the installed public library only (pkg-config
# gstreamer-gpucodecs-1.0, <gst/gpucodecs/...> headers), as an application
# outside the project would: the install must carry the headers, the
# library and a correct .pc file.
# Usage: tools/check-install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
meson install -C "$build" --destdir "$dest" --no-rebuild --quiet > /dev/null
pc=$(find "$dest" -name gstreamer-gpucodecs-1.0.pc | head -1)
[ -n "$pc" ] || { echo "check-install: no gstreamer-gpucodecs-1.0.pc installed"; exit 1; }
# The .pc file as installed, relocated into DESTDIR (its Requires stay the
# system's).
prefix=$(sed -n 's/^prefix=//p' "$pc")
mkdir -p "$dest/pc"
sed "s|^prefix=.*|prefix=$dest$prefix|" "$pc" > "$dest/pc/gstreamer-gpucodecs-1.0.pc"
flags=$(PKG_CONFIG_PATH="$dest/pc" pkg-config --cflags --libs gstreamer-gpucodecs-1.0)
echo "check-install: cc $flags"
${CC:-cc} -o "$dest/meta-c" "$src/tests/vvcalf/test-vvcalf-meta-c.c" $flags
LD_LIBRARY_PATH=$(dirname "$(find "$dest" -name 'libgstgpucodecs-1.0.so' | head -1)") "$dest/meta-c"
echo "check-install: the installed public library works from C"
