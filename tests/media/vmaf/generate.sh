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
# Clips no coder makes (16 bit) are derived from a coded one: its samples
# scaled up, the new low bits a fixed dither that differs between REF and
# DIST.
#
# The real clips (real-clips.txt) take their reference frames from the
# conformance vectors and are never stored here: --real BUILD regenerates
# only their NAME.expect, from the planes that BUILD's
# tests/vmaf/vmaf-real-clip writes (GPC_VECTORS_DIR, default
# ../shared/vectors beside the source tree).
#
# The docs' example pipeline (an encoded file against its source, both
# through decodebin) runs in the tests on example-source.mp4 (12 frames of
# the demo clip at 192x108, H.264 High profile at a high rate, which
# hardware decoders take too) and example-encoded.mp4 (the same at a low
# rate); example.expect holds libvmaf's values of their decoded frames
# (H.264 decoding is exact, so every decoder gives these).
# --example regenerates only these three files.
#
# Usage: tests/media/vmaf/generate.sh [--derived-only | --real BUILD | --example] LIBVMAF_SOURCE
#        tests/media/vmaf/generate.sh [--derived-only | --real BUILD | --example] --installed PREFIX MODEL_DIR
#   (tools/build-libvmaf.sh builds libvmaf and vmaf-expect; nothing of
#   libvmaf is committed, only the printed numbers.) --derived-only keeps
#   the coded clips and regenerates only the derived ones.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

derived_only=false
real_build=
example_only=false
if [ "${1:-}" = --derived-only ]; then derived_only=true; shift; fi
if [ "${1:-}" = --example ]; then example_only=true; shift; fi
if [ "${1:-}" = --real ]; then real_build=$(cd "$2" && pwd); shift 2; fi
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

# name  from(a clip above)  bpc
derived=(
  "cellauto-odd-129x75-16bit|cellauto-odd-129x75-10bit|16"
)

expect () { # name w h bpc frames: libvmaf's values of $work/ref.y, $work/dist.y
  {
    echo "# $1: libvmaf $version (scalar C) through tools/vmaf-expect.c; tests/media/vmaf/generate.sh"
    echo "size $2 $3 $4 $5"
    "$VMAF_EXPECT" "$2" "$3" "$4" "$5" "$work/ref.y" "$work/dist.y" "$LIBVMAF_MODELS"
  } > "$here/$1.expect"
  echo "$1: $(grep -c ' vmaf ' "$here/$1.expect") frames," \
    "vmaf $(awk '$2 == "vmaf" { printf "%.3f ", $3 }' "$here/$1.expect")" >&2
}

store () { # name: the planes beside the expectations
  gzip -9 -n -c "$work/ref.y" > "$here/$1.ref.gz"
  gzip -9 -n -c "$work/dist.y" > "$here/$1.dist.gz"
}

example () {
  local raw="-f rawvideo -pix_fmt yuv420p"
  ffmpeg -loglevel error -y -i "$root/tests/media/demo/demo.mp4" -vf scale=192:108:flags=bicubic \
    -frames:v 12 $raw "$work/src.yuv"
  ffmpeg -loglevel error -y $raw -s 192x108 -r 25 -i "$work/src.yuv" -c:v libx264 -crf 8 -profile:v high \
    -preset veryslow -movflags +faststart -map_metadata -1 -fflags +bitexact "$here/example-source.mp4"
  ffmpeg -loglevel error -y $raw -s 192x108 -r 25 -i "$work/src.yuv" -c:v libx264 -crf 40 \
    -preset medium -bf 2 -movflags +faststart -map_metadata -1 -fflags +bitexact \
    "$here/example-encoded.mp4"
  # The decoded frames' luma planes, as decodebin gives them to vkvmaf (not
  # through -pix_fmt gray, which would stretch them to full range).
  for f in source:ref encoded:dist; do
    ffmpeg -loglevel error -y -i "$here/example-${f%%:*}.mp4" $raw "$work/dec.yuv"
    python3 -c 'import sys
w, h = 192, 108
data = open(sys.argv[1], "rb").read()
frame = w * h * 3 // 2
open(sys.argv[2], "wb").write(b"".join(data[o:o + w * h] for o in range(0, len(data), frame)))' \
      "$work/dec.yuv" "$work/${f##*:}.y"
  done
  expect example 192 108 8 12
}

if $example_only; then
  example
  exit 0
fi

if [ -n "$real_build" ]; then
  export GPC_MEDIA_DIR="$root/tests/media"
  export GPC_VECTORS_DIR=${GPC_VECTORS_DIR:-$(cd "$root/../shared/vectors" && pwd)}
  grep -v '^#' "$here/real-clips.txt" | while read -r name _; do
    [ -n "$name" ] || continue
    read -r w h bpc frames < <("$real_build/tests/vmaf/vmaf-real-clip" "$name" "$work")
    expect "$name" "$w" "$h" "$bpc" "$frames"
  done
  exit 0
fi

$derived_only || : > "$here/clips.txt"
$derived_only || for c in "${clips[@]}"; do
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
  expect "$name" "$sw" "$sh" "$bpc" "$frames"
  store "$name"
  echo "$name" >> "$here/clips.txt"
done

for c in "${derived[@]}"; do
  IFS='|' read -r name from bpc <<< "$c"
  read -r _ w h from_bpc frames < <(grep '^size ' "$here/$from.expect")
  python3 - "$here/$from" "$work" "$from_bpc" "$bpc" <<'EOF'
import gzip, sys
src, work, from_bpc, bpc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
shift = bpc - from_bpc
for kind, salt in (("ref", 1), ("dist", 2)):
    data = gzip.open(f"{src}.{kind}.gz").read()
    n = len(data) // 2 if from_bpc > 8 else len(data)
    out = bytearray()
    state = 0x9E3779B9 * salt
    for i in range(n):
        v = data[2 * i] | data[2 * i + 1] << 8 if from_bpc > 8 else data[i]
        state = (state * 1103515245 + 12345) & 0xFFFFFFFF
        v = (v << shift) | ((state >> 16) & ((1 << shift) - 1))
        out += bytes((v & 255, v >> 8))
    open(f"{work}/{kind}.y", "wb").write(out)
EOF
  expect "$name" "$w" "$h" "$bpc" "$frames"
  store "$name"
  grep -qx "$name" "$here/clips.txt" || echo "$name" >> "$here/clips.txt"
done

$derived_only || example
