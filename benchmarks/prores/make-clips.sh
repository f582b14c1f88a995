#!/bin/sh
# gst-gpucodecs: makes the ProRes benchmark clips (not committed) with Debian's
# ffmpeg / prores_ks (SPDX-License-Identifier: LGPL-2.1-or-later).
# Usage: make-clips.sh [folder] [frames]    (default: ./prores-clips, 120 frames)
# Writes hq_1080p.mov (1920x1080 4:2:2 HQ), hq_2160p.mov (3840x2160 4:2:2 HQ)
# and 4444_2160p.mov (3840x2160 4:4:4 + 16-bit alpha).
set -eu
out=${1:-prores-clips}
frames=${2:-120}
mkdir -p "$out"
ff="ffmpeg -nostdin -v error -y"
src="testsrc2=rate=25:size"
$ff -f lavfi -i "$src=1920x1080,noise=alls=6:allf=t,format=yuv422p10le" -frames:v "$frames" \
  -c:v prores_ks -profile:v hq "$out/hq_1080p.mov"
$ff -f lavfi -i "$src=3840x2160,noise=alls=6:allf=t,format=yuv422p10le" -frames:v "$frames" \
  -c:v prores_ks -profile:v hq "$out/hq_2160p.mov"
$ff -f lavfi -i "$src=3840x2160,noise=alls=6:allf=t,format=yuva444p10le" -frames:v "$frames" \
  -c:v prores_ks -profile:v 4444 -alpha_bits 16 "$out/4444_2160p.mov"
ls -l "$out"
