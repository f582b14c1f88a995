#!/bin/sh
# gst-gpucodecs: decoding speed of FFmpeg's software ProRes decoder, the CPU
# peer of vkproresdec (SPDX-License-Identifier: LGPL-2.1-or-later).
# Usage: ffmpeg-baseline.sh clip.mov [clip.mov ...]   (clips from make-clips.sh)
# Prints frames per second of "ffmpeg -threads 0 -c:v prores -i clip -f null -"
# (all cores, decode only, best of 3 runs).
set -eu
for clip in "$@"; do
  frames=$(ffprobe -v error -count_packets -select_streams v:0 \
    -show_entries stream=nb_read_packets -of csv=p=0 "$clip")
  best=""
  for run in 1 2 3; do
    t0=$(date +%s.%N)
    ffmpeg -nostdin -v error -threads 0 -c:v prores -i "$clip" -f null -
    t1=$(date +%s.%N)
    fps=$(echo "$frames / ($t1 - $t0)" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$fps > $best" | bc -l)" = 1 ]; then best=$fps; fi
  done
  printf '%-40s %5d frames  %8.1f fps (ffmpeg -threads 0, %s cores)\n' "$clip" "$frames" "$best" "$(nproc)"
done
