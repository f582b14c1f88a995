#!/usr/bin/env bash
# Where the wall clock of `gst-launch-1.0 filesrc ! cudaflacdec ! fakesink`
# goes outside the streaming thread's stages (profile-stages.sh): process
# start-up, reading the file, CUDA start-up, and teardown after EOS. Prints
# for each run: wall, gst-launch's own "Execution ended after" (PLAYING to
# EOS), and the time since gst_init of the element's INFO lines (start, CUDA
# ready, stop begins, stop took). Baselines: `filesrc ! fakesink` (reading
# alone) and flacdec.
# Usage: benchmarks/flac/timeline.sh BUILD_DIR FILES_DIR [FILE]
set -uo pipefail
source "$(dirname "$0")/bench-setup.sh" "${1:-}" "${2:-}" flac-timeline
if [ -n "${3:-}" ]; then f=$3; cat "$f" > /dev/null; fi
gst-inspect-1.0 cudaflacdec > /dev/null 2>&1 # registry
run () { # label, then the decoder part of the pipeline
  local label=$1 t0 log wall
  shift
  t0=$(date +%s%N)
  log=$(GST_DEBUG=cudaflacdec:4 GST_DEBUG_NO_COLOR=1 timeout 120 gst-launch-1.0 filesrc blocksize=1048576 \
    location="$f" ! "$@" ! fakesink 2>&1)
  wall=$(ms "$t0")
  printf '%-36s wall %5d ms | %s\n' "$label" "$wall" "$(echo "$log" | grep -o 'Execution ended after [0-9:.]*' |
    sed 's/Execution ended after/PLAYING->EOS/')"
  echo "$log" | grep -E 'unframed input|EOS|CUDA buffers|creating the CUDA|CUDA context [0-9]|CUDA is ready|decoding on|by stage|stopped in' |
    sed -E 's/^([0-9:.]+) .*cudaflacdec[^:]*:[0-9]+:[^:]*:<[^>]*> /    \1 /' | cut -c1-200
}
run "filesrc ! fakesink (reading)" identity
run "flacdec" flacparse ! flacdec
for b in auto cuda cpu; do
  run "cudaflacdec $b, no MD5" cudaflacdec backend=$b check-md5=false
done
run "cudaflacdec auto, MD5" cudaflacdec backend=auto
# reading on a thread of its own (filesrc's read() is on the decoder's
# streaming thread otherwise)
run "queue ! cudaflacdec auto, no MD5" queue ! cudaflacdec backend=auto check-md5=false
