#!/usr/bin/env bash
# Soak test (not part of CI): runs one element's pipeline for DURATION seconds
# on endless input and records the process's memory (RSS) and, where
# nvidia-smi exists, GPU memory every INTERVAL seconds. Memory must stay flat.
#   tools/soak.sh NAME DURATION [INTERVAL]
# NAME: vkvmafmotion, vkvmafmotion-gpu, vkvvcalf, cudaflacdec, vkproresdec
# (needs SOAK_CLIP), vkproresdec-loop and gpu-chain (need SOAK_FRAMES, SOAK_W,
# SOAK_H), or
# anything with SOAK_PIPELINE set.
# Writes $OUT/soak-NAME.csv (or ./soak-NAME.csv) and prints first/last/max RSS.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?element name}
dur=${2:-3600}
step=${3:-10}
[ -f "$root/.devkit/env.sh" ] && source "$root/.devkit/env.sh"
build=${BUILD_DIR:-$root/build}
[ -d "$root/.devkit/build" ] && build=$root/.devkit/build
export GST_PLUGIN_PATH="$build/ext/vulkan:$build/ext/cuda"
case $name in
  vkvmafmotion)
    pipe="videotestsrc pattern=ball ! video/x-raw,format=I420_10LE,width=1920,height=1080 ! vkvmafmotion results-location=/dev/null ! fakesink" ;;
  vkvmafmotion-gpu)
    pipe="videotestsrc pattern=ball ! video/x-raw,format=NV12,width=1920,height=1080 ! vulkanupload ! vkvmafmotion ! fakesink" ;;
  vkvvcalf)
    pipe="videotestsrc pattern=ball ! video/x-raw,format=I420_10LE,width=1920,height=1080 ! vkvvcalf fixed-filter-set=5 ! fakesink" ;;
  cudaflacdec)
    pipe="audiotestsrc wave=pink-noise ! audio/x-raw,rate=48000,channels=2 ! flacenc ! flacparse ! cudaflacdec ! fakesink" ;;
  vkproresdec)
    # ProRes has no encoder in GStreamer: give a long clip (SOAK_CLIP), e.g. an
    # hour made with ffmpeg -c:v prores_ks; it plays once from start to end.
    pipe="filesrc location=${SOAK_CLIP:?set SOAK_CLIP to a long ProRes .mov} ! qtdemux ! vkproresdec ! video/x-raw(memory:VulkanBuffer) ! vkvmafmotion ! fakesink" ;;
  vkproresdec-loop)
    # A clip's frames, one file each (ffmpeg -i clip.mov -c:v copy -f image2
    # DIR/f%03d.bin), decoded in an endless loop (HQ 4:2:2 at SOAK_W x SOAK_H).
    n=$(ls "${SOAK_FRAMES:?set SOAK_FRAMES to a folder of f001.bin ...}"/f*.bin | wc -l)
    pipe="multifilesrc location=$SOAK_FRAMES/f%03d.bin start-index=1 stop-index=$n loop=true
      caps=video/x-prores,variant=(string)hq,width=${SOAK_W:?},height=${SOAK_H:?},framerate=25/1
      ! vkproresdec ! video/x-raw(memory:VulkanBuffer) ! vkvmafmotion ! fakesink" ;;
  gpu-chain)
    # The whole GPU chain of the issue on the looped ProRes frames: decoder,
    # ALF, motion and the RGBA converter, frames on the GPU from end to end.
    n=$(ls "${SOAK_FRAMES:?set SOAK_FRAMES to a folder of f001.bin ...}"/f*.bin | wc -l)
    pipe="multifilesrc location=$SOAK_FRAMES/f%03d.bin start-index=1 stop-index=$n loop=true
      caps=video/x-prores,variant=(string)hq,width=${SOAK_W:?},height=${SOAK_H:?},framerate=25/1
      ! vkproresdec ! video/x-raw(memory:VulkanBuffer) ! vkvvcalf fixed-filter-set=5 ! vkvmafmotion
      ! vkrgbaconvert ! video/x-raw(memory:VulkanImage) ! fakesink" ;;
  *)
    if [ -n "${SOAK_PIPELINE:-}" ]; then pipe=$SOAK_PIPELINE; else echo "unknown NAME; set SOAK_PIPELINE"; exit 2; fi ;;
esac
out=${OUT:-.}/soak-$name.csv
echo "seconds,rss_kb,gpu_mem_mib" > "$out"
gst-launch-1.0 -q $pipe > /dev/null 2>&1 &
pid=$!
t=0
while [ $t -le "$dur" ] && kill -0 $pid 2>/dev/null; do
  rss=$(awk '/VmRSS/ {print $2}' /proc/$pid/status 2>/dev/null)
  gpu=$(nvidia-smi --query-compute-apps=pid,used_memory --format=csv,noheader,nounits 2>/dev/null |
        awk -F', ' -v p=$pid '$1==p {print $2}')
  echo "$t,${rss:-0},${gpu:-}" >> "$out"
  sleep "$step"; t=$((t + step))
done
alive=0; kill -0 $pid 2>/dev/null && alive=1
kill $pid 2>/dev/null; wait $pid 2>/dev/null
awk -F, -v alive=$alive 'NR==2 {first=$2} NR>1 {last=$2; if ($2>max) max=$2}
  END {printf "RSS first %d kB, last %d kB, max %d kB (%s)\n", first, last, max, alive ? "ran to the end" : "PIPELINE STOPPED EARLY"}' "$out"
