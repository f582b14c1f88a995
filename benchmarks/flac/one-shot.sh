#!/usr/bin/env bash
# One-shot decodes, as a user's command line runs them: the whole process's
# wall time (start-up, CUDA start-up, decoding, teardown) of decoding each
# benchmark file once to nothing, in one run, for `flac -d` (libFLAC, MD5
# checked), `flacparse ! flacdec` (no MD5) and cudaflacdec (unframed, with
# and without its MD5 check, each backend). Prints the median of REPEAT runs
# (default 3) and the speed-up over flacdec and over flac -d.
# Usage: benchmarks/flac/one-shot.sh BUILD_DIR FILES_DIR
# PROPS="a|b c|..." replaces the cudaflacdec rows (each an element's
# properties, "" the defaults); FILES="best 0 song 6ch" picks files.
set -uo pipefail
source "$(dirname "$0")/bench-setup.sh" "${1:-}" "${2:-}" one-shot
repeat=${REPEAT:-3}
gst-inspect-1.0 cudaflacdec > /dev/null 2>&1 # registry made before timing
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /'
echo "CPU: $(nproc) cores; $(gst-launch-1.0 --version | head -1); $(flac --version)"

# Median wall time in ms of `repeat` runs of the command.
median_ms () {
  local times=() t0 i
  for ((i = 0; i < repeat; i++)); do
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; echo 0; return; }
    times+=("$(ms "$t0")")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (repeat + 1) / 2 ))p"
}

gstdec () { # file, then the decoder part of the pipeline
  local file=$1
  shift
  timeout 300 gst-launch-1.0 -q filesrc location="$file" ! "$@" ! fakesink
}

declare -A files=([best]=music-16bit-48k-stereo-best.flac [0]=music-16bit-48k-stereo-0.flac
  [song]=song-16bit-44k-stereo.flac [6ch]=music-24bit-96k-6ch.flac)
IFS='|' read -r -a rows <<< "${PROPS-|check-md5=false|backend=cpu|backend=cpu check-md5=false|backend=cuda|backend=cuda check-md5=false}"
for key in ${FILES:-best 0 song 6ch}; do
  file=$dir/${files[$key]}
  cat "$file" > /dev/null # page cache
  echo "== $(basename "$file") ($(( $(stat -c %s "$file") / 1000000 )) MB)"
  ref=$(median_ms gstdec "$file" flacparse ! flacdec)
  tool=$(median_ms flac -d -s -c "$file")
  printf '  %-44s %7d ms\n' "flac -d (MD5)" "$tool" "flacparse ! flacdec" "$ref"
  for props in "${rows[@]}"; do
    t=$(median_ms gstdec "$file" cudaflacdec $props)
    [ "$t" -gt 0 ] || { printf '  %-44s failed\n' "cudaflacdec $props"; continue; }
    awk -v n="cudaflacdec ${props:-(defaults: auto, MD5)}" -v t="$t" -v r="$ref" -v f="$tool" \
      'BEGIN { printf "  %-44s %7d ms  %5.1fx flacdec  %5.1fx flac -d\n", n, t, r / t, f / t }'
  done
done
