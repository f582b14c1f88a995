#!/bin/sh
# gst-gpucodecs: makes the ProRes benchmark clips (not committed) with Debian's
# ffmpeg / prores_ks (SPDX-License-Identifier: LGPL-2.1-or-later).
# Usage: make-clips.sh [folder] [frames] [clips]
#   (default: ./prores-clips, 120 frames, "hq_1080p hq_2160p 4444_2160p")
# Clips: hq_1080p.mov (1920x1080 4:2:2 HQ), hq_2160p.mov (3840x2160 4:2:2 HQ),
# 4444_1080p.mov and 4444_2160p.mov (4:4:4 + 16-bit alpha); testsrc2 with
# noise. The pipeline benchmark (pipeline-bench.sh) carries 1080p frames only:
#   make-clips.sh .devkit/clips 2 "hq_1080p 4444_1080p"
set -eu
out=${1:-prores-clips}
frames=${2:-120}
names=${3:-hq_1080p hq_2160p 4444_2160p}
mkdir -p "$out"
ff="ffmpeg -nostdin -v error -y"
src="testsrc2=rate=25:size"
for name in $names; do
  case $name in
    *_1080p) size=1920x1080 ;;
    *_2160p) size=3840x2160 ;;
    *) echo "make-clips: unknown clip $name"; exit 2 ;;
  esac
  case $name in
    hq_*) $ff -f lavfi -i "$src=$size,noise=alls=6:allf=t,format=yuv422p10le" -frames:v "$frames" \
      -c:v prores_ks -profile:v hq "$out/$name.mov" ;;
    4444_*) $ff -f lavfi -i "$src=$size,noise=alls=6:allf=t,format=yuva444p10le" -frames:v "$frames" \
      -c:v prores_ks -profile:v 4444 -alpha_bits 16 "$out/$name.mov" ;;
    *) echo "make-clips: unknown clip $name"; exit 2 ;;
  esac
done
ls -l "$out"
