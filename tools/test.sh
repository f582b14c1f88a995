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
# Summary from meson's JSON log: one line per test.
python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
counts = {"OK": 0, "FAIL": 0, "SKIP": 0, "TIMEOUT": 0, "EXPECTEDFAIL": 0, "UNEXPECTEDPASS": 0, "ERROR": 0}
for line in open(sys.argv[1]):
    r = json.loads(line).get("result", "ERROR")
    counts[r] = counts.get(r, 0) + 1
failed = counts["FAIL"] + counts["TIMEOUT"] + counts["ERROR"] + counts["UNEXPECTEDPASS"]
print(f"{counts['OK'] + counts['EXPECTEDFAIL']} passed, {failed} failed, {counts['SKIP']} skipped")
PY
exit $rc
