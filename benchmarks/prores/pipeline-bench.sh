#!/usr/bin/env bash
# gst-gpucodecs: whole-pipeline ProRes decoding speed, file to sink: vkproresdec
# beside the decoders a user would otherwise pick, on the same clips in the
# same run (SPDX-License-Identifier: LGPL-2.1-or-later).
#
# Usage: pipeline-bench.sh [--ffmpeg PATH|none] [--ffmpeg-vulkan PATH] [--runs N]
#                          [--startup-frames N] [--vk-props "PROP=V ..."] [--queue]
#                          clip.mov ...
# Long clips (1,000 frames or more) from a few frames: prores-longclip.
# vkproresdec must be on GST_PLUGIN_PATH. For each clip, each row is one
# command, timed from start to exit:
#   vkproresdec, frames left on the GPU:
#     gst-launch-1.0 filesrc location=CLIP ! qtdemux ! vkproresdec !
#       'video/x-raw(memory:VulkanBuffer)' ! fakesink
#   vkproresdec, downloaded: the same with video/x-raw (system memory)
#   avdec_prores (gst-libav, FFmpeg's decoder; max-threads = all cores), when installed
#   ffmpeg -threads 0 -f mov -c:v prores -i CLIP -f null -   (FFmpeg's software decoder
#     on all cores: --ffmpeg PATH, else ffmpeg on PATH, else the --ffmpeg-vulkan build)
#   --ffmpeg-vulkan PATH: an FFmpeg build with the Vulkan ProRes hwaccel (8.1 or
#     later; given by the user, never downloaded here), frames left on the GPU
#     (-hwaccel vulkan -hwaccel_output_format vulkan ... -f null -) and downloaded
# --queue: a queue between qtdemux and the GStreamer decoders, so that reading
#   and demuxing run on a thread of their own, as in decodebin and playbin
#   (their multiqueue).
#     (-hwaccel vulkan ... -f null -). Skipped, saying so, when the build does not
#     decode ProRes on Vulkan.
# --vk-props: vkproresdec properties for both of its rows (default: none, the
#   element's defaults; "batch=1 frames-in-flight=2" keeps a slow CPU Vulkan
#   device such as lavapipe within the element's GPU time limit).
# Reported per row: "whole" fps, frames / wall time of the whole command (start-up,
# device and file opening, teardown included: what `time` shows), and "steady" fps,
# (frames - S) / (t(whole clip) - t(first S frames)), which leaves out the fixed
# costs (the short run stops after S = --startup-frames frames: identity eos-after=S
# before the decoder, ffmpeg -frames:v S). Best of --runs runs each (one run when a
# run takes over 5 s). Then vkproresdec's ratios against each baseline, GPU-resident
# against GPU-resident and downloaded against downloaded (software decoders: both).
# PIPELINE_BENCH_TIMEOUT: the time limit of each command run (s, default 120).
set -uo pipefail
ffmpeg_sw=
ffmpeg_vk=
runs=3
short=10
vk_props=
clips=()
demux_queue=()
while [ $# -gt 0 ]; do
  case $1 in
    --ffmpeg) ffmpeg_sw=$2; shift 2 ;;
    --ffmpeg-vulkan) ffmpeg_vk=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --startup-frames) short=$2; shift 2 ;;
    --vk-props) vk_props=$2; shift 2 ;;
    --queue) demux_queue=(queue !); shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 0 ;;
    *) clips+=("$1"); shift ;;
  esac
done
[ ${#clips[@]} -gt 0 ] || { echo "usage: pipeline-bench.sh [options] clip.mov ... (--help)"; exit 2; }
cores=$(nproc)
limit=${PIPELINE_BENCH_TIMEOUT:-120}  # seconds per command run
if [ -z "$ffmpeg_sw" ]; then
  ffmpeg_sw=$(command -v ffmpeg || true)
  [ -z "$ffmpeg_sw" ] && ffmpeg_sw=$ffmpeg_vk
fi
[ "$ffmpeg_sw" = none ] && ffmpeg_sw=
err=$(mktemp)
trap 'rm -f "$err"' EXIT

echo "ProRes file-to-sink benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
echo "GPU: ${gpu:-(no nvidia-smi)}${VK_DRIVER_FILES:+, Vulkan driver $VK_DRIVER_FILES}"
echo "CPU: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $cores cores"
echo "GStreamer: $(gst-launch-1.0 --version | sed -n 's/^GStreamer //p')"
[ -n "$ffmpeg_sw" ] && echo "FFmpeg (software rows): $ffmpeg_sw, $("$ffmpeg_sw" -hide_banner -version | head -n 1)"
[ -n "$ffmpeg_vk" ] && echo "FFmpeg (Vulkan rows): $ffmpeg_vk, $("$ffmpeg_vk" -hide_banner -version | head -n 1)"
have_avdec=0
gst-inspect-1.0 avdec_prores > /dev/null 2>&1 && have_avdec=1
if gst-inspect-1.0 vkproresdec > /dev/null 2>&1; then
  # The device vkproresdec opens, from its debug log.
  dev=$(GST_DEBUG=gpcvkcontext:5 GST_DEBUG_NO_COLOR=1 timeout 60 gst-launch-1.0 -q filesrc \
    location="${clips[0]}" ! qtdemux ! identity eos-after=1 ! vkproresdec $vk_props ! fakesink 2>&1 |
    grep -m 1 -o 'device <[^>]*> (.*), queue' | sed 's/^device <[^>]*> (//; s/), queue$//')
  echo "Vulkan device of vkproresdec: ${dev:-unknown}"
else
  echo "vkproresdec not found: put the project's build/ext/vulkan on GST_PLUGIN_PATH"
fi

# One row's command on CLIP, on its first N frames when N is given.
run_row () { # row clip [n]
  local row=$1 clip=$2 n=${3:-}
  local cut=() ffcut=()
  [ -n "$n" ] && cut=(identity eos-after="$n" !) && ffcut=(-frames:v "$n")
  # --no-fault: a crash ends the run instead of spinning until the timeout.
  local gst=(gst-launch-1.0 -q --no-fault filesrc location="$clip" ! qtdemux ! "${cut[@]}"
    "${demux_queue[@]}")
  case $row in
    vk-gpu) "${gst[@]}" vkproresdec $vk_props ! 'video/x-raw(memory:VulkanBuffer)' ! fakesink ;;
    vk-sys) "${gst[@]}" vkproresdec $vk_props ! video/x-raw ! fakesink ;;
    avdec) "${gst[@]}" avdec_prores max-threads="$cores" ! fakesink ;;
    ff-sw) "$ffmpeg_sw" -nostdin -v error -threads 0 -f mov -c:v prores -i "$clip" "${ffcut[@]}" -f null - ;;
    ff-vk-gpu) "$ffmpeg_vk" -nostdin -v error -hwaccel vulkan -hwaccel_output_format vulkan \
        -f mov -i "$clip" "${ffcut[@]}" -f null - ;;
    ff-vk-sys) "$ffmpeg_vk" -nostdin -v error -hwaccel vulkan -f mov -i "$clip" "${ffcut[@]}" -f null - ;;
  esac
}

label () {
  case $1 in
    vk-gpu) echo "vkproresdec, GPU memory" ;;
    vk-sys) echo "vkproresdec, downloaded" ;;
    avdec) echo "avdec_prores, $cores threads" ;;
    ff-sw) echo "ffmpeg software, -threads 0" ;;
    ff-vk-gpu) echo "ffmpeg Vulkan, GPU memory" ;;
    ff-vk-sys) echo "ffmpeg Vulkan, downloaded" ;;
  esac
}

# Best wall time (s) of RUNS runs; empty and the error's last line on stderr
# when a run fails.
best_time () { # row clip [n]
  local best= r t0 t1 rc
  for ((r = 0; r < runs; r++)); do
    t0=$(date +%s%N)
    timeout "$limit" bash -c "$(declare -f run_row); $(declare -p cores ffmpeg_sw ffmpeg_vk vk_props); run_row \"\$@\"" \
      _ "$@" > /dev/null 2> "$err"
    rc=$?
    t1=$(date +%s%N)
    if [ $rc != 0 ]; then
      # gst-launch: its first error and the detail under it; ffmpeg: its last line.
      local msg=$(grep -m 1 -A 3 '^ERROR' "$err" | sed -n '1p; 4p' | tr '\n' ' ')
      echo "failed (exit $rc): ${msg:-$(grep -v '^$' "$err" | tail -n 1)}" >&2
      return 1
    fi
    best=$(awk -v a="${best:-1e18}" -v b=$(( t1 - t0 )) 'BEGIN { printf "%.6f", (b / 1e9 < a ? b / 1e9 : a) }')
    awk -v t="$best" 'BEGIN { exit !(t > 5) }' && break
  done
  echo "$best"
}

# Whether the given FFmpeg decodes ProRes through Vulkan (and not silently in software).
ffmpeg_vk_ok () { # clip
  local log
  log=$("$ffmpeg_vk" -nostdin -v debug -hwaccel vulkan -hwaccel_output_format vulkan -i "$1" \
    -frames:v 2 -f null - 2>&1)
  grep -q "Format vulkan chosen" <<< "$log" && ! grep -q "Failed setup for format vulkan" <<< "$log"
}

rows=(vk-gpu vk-sys)
[ $have_avdec = 1 ] && rows+=(avdec) || echo "avdec_prores: not installed (gst-libav), row skipped"
[ -n "$ffmpeg_sw" ] && rows+=(ff-sw) || echo "ffmpeg: none found (--ffmpeg PATH), software row skipped"
[ -z "$ffmpeg_vk" ] && echo "ffmpeg Vulkan: no --ffmpeg-vulkan PATH (FFmpeg >= 8.1 with the Vulkan ProRes hwaccel), rows skipped"
echo "Each row: best of $runs runs; whole = frames / wall time of the command; steady = without" \
  "start-up and teardown (frames past the first $short, see --help)"

for clip in "${clips[@]}"; do
  # Frame count and caps, reading the file once (into the page cache, like the runs after).
  info=$(gst-launch-1.0 -v filesrc location="$clip" ! qtdemux ! fakesink silent=false 2>&1)
  frames=$(grep -c 'last-message = chain' <<< "$info")
  caps=$(grep -m 1 -o 'caps = video/x-prores.*' <<< "$info")
  w=$(grep -o 'width=(int)[0-9]*' <<< "$caps" | cut -d')' -f2)
  h=$(grep -o 'height=(int)[0-9]*' <<< "$caps" | cut -d')' -f2)
  variant=$(grep -o 'variant=(string)[a-z0-9]*' <<< "$caps" | cut -d')' -f2)
  size=$(stat -Lc %s "$clip")
  echo
  echo "== $(basename "$clip"): ${w}x$h ProRes $variant, $frames frames," \
    "$(awk -v s="$size" -v f="$frames" 'BEGIN { printf "%.2f MB/frame (%.0f Mbit/s at 25 fps)", s / f / 1e6, s / f * 8 * 25 / 1e6 }')"
  if [ "$frames" -le "$short" ]; then
    echo "   fewer than $short frames: skipped"
    continue
  fi
  clip_rows=("${rows[@]}")
  if [ -n "$ffmpeg_vk" ]; then
    if ffmpeg_vk_ok "$clip"; then clip_rows+=(ff-vk-gpu ff-vk-sys)
    else echo "   $ffmpeg_vk does not decode ProRes with Vulkan here (its get_format() did not set up vulkan): its rows skipped"; fi
  fi
  printf '   %-32s %12s %12s\n' decoder "whole fps" "steady fps"
  declare -A whole=() steady=()
  for row in "${clip_rows[@]}"; do
    if ! t_all=$(best_time "$row" "$clip" 2>&1) || ! t_short=$(best_time "$row" "$clip" "$short" 2>&1); then
      printf '   %-32s %s\n' "$(label "$row")" "${t_all:+$t_all }${t_short:-}"
      continue
    fi
    whole[$row]=$(awk -v f="$frames" -v t="$t_all" 'BEGIN { printf "%.1f", f / t }')
    steady[$row]=$(awk -v f="$frames" -v s="$short" -v a="$t_all" -v b="$t_short" \
      'BEGIN { printf "%.1f", (a > b ? (f - s) / (a - b) : 0) }')
    printf '   %-32s %12s %12s\n' "$(label "$row")" "${whole[$row]}" "${steady[$row]}"
  done
  for vk in vk-gpu vk-sys; do
    [ -n "${whole[$vk]:-}" ] || continue
    same=ff-vk-${vk#vk-}
    for base in avdec ff-sw "$same"; do
      [ -n "${whole[$base]:-}" ] || continue
      awk -v a="$(label "$vk")" -v b="$(label "$base")" -v ws="${steady[$vk]}" -v bs="${steady[$base]}" \
        -v ww="${whole[$vk]}" -v bw="${whole[$base]}" 'BEGIN {
          printf "   %s / %s: %.2fx steady, %.2fx whole\n", a, b, (bs > 0 ? ws / bs : 0), ww / bw }'
    done
  done
  unset whole steady
done
