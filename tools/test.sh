#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite on the local
# Vulkan device (lavapipe on a machine without a GPU) with validation layers on.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
meson test -C "${BUILD_DIR:-$root/build}" --print-errorlogs --num-processes "$(nproc)" "$@"
