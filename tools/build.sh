#!/usr/bin/env bash
# Configures (once) and builds the project in ./build (or $BUILD_DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$root" "$@"
fi
meson compile -C "$build"
