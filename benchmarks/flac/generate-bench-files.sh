#!/usr/bin/env bash
# Generates the FLAC benchmark files (not committed) into DIR:
#   music-16bit-48k-stereo-best.flac  4620 s, 16-bit stereo 48 kHz, flac --best --no-seektable
#   music-16bit-48k-stereo-0.flac     the same audio, flac -0 --no-seektable
#   music-24bit-96k-6ch.flac          24-bit 96 kHz 6 channels (BENCH_6CH_SECONDS, default 600 s), flac -5
#   song-16bit-44k-stereo.flac        a 3-minute song, 16-bit stereo 44.1 kHz, flac -5 (with a seek table)
# Usage: generate-bench-files.sh BUILD_DIR DIR   (BUILD_DIR holds benchmarks/flac/flac-bench-gen)
# BENCH_SECONDS overrides 4620 (e.g. for a quick try).
set -euo pipefail
build=${1:?build dir}
dir=${2:?output dir}
gen="$build/benchmarks/flac/flac-bench-gen"
secs=${BENCH_SECONDS:-4620}
secs6=${BENCH_6CH_SECONDS:-600}
mkdir -p "$dir"
raw=(--force-raw-format --endian=little --sign=signed)
if [ ! -f "$dir/music-16bit-48k-stereo-best.flac" ] || [ ! -f "$dir/music-16bit-48k-stereo-0.flac" ]; then
  echo "generating $secs s of 16-bit stereo 48 kHz music-like audio"
  "$gen" 2 16 48000 "$secs" 1 > "$dir/music-16.raw"
  flac -s -f "${raw[@]}" --channels=2 --bps=16 --sample-rate=48000 --best --no-seektable \
    -o "$dir/music-16bit-48k-stereo-best.flac" "$dir/music-16.raw" &
  flac -s -f "${raw[@]}" --channels=2 --bps=16 --sample-rate=48000 -0 --no-seektable \
    -o "$dir/music-16bit-48k-stereo-0.flac" "$dir/music-16.raw" &
  wait
  rm -f "$dir/music-16.raw"
fi
if [ ! -f "$dir/music-24bit-96k-6ch.flac" ]; then
  echo "generating $secs6 s of 24-bit 96 kHz 6-channel music-like audio"
  "$gen" 6 24 96000 "$secs6" 2 | flac -s -f "${raw[@]}" --channels=6 --bps=24 --sample-rate=96000 -5 \
    --no-seektable -o "$dir/music-24bit-96k-6ch.flac" -
fi
if [ ! -f "$dir/song-16bit-44k-stereo.flac" ]; then
  echo "generating a 180 s song, 16-bit stereo 44.1 kHz"
  "$gen" 2 16 44100 180 3 | flac -s -f "${raw[@]}" --channels=2 --bps=16 --sample-rate=44100 -5 \
    -o "$dir/song-16bit-44k-stereo.flac" -
fi
ls -l "$dir"/*.flac
