# Sourced by the FLAC benchmark scripts that run gst-launch on the benchmark
# files: BUILD_DIR and FILES_DIR from $1 and $2, the files generated once,
# the build's plugin and a registry of the caller's own, the --best file in
# the page cache as $f, and ms T0 (milliseconds since T0 from date +%s%N).
# Usage: source bench-setup.sh BUILD_DIR FILES_DIR REGISTRY_NAME
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:?build dir}
dir=${2:?files dir}
"$root/benchmarks/flac/generate-bench-files.sh" "$build" "$dir" >&2
export GST_PLUGIN_PATH_1_0="$build/ext/cuda${GST_PLUGIN_PATH_1_0:+:$GST_PLUGIN_PATH_1_0}"
export GST_REGISTRY=/tmp/${3:?registry name}.registry
f="$dir/music-16bit-48k-stereo-best.flac"
cat "$f" > /dev/null # page cache
ms () { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
