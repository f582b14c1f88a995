#!/usr/bin/env bash
# Generates the benchmark files (once) and runs every FLAC decoder on them.
# Usage: benchmarks/flac/run-benchmark.sh [BUILD_DIR] [FILES_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
dir=${2:-$build/benchmarks/flac/files}
"$root/benchmarks/flac/generate-bench-files.sh" "$build" "$dir"
export GST_PLUGIN_PATH_1_0="$build/ext/cuda${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
export GST_REGISTRY="$build/benchmarks/flac/bench.registry"
"$build/benchmarks/flac/flac-gst-bench" --repeat "${BENCH_REPEAT:-1}" \
  "$dir/music-16bit-48k-stereo-best.flac" "$dir/music-16bit-48k-stereo-0.flac" "$dir/music-24bit-96k-6ch.flac"
echo
echo "library level (no GStreamer), CPU backend vs libFLAC:"
for f in "$dir"/*.flac; do echo "$f"; "$build/benchmarks/flac/flac-cpu-bench" "$f" 1; done
