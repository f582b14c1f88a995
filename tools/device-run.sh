#!/usr/bin/env bash
# Runs on the GPU machine (see docs/device-kit.md): the test programs of the
# build directory and the benchmarks, logs into $OUT (or ./device-out).
# Usage: tools/device-run.sh [tests|bench|all]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
kit=${DEVKIT_DIR:-.devkit}  # .devkit-debian13: the GStreamer 1.26 kit
source "$kit/env.sh"
build=${BUILD_DIR:-$kit/build}
out=${OUT:-$root/device-out}
mkdir -p "$out"
what=${1:-all}
export GST_PLUGIN_PATH="$root/$build/ext/vulkan:$root/$build/ext/cuda"
# Vectors a run carries go in .devkit/vectors (the shared folder does not travel).
vec="$root/shared/vectors"; [ -d "$root/$kit/vectors" ] && vec="$root/$kit/vectors"
export GPC_VECTORS_DIR="$vec" GPC_MEDIA_DIR="$root/tests/media" CK_DEFAULT_TIMEOUT=600
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$out/gpu.txt"
status=0
if [ "$what" = tests ] || [ "$what" = all ]; then
  for t in $(find "$build/tests" -type f -name 'test-*' -perm -u+x | sort); do
    name=$(basename "$t")
    VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation GST_REGISTRY=/tmp/$name.registry \
      timeout "${DEVICE_TEST_TIMEOUT:-300}" "$t" > "$out/$name.log" 2>&1
    rc=$?
    case $rc in 0) r=PASS;; 77) r=SKIP;; *) r="FAIL($rc)"; status=1;; esac
    echo "$r $name"; grep -E "Checks|SKIP|seed|Vulkan device" "$out/$name.log" | head -4 | sed 's/^/    /'
  done
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  for b in $(find "$build/benchmarks" -type f -name 'bench-*' -perm -u+x | sort); do
    name=$(basename "$b")
    timeout 600 "$b" 2>&1 | tee "$out/$name.txt"
  done
fi
exit $status
