#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite on the local
# Vulkan device (lavapipe on a machine without a GPU) with validation layers on.
# Ends with a line "N passed, N failed, N skipped".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
rc=0
# Without a display, Xvfb gives the vulkansink test (frames shown by
# vulkansink at the end of our GPU chains) a screen to open its window on.
runner=()
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run > /dev/null; then
  runner=(xvfb-run -a -s "-screen 0 1280x720x24")
fi
"${runner[@]}" meson test -C "$build" --print-errorlogs --num-processes "$(nproc)" "$@" || rc=$?
# The closing "N passed, N failed, N skipped" line, from meson's JSON log.
python3 "$root/tools/test-summary.py" "$build/meson-logs/testlog.json"
exit $rc
