#!/usr/bin/env bash
# Regenerates the small FLAC files the cudaflacdec element tests fall back to
# where the flac command-line tool is missing (e.g. on the GPU machine).
# Usage: tests/media/flac/generate.sh BUILD_DIR   (needs benchmarks/flac/flac-bench-gen and flac)
set -euo pipefail
build=${1:?build dir}
gen="$build/benchmarks/flac/flac-bench-gen"
here=$(cd "$(dirname "$0")" && pwd)
raw=(--force-raw-format --endian=little --sign=signed)
enc () { # name channels bps rate seconds seed flac-options...
  local name=$1 ch=$2 bps=$3 rate=$4 secs=$5 seed=$6
  shift 6
  "$gen" "$ch" "$bps" "$rate" "$secs" "$seed" |
    flac -s -f "${raw[@]}" --channels="$ch" --bps="$bps" --sample-rate="$rate" "$@" -o "$here/$name.flac" -
}
enc g16   2 16 44100 2.0 11 -5 -T TITLE=gpc-title
enc g24x6 6 24 48000 0.4 12 -8
enc g16x8 8 16 44100 0.3 13 -5
enc g32   2 32 48000 0.4 14 -8
enc pc2   1 24 48000 0.5 15 -5
ls -l "$here"/*.flac
