#!/usr/bin/env bash
# Regenerates the VMAF test clips and their libvmaf expectations.
#
# Each clip is a few frames of generated, real-looking content coded at a low
# rate with x264 or x265 (Debian's ffmpeg) and decoded back: REF is the luma
# before coding, DIST after. Both are stored as raw luma planes (one byte per
# sample at 8 bit, two little-endian above), gzip-compressed: NAME.ref.gz,
# NAME.dist.gz. NAME.expect holds libvmaf's values for every frame, printed by
# tools/vmaf-expect.c with full double precision.
#
# Usage: tests/media/vmaf/generate.sh LIBVMAF_SOURCE | --installed PREFIX MODEL_DIR
#   (tools/build-libvmaf.sh builds libvmaf and vmaf-expect; nothing of
#   libvmaf is committed, only the printed numbers.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ "${1:-}" = --installed ]; then
  eval "$("$root/tools/build-libvmaf.sh" --out "$work/lv" --installed "$2")"
  LIBVMAF_MODELS=$3
else
  eval "$("$root/tools/build-libvmaf.sh" --out "$work/lv" "$1")"
fi
version=$(PKG_CONFIG_PATH=$LIBVMAF_LIBDIR/pkgconfig pkg-config --modversion libvmaf)

# name  source(lavfi or file)  coded-size  bpc  frames  encoder  crf  stored-size
clips=(
  "testsrc2-320x180-8bit|testsrc2=size=320x180:rate=25,noise=alls=6:allf=t|320x180|8|5|libx264|42|320x180"
  "mandelbrot-176x144-10bit|mandelbrot=size=176x144:rate=25|176x144|10|5|libx265|34|176x144"
  "demo-256x144-12bit|$root/tests/media/demo/demo.mp4|256x144|12|5|libx265|36|256x144"
  "demo-odd-191x107-8bit|$root/tests/media/demo/demo.mp4|192x108|8|5|libx264|40|191x107"
  "cellauto-odd-129x75-10bit|cellauto=size=130x76:rate=25:rule=18:seed=7,boxblur=2|130x76|10|4|libx265|30|129x75"
)

: > "$here/clips.txt"
for c in "${clips[@]}"; do
  IFS='|' read -r name src coded bpc frames enc crf stored <<< "$c"
  case $bpc in 8) fmt=yuv420p ;; 10) fmt=yuv420p10le ;; 12) fmt=yuv420p12le ;; esac
  cw=${coded%x*}; ch=${coded#*x}; sw=${stored%x*}; sh=${stored#*x}
  if [ -f "$src" ]; then input=(-i "$src" -vf "scale=$cw:$ch:flags=bicubic"); else input=(-f lavfi -i "$src"); fi
  ffmpeg -loglevel error -y "${input[@]}" -frames:v "$frames" -pix_fmt "$fmt" -f rawvideo "$work/src.yuv"
  ffmpeg -loglevel error -y -f rawvideo -pix_fmt "$fmt" -s "$coded" -r 25 -i "$work/src.yuv" \
    -c:v "$enc" -crf "$crf" -preset medium -bf 2 \
    $([ "$enc" = libx265 ] && echo "-x265-params log-level=error") "$work/coded.mkv"
  ffmpeg -loglevel error -y -i "$work/coded.mkv" -pix_fmt "$fmt" -f rawvideo "$work/dec.yuv"
  # Luma planes only, cropped to the stored size (odd sizes come from here).
  python3 - "$work" "$cw" "$ch" "$sw" "$sh" "$bpc" "$frames" <<'EOF'
import sys
work, cw, ch, sw, sh, bpc, frames = sys.argv[1], *map(int, sys.argv[2:])
bps = 1 if bpc == 8 else 2
frame = cw * ch * bps * 3 // 2
for src, dst in (("src.yuv", "ref.y"), ("dec.yuv", "dist.y")):
    data = open(f"{work}/{src}", "rb").read()
    assert len(data) == frame * frames, (src, len(data))
    out = bytearray()
    for f in range(frames):
        for y in range(sh):
            o = f * frame + y * cw * bps
            out += data[o:o + sw * bps]
    open(f"{work}/{dst}", "wb").write(out)
EOF
  {
    echo "# $name: libvmaf $version (scalar C) through tools/vmaf-expect.c; tests/media/vmaf/generate.sh"
    echo "size $sw $sh $bpc $frames"
    "$VMAF_EXPECT" "$sw" "$sh" "$bpc" "$frames" "$work/ref.y" "$work/dist.y" "$LIBVMAF_MODELS"
  } > "$here/$name.expect"
  gzip -9 -n -c "$work/ref.y" > "$here/$name.ref.gz"
  gzip -9 -n -c "$work/dist.y" > "$here/$name.dist.gz"
  echo "$name" >> "$here/clips.txt"
  echo "$name: $(grep -c ' vmaf ' "$here/$name.expect") frames," \
    "vmaf $(awk '$2 == "vmaf" { printf "%.3f ", $3 }' "$here/$name.expect")" >&2
done
