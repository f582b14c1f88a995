#!/usr/bin/env bash
# Regenerates the demo clip with Debian's ffmpeg: 4 s of moving test pattern,
# 320x180, H.264 in MP4 (small enough to commit).
set -euo pipefail
cd "$(dirname "$0")"
ffmpeg -loglevel error -y -f lavfi -i "testsrc2=size=320x180:rate=25,noise=alls=8:allf=t" \
  -t 4 -pix_fmt yuv420p -c:v libx264 -preset veryslow -crf 30 -movflags +faststart demo.mp4
