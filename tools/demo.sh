#!/usr/bin/env bash
# Installs what is missing, builds, and runs a demo pipeline on the bundled
# clip: H.264 decoded on the CPU, VMAF motion computed on the Vulkan device
# (lavapipe on a machine without a GPU), results printed from the log file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/tools/install-deps.sh"
"$root/tools/build.sh"
build=${BUILD_DIR:-$root/build}
export GST_PLUGIN_PATH="$build/ext/vulkan:$build/ext/cuda${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
out=$(mktemp -d)
echo "== vkvmafmotion on tests/media/demo/demo.mp4"
gst-launch-1.0 -q filesrc location="$root/tests/media/demo/demo.mp4" ! qtdemux ! h264parse ! \
  avdec_h264 ! vkvmafmotion results-location="$out/motion.csv" results-format=csv ! fakesink
echo "frame, integer_motion, integer_motion2, integer_motion3 (first 10 frames; all in $out/motion.csv):"
head -11 "$out/motion.csv"
echo "== the same frames uploaded to the GPU first (memory:VulkanImage, no readback)"
gst-launch-1.0 -q filesrc location="$root/tests/media/demo/demo.mp4" ! qtdemux ! h264parse ! \
  avdec_h264 ! videoconvert ! video/x-raw,format=NV12 ! vulkanupload ! \
  vkvmafmotion results-location="$out/motion-gpu.csv" results-format=csv ! fakesink
if cmp -s "$out/motion.csv" "$out/motion-gpu.csv"; then
  echo "identical scores from system memory and from Vulkan images"
else
  echo "scores differ between the two paths"; exit 1
fi
