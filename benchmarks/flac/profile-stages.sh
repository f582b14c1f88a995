#!/usr/bin/env bash
# Where cudaflacdec's time goes: runs `filesrc ! cudaflacdec ! fakesink` on
# the 4620 s --best benchmark file with each backend, MD5 on and off, and a
# few batch/chunk sizes, and prints the wall time with the element's own
# per-stage times (logged at INFO when it stops; see gstcudaflacdec.cpp).
# Usage: benchmarks/flac/profile-stages.sh BUILD_DIR FILES_DIR
set -uo pipefail
source "$(dirname "$0")/bench-setup.sh" "${1:-}" "${2:-}" profile-stages
run () {
  local t0 stages
  t0=$(date +%s%N)
  stages=$(GST_DEBUG=cudaflacdec:4 GST_DEBUG_NO_COLOR=1 timeout 120 gst-launch-1.0 -q filesrc blocksize=1048576 \
    location="$f" ! cudaflacdec "$@" ! fakesink 2>&1 | grep -o 'by stage: .*' | sed 's/by stage: //')
  printf '%-55s %6d ms | %s\n' "$*" "$(ms "$t0")" "$stages"
}
t0=$(date +%s%N)
gst-launch-1.0 -q filesrc blocksize=1048576 location="$f" ! flacparse ! flacdec ! fakesink
printf '%-55s %6d ms\n' "flacdec (libFLAC)" "$(ms "$t0")"
for md5 in true false; do
  run backend=auto check-md5=$md5
  run backend=cpu check-md5=$md5
  run backend=cuda check-md5=$md5
  run backend=cuda check-md5=$md5 chunk-size=67108864
done
run backend=cuda check-md5=false chunk-size=33554432
# frames located on the CPU instead of the GPU (the CUDA backend's default)
run backend=cuda check-md5=false locate-on-gpu=false
