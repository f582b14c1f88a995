#!/bin/sh
# gst-gpucodecs: regenerates the ProRes test vectors and the checksums of
# FFmpeg's decoded output (SPDX-License-Identifier: LGPL-2.1-or-later).
#
# Every vector is a tiny QuickTime file written by Debian's ffmpeg (prores_ks
# or prores_aw). checksums.txt holds, for each one, the pixel format that
# Debian's "ffmpeg -c:v prores" decodes it to and the MD5 of every plane of
# every decoded frame (16-bit little-endian samples, cropped, as
# "ffmpeg -f rawvideo" writes them). The test decodes the same frames with our
# CPU reference and requires identical MD5s.
#
# Usage: generate.sh [output-folder]   (default: the folder of this script)
set -eu

out=${1:-$(dirname "$0")}
cd "$out"
rm -f ./*.mov checksums.txt

ff="ffmpeg -nostdin -v error -y"
# Busy, noisy content so that every codebook and long runs both occur.
src() { # size frames pix_fmt
  echo "testsrc2=size=$1:rate=25,noise=alls=6:allf=t,format=$3"
}
alpha_src() { # size pix_fmt: a luma-like alpha ramp with detail
  echo "testsrc2=size=$1:rate=25,noise=alls=6:allf=t,format=$2,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(lt(X,W/3),1023,if(lt(X,2*W/3),floor(Y*1023/H),if(lt(Y,H/2),lum(X,Y),512*gt(mod(X,17),8))))'"
}

# name encoder size frames pix_fmt extra-encoder-options [extra-filter]
vec() {
  name=$1 enc=$2 size=$3 frames=$4 pixfmt=$5 opts=$6 filt=${7:-}
  if [ "$pixfmt" = yuva444p10le ]; then vf=$(alpha_src "$size" "$pixfmt"); else vf=$(src "$size" "$frames" "$pixfmt"); fi
  [ -n "$filt" ] && vf="$vf,$filt"
  # shellcheck disable=SC2086
  $ff -f lavfi -i "$vf" -frames:v "$frames" -c:v "$enc" $opts "$name.mov"
}

vec ks_proxy_336x200        prores_ks 336x200   2 yuv422p10le "-profile:v proxy"
vec ks_lt_336x200_mbs4      prores_ks 336x200   2 yuv422p10le "-profile:v lt -mbs_per_slice 4"
vec ks_standard_336x200_mbs2 prores_ks 336x200  1 yuv422p10le "-profile:v standard -mbs_per_slice 2"
vec ks_hq_336x200_mbs1      prores_ks 336x200   1 yuv422p10le "-profile:v hq -mbs_per_slice 1"
vec ks_hq_66x34             prores_ks 66x34     3 yuv422p10le "-profile:v hq"
vec ks_proxy_1000x562          prores_ks 1000x562  1 yuv422p10le "-profile:v proxy -mbs_per_slice 8"
vec ks_lt_1282x722          prores_ks 1282x722  1 yuv422p10le "-profile:v lt -mbs_per_slice 4"
# Odd sizes (4:2:2 widths stay even) and pictures smaller than a macroblock.
vec ks_hq_344x201_mbs4      prores_ks 344x202   1 yuv422p10le "-profile:v hq -mbs_per_slice 4" "crop=344:201:0:0"
vec ks_4444_alpha16_97x53   prores_ks 98x54     1 yuva444p10le "-profile:v 4444" "crop=97:53:0:0"
vec ks_4444xq_tff_17x9      prores_ks 18x10     2 yuv444p10le "-profile:v 4444xq -flags +ildct -top 1" "crop=17:9:0:0"
# -quant_mat default writes no matrices: the decoder's all-4 default.
vec ks_hq_defaultmat_336x200 prores_ks 336x200  1 yuv422p10le "-profile:v hq -quant_mat default"
vec ks_4444_alpha8_defaultmat_208x96 prores_ks 208x96 1 yuva444p10le "-profile:v 4444 -alpha_bits 8 -quant_mat default"
vec ks_4444_336x200         prores_ks 336x200   1 yuv444p10le "-profile:v 4444"
vec ks_4444xq_336x200_mbs2  prores_ks 336x200   1 yuv444p10le "-profile:v 4444xq -mbs_per_slice 2"
vec ks_4444_alpha16_336x200 prores_ks 336x200   1 yuva444p10le "-profile:v 4444 -alpha_bits 16"
vec ks_4444_alpha8_346x202  prores_ks 346x202   1 yuva444p10le "-profile:v 4444 -alpha_bits 8 -mbs_per_slice 4"
vec ks_4444xq_alpha16_530x302 prores_ks 530x302 1 yuva444p10le "-profile:v 4444xq -alpha_bits 16 -mbs_per_slice 8 -quant_mat proxy"
vec ks_hq_tff_336x200       prores_ks 336x200   2 yuv422p10le "-profile:v hq -flags +ildct -top 1"
vec ks_standard_bff_346x202       prores_ks 346x202   1 yuv422p10le "-profile:v standard -flags +ildct -top 0 -mbs_per_slice 2"
vec ks_4444_alpha16_tff_336x200 prores_ks 336x200 1 yuva444p10le "-profile:v 4444 -flags +ildct -top 1"
vec aw_proxy_336x200        prores_aw 336x200   1 yuv422p10le "-profile:v 0"
vec aw_lt_336x200           prores_aw 336x200   1 yuv422p10le "-profile:v 1"
vec aw_proxy_1000x562       prores_aw 1000x562  1 yuv422p10le "-profile:v 0"
vec aw_standard_336x200     prores_aw 336x200   1 yuv422p10le "-profile:v 2"
vec aw_hq_336x200           prores_aw 336x200   2 yuv422p10le "-profile:v 3"
vec aw_4444_336x200         prores_aw 336x200   1 yuv444p10le "-profile:v 4"
vec aw_4444xq_336x200       prores_aw 336x200   1 yuv444p10le "-profile:v 5"
vec aw_4444_alpha_336x200   prores_aw 336x200   1 yuva444p10le "-profile:v 4"
# prores_aw always writes top-field-first interlaced frames; prores_ks honours -top.
vec aw_hq_tff_336x200       prores_aw 336x200   1 yuv422p10le "-profile:v 3 -flags +ildct"

# Synthetic frames with extreme values (int16 overflows in the transform,
# 31-bit codewords, slices without chroma) in copies of two of the above.
python3 ./craft-extreme.py ks_hq_336x200_mbs1.mov x_extreme_422_336x200.mov 1
python3 ./craft-extreme.py ks_4444_336x200.mov x_extreme_4444_336x200.mov 2

# Checksums of FFmpeg's own decode, plane by plane: "frame" lines with the
# default (x86 SIMD on amd64) code, "cframe" lines with -cpuflags 0 (FFmpeg's
# C code, as on builds without SIMD); they differ only for x_extreme_422.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in *.mov; do
  info=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height,codec_tag_string,pix_fmt,field_order -of default=nw=1 "$f" | tr '\n' ' ')
  ffmpeg -nostdin -v error -y -c:v prores -i "$f" -f rawvideo "$tmp/simd.raw"
  ffmpeg -nostdin -v error -y -cpuflags 0 -c:v prores -i "$f" -f rawvideo "$tmp/c.raw"
  python3 -c '
import hashlib, sys
name = sys.argv[1]
kv = dict(x.split("=", 1) for x in sys.argv[2].split())
w, h, tag, fmt = int(kv["width"]), int(kv["height"]), kv["codec_tag_string"], kv["pix_fmt"]
order = kv.get("field_order", "unknown")
cw = (w + 1) // 2 if "422" in fmt else w
planes = [w * h, cw * h, cw * h] + ([w * h] if fmt.startswith("yuva") else [])
fsize = 2 * sum(planes)
out = []
for kind, path in (("frame", sys.argv[3]), ("cframe", sys.argv[4])):
    data = open(path, "rb").read()
    assert len(data) % fsize == 0, (len(data), fsize)
    n = len(data) // fsize
    if kind == "frame":
        out.append("vector %s %s %s %d %d %d %s" % (name, tag, fmt, w, h, n, order))
    for i in range(n):
        off, sums = i * fsize, []
        for p in planes:
            sums.append(hashlib.md5(data[off:off + 2 * p]).hexdigest())
            off += 2 * p
        out.append("%s %d %s" % (kind, i, " ".join(sums)))
print("\n".join(out))
' "$f" "$info" "$tmp/simd.raw" "$tmp/c.raw" >> checksums.txt
done
ls -l ./*.mov | awk '{ s += $5 } END { print "total bytes:", s }'
