#!/usr/bin/env bash
# One batched round of measurements on the GPU machine (docs/device-kit.md):
# the device time of a session is short, so every step that belongs to a
# round runs in one call, each with its own time limit, its log under $OUT.
# Usage (repo root, on the GPU machine, after a lean kit was carried):
#   tools/device-round.sh STEP...
# Steps: motion motion-old vmaf vmaf-old vmaf-tests vmaf-libvmaf-selftest vmaf-breakdown vmaf-vif-sweep vmaf-check alf alf-variants rgbaconvert alf-focus prores-batch soak prores prores-sweep
#        prores-pipeline flac flac-stages flac-timeline flac-overhead cuda-tests cuda-leaks
#        cuda-tests tests tests-novalidation multigpu
# ProRes clips are read from .devkit/clips (benchmarks/prores/make-clips.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
kit=${DEVKIT_DIR:-.devkit}  # .devkit-debian13: the GStreamer 1.26 kit
source "$kit/env.sh"
b=$kit/build
# Logs go to a scratch folder; one archive of them lands in $OUT at the end
# (a device call brings back at most 8 files).
final=${OUT:-$root/device-out}
out=$(mktemp -d /tmp/device-round.XXXXXX)
mkdir -p "$final"
trap 'tar -C "$out" -czf "$final/logs.tgz" .' EXIT
export GST_PLUGIN_PATH="$root/$b/ext/vulkan:$root/$b/ext/cuda"
export GPC_MEDIA_DIR="$root/tests/media" CK_DEFAULT_TIMEOUT=600
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader | tee "$out/gpu.txt"
clips=(.devkit/clips/hq_1080p.mov .devkit/clips/hq_2160p.mov)

step () { # name limit command...
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  echo "=== $name"
  timeout "$limit" "$@" > "$out/$name.txt" 2>&1
  local rc=$?
  echo "=== $name rc=$rc $(( $(date +%s) - t0 )) s"
}

every_test () { # each test program but those in TESTS_SKIP, in the environment given; one line each
  for t in $(find $b/tests -type f -name 'test-*' -perm -u+x | sort); do
    local n=$(basename "$t")
    case " ${TESTS_SKIP:-} " in *" $n "*) continue ;; esac
    GST_REGISTRY=/tmp/$n.registry timeout 300 "$t" > "$out/t-$n.txt" 2>&1
    local rc=$? r
    case $rc in 0) r=PASS;; 77) r=SKIP;; *) r="FAIL($rc)";; esac
    echo "$r $n ($(grep -c 'VALIDATION ERROR' "$out/t-$n.txt") validation errors printed)"
  done
}

for s in "$@"; do
  case $s in
    motion) step motion 120 $b/benchmarks/vmafmotion/bench-vmafmotion
      tail -n 12 "$out/motion.txt" ;;
    vmaf) # vkvmaf at 1080p and 2160p 10-bit, beside libvmaf when the kit has it (LIBVMAF_RUNNER)
      runner=(); [ -x "$kit/bin/vmaf-bench-libvmaf" ] && runner=(--libvmaf-runner "$kit/bin/vmaf-bench-libvmaf")
      step vmaf 200 $b/benchmarks/vmaf/bench-vmaf --frames 600 --breakdown "${runner[@]}"
      tail -n 20 "$out/vmaf.txt" ;;
    vmaf-tests) # the VMAF GPU test programs, with the validation layer where the kit has it; the
      # real clips need their pictures in $kit/vectors/vvc-alf (tests/media/vmaf/real-clips.txt)
      vec=$root/$kit/vectors; [ -d "$vec" ] || vec=
      for t in test-vkvmaf test-vkvmaf-live test-vmaf-vif-gpu test-vmaf-adm-gpu test-vkvmafmotion; do
        [ -f "$kit/layers/VkLayer_khronos_validation.json" ] && layer=VK_LAYER_KHRONOS_validation || layer=
        GPC_VECTORS_DIR=$vec VK_INSTANCE_LAYERS=$layer GST_REGISTRY=/tmp/$t.registry \
          step "$t" 300 "$(find $b/tests -name "$t" -type f | head -1)"
        grep -E "Checks|SKIP|Vulkan device|:F:|:E:" "$out/$t.txt" | head -6
      done ;;
    vmaf-libvmaf-selftest) # libvmaf's CUDA extractors against its CPU ones, on the benchmark's clips
      step vmaf-libvmaf-selftest 200 $b/benchmarks/vmaf/bench-vmaf --libvmaf-runner "$kit/bin/vmaf-bench-libvmaf" \
        --libvmaf-selftest 6
      grep -E "self-test|DIFFER|failed|passed" "$out/vmaf-libvmaf-selftest.txt" | tail -20 ;;
    vmaf-breakdown) # where vkvmaf's GPU time goes, per dispatch, 1080p and 2160p 10-bit
      step vmaf-breakdown 200 $b/benchmarks/vmaf/bench-vmaf --check 0 --no-pipeline --breakdown
      grep -E "^(1080|2160)p|per dispatch" "$out/vmaf-breakdown.txt" ;;
    vmaf-vif-sweep) # VIF tile and blocking settings on 2160p 10-bit (VIF_SWEEP: option sets, ';' between)
      IFS=';' read -ra sets <<< "${VIF_SWEEP:---vif-block 1x1;--vif-block 2x2;--vif-block 4x4}"
      for v in "${sets[@]}"; do
        echo "--- $v"
        timeout 120 $b/benchmarks/vmaf/bench-vmaf --sizes 2160 --check 0 --no-pipeline --breakdown $v \
          2>&1 | tee -a "$out/vmaf-vif-sweep.txt" | grep -E "^2160p|per dispatch|failed"
      done ;;
    vmaf-check) # vkvmaf = CPU references (and libvmaf) bit for bit on 2160p 10-bit frames
      runner=(); [ -x "$kit/bin/vmaf-bench-libvmaf" ] && runner=(--libvmaf-runner "$kit/bin/vmaf-bench-libvmaf")
      step vmaf-check 120 $b/benchmarks/vmaf/bench-vmaf --check-only --check 4 --sizes 2160 "${runner[@]}"
      grep -E "CHECK|against|libvmaf" "$out/vmaf-check.txt" | head -20 ;;
    vmaf-old) # earlier builds' bench-vmaf in .devkit/old/<commit>/, alternating with ours, three
      # rounds: GPU time per 2160p 10-bit frame and per level (the kernels are in the benchmark)
      for r in 1 2 3; do
        for d in .devkit/old/* cur; do
          if [ "$d" = cur ]; then bin=$b/benchmarks/vmaf/bench-vmaf; else bin=$d/bench-vmaf; fi
          [ -x "$bin" ] || continue
          n=vmaf-$(basename "$d")-$r
          step "$n" 120 "$bin" --sizes 2160 --check 0 --no-pipeline --breakdown
          grep -E "^2160p|level" "$out/$n.txt" | head -3 | sed "s|^|$(basename "$d") |"
        done
      done ;;
    motion-old) # earlier builds packed in .devkit/old/<commit>/ (plugin and benchmark), then ours again
      for d in .devkit/old/* cur; do
        if [ "$d" = cur ]; then bin=$b/benchmarks/vmafmotion/bench-vmafmotion; pp=$root/$b/ext/vulkan;
        else bin=$d/bench-vmafmotion; pp=$root/$d; fi
        n=motion-$(basename "$d")
        GST_PLUGIN_PATH=$pp GST_REGISTRY=/tmp/$n.registry step "$n" 120 "$bin" --cpu-frames 1
        grep -E "^[0-9]+p " "$out/$n.txt" | sed "s|^|$(basename "$d") |"
      done ;;
    alf) step alf 180 $b/benchmarks/vvcalf/bench-vvcalf
      tail -n 8 "$out/alf.txt" ;;
    rgbaconvert) step rgbaconvert 240 $b/benchmarks/rgbaconvert/bench-rgbaconvert
      tail -n 14 "$out/rgbaconvert.txt" ;;
    alf-variants) step alf-variants 300 $b/benchmarks/vvcalf/bench-vvcalf --variants all \
        --sizes 1080,2160 --frames 200
      grep -v '^$' "$out/alf-variants.txt" | tail -n 30 ;;
    alf-focus) # ALF_VARIANTS: a comma-separated list of variants
      step alf-focus 300 $b/benchmarks/vvcalf/bench-vvcalf --variants "${ALF_VARIANTS:-default}" \
        --sizes 1080,2160 --frames 200
      sed -n '/^Kernel variants/,$p' "$out/alf-focus.txt" | cut -c1-120 ;;
    prores-batch) # batches of split-path frames (kernel and element)
      for bt in 1 4 8 16; do
        fl=$(( bt * 2 > 8 ? bt * 2 : 8 )); fl=$(( fl > 32 ? 32 : fl ))
        step prores-b$bt 200 $b/benchmarks/prores/bench-vkproresdec --frames 2000 --cpu-frames 0 \
          --batch $bt --in-flight $fl "${clips[@]}"
        echo "batch $bt (in flight $fl):"
        grep -E "mov:|back to back|fps" "$out/prores-b$bt.txt" | grep -v "host memory" | cut -c1-150
      done ;;
    prores) step prores 300 $b/benchmarks/prores/bench-vkproresdec --frames 2000 \
        --paths fused,split "${clips[@]}"
      tail -n 16 "$out/prores.txt" ;;
    prores-pipeline) # file-to-sink, 1,000-frame clips (PIPELINE_FRAMES) made here from the 1080p frames
      # carried in .devkit/clips (make-clips.sh .devkit/clips 2 "hq_1080p 4444_1080p"); FFMPEG_VULKAN:
      # the path of a carried FFmpeg >= 8.1 build with the Vulkan ProRes hwaccel, if any;
      # PIPELINE_BENCH_ARGS: more pipeline-bench.sh options (--runs, --vk-props...).
      pl=/tmp/prores-pipeline
      mkdir -p "$pl"
      step prores-longclips 60 bash -c 'for c in "hq_2160p hq_1080p 3840x2160" "hq_1080p hq_1080p 1920x1080" \
          "4444_2160p 4444_1080p 3840x2160" "4444_1080p 4444_1080p 1920x1080"; do
        read -r name src size <<< "$c"
        "$0" --seed 1 --size "$size" "$3/$src.mov" "$1/$name.mov" "$2" || exit 1
      done' $b/benchmarks/prores/prores-longclip "$pl" "${PIPELINE_FRAMES:-1000}" "$kit/clips"
      cat "$out/prores-longclips.txt"
      # Debian's ffmpeg, packed by benchmarks/prores/pack-ffmpeg.py into $kit/ffmpeg.tar.xz.
      ffsw=()
      if [ -f "$kit/ffmpeg.tar.xz" ]; then
        mkdir -p /tmp/ffpack && tar -xJf "$kit/ffmpeg.tar.xz" -C /tmp/ffpack && ffsw=(--ffmpeg /tmp/ffpack/ffmpeg/ffmpeg)
      fi
      PIPELINE_BENCH_TIMEOUT=60 step prores-pipeline 230 bash benchmarks/prores/pipeline-bench.sh --runs 3 \
        "${ffsw[@]}" ${FFMPEG_VULKAN:+--ffmpeg-vulkan "$FFMPEG_VULKAN"} ${PIPELINE_BENCH_ARGS:-} \
        "$pl/hq_2160p.mov" "$pl/hq_1080p.mov" "$pl/4444_2160p.mov" "$pl/4444_1080p.mov"
      cat "$out/prores-pipeline.txt"
      rm -rf "$pl" ;;
    prores-sweep)
      for v in 32 64 128; do for i in 64 128 256; do
        step prores-split-$v-$i 120 $b/benchmarks/prores/bench-vkproresdec --frames 300 \
          --cpu-frames 0 --paths split --vld-wg $v --idct-wg $i "${clips[@]}"
        echo "vld $v idct $i: $(grep -iE 'kernel|us' "$out/prores-split-$v-$i.txt" | tail -n 3 | tr '\n' ' ')"
      done; done ;;
    flac) step flac 400 bash benchmarks/flac/run-benchmark.sh "$root/$b" /tmp/fb
      tail -n 14 "$out/flac.txt" ;;
    flac-stages) step flac-stages 300 bash benchmarks/flac/profile-stages.sh "$root/$b" /tmp/fb
      cat "$out/flac-stages.txt" | grep -v '^generating' | tail -n 12 ;;
    flac-timeline) step flac-timeline 200 bash benchmarks/flac/timeline.sh "$root/$b" /tmp/fb
      grep -v '^generating' "$out/flac-timeline.txt" ;;
    flac-overhead) # fixed costs: a 1 s file through each decoder, wall clock, 3 runs each
      mkdir -p /tmp/fo
      $b/benchmarks/flac/flac-bench-gen 2 16 48000 1 1 | flac -s -f --force-raw-format --endian=little \
        --sign=signed --channels=2 --bps=16 --sample-rate=48000 -o /tmp/fo/one.flac -
      export GST_REGISTRY=/tmp/fo.registry
      gst-inspect-1.0 cudaflacdec > /dev/null 2>&1
      for r in 1 2 3; do
        for d in "flacparse ! flacdec" "cudaflacdec backend=cpu" "cudaflacdec backend=cuda" "cudaflacdec backend=auto"; do
          t0=$(date +%s%N)
          timeout 60 gst-launch-1.0 -q filesrc location=/tmp/fo/one.flac ! $d ! fakesink
          echo "$d: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
        done
        GST_DEBUG=cudaflacdec:4 GST_DEBUG_NO_COLOR=1 timeout 60 gst-launch-1.0 -q filesrc location=/tmp/fo/one.flac ! \
          cudaflacdec backend=cuda ! fakesink 2>&1 | grep -o "CUDA context.*"
      done 2>&1 | tee "$out/flac-overhead.txt" ;;
    soak) # SOAK_NAMES (default: every element) at once for SOAK_SECONDS (default 480), memory every 20 s
      ffmpeg_frames=.devkit/clips/hq_1080p-frames
      names=${SOAK_NAMES:-vkvmafmotion-gpu vkvvcalf cudaflacdec vkproresdec-loop}
      for n in $names; do
        SOAK_FRAMES=$ffmpeg_frames SOAK_W=1920 SOAK_H=1080 OUT=$out \
          bash tools/soak.sh $n "${SOAK_SECONDS:-480}" 20 > "$out/soak-$n.txt" 2>&1 &
      done
      wait
      for n in $names; do
        echo "$n: $(cat "$out/soak-$n.txt")"; tr '\n' ' ' < "$out/soak-$n.csv"; echo
      done ;;
    cuda-tests)
      for t in $b/tests/flac/test-cudaflacdec-cuda $b/tests/flac/test-cudaflacdec-auto $b/tests/flac/test-flac-locate-cuda $(find $b/tests -name 'test-cuda-contexts*' -type f); do
        n=$(basename "$t")
        GST_REGISTRY=/tmp/$n.registry step "$n" 150 "$t"
        grep -E "Checks|SKIP|fail|differs|declines" "$out/$n.txt" | head -8
      done ;;
    cuda-leaks) # the CUDA tests under the leaks tracer (tests/common/check-leaks.sh)
      for t in $b/tests/flac/test-cudaflacdec-cuda $b/tests/flac/test-cudaflacdec-auto $(find $b/tests -name 'test-cuda-contexts' -type f); do
        n=$(basename "$t")-leaks
        GST_REGISTRY=/tmp/$n.registry step "$n" 200 bash tests/common/check-leaks.sh "$t"
        grep -E "Checks|check-leaks|alive|SKIP" "$out/$n.txt" | head -8
      done ;;
    tests) # every test program with the validation layer where the kit has it, but those named in
      # TESTS_SKIP (e.g. the ones vmaf-tests runs); the real clips as in vmaf-tests
      vec=$root/$kit/vectors; [ -d "$vec" ] || vec=
      [ -f "$kit/layers/VkLayer_khronos_validation.json" ] && layer=VK_LAYER_KHRONOS_validation || layer=
      GPC_VECTORS_DIR=$vec VK_INSTANCE_LAYERS=$layer every_test ;;
    tests-novalidation) # every test program, without the validation layer
      every_test ;;
    multigpu) # device choice on every GPU of the machine, with the validation layer where the kit has it,
      # then benchmarks/multigpu on a 2160p HQ clip (MULTIGPU_FRAMES, default 1000) made here from the
      # carried 1080p frames; MULTIGPU_ARGS: more bench-multigpu options (--gpus, --per-gpu, --runs)
      nvidia-smi -L | tee "$out/gpus.txt"
      [ -f "$kit/layers/VkLayer_khronos_validation.json" ] && layer=VK_LAYER_KHRONOS_validation || layer=
      for t in test-device-index test-two-devices test-cuda-contexts; do
        VK_INSTANCE_LAYERS=$layer GST_REGISTRY=/tmp/$t.registry step "$t" 200 "$(find $b/tests -name "$t" -type f | head -1)"
        grep -E "Vulkan devices|Checks|SKIP|:F:|:E:|cuda-device-id=|contexts on" "$out/$t.txt" | head -8
      done
      step multigpu-clip 120 $b/benchmarks/prores/prores-longclip --seed 1 --size 3840x2160 \
        .devkit/clips/hq_1080p.mov /tmp/hq_2160p_long.mov "${MULTIGPU_FRAMES:-1000}"
      tail -n 2 "$out/multigpu-clip.txt"
      step multigpu 400 $b/benchmarks/multigpu/bench-multigpu --clip /tmp/hq_2160p_long.mov ${MULTIGPU_ARGS:-}
      cat "$out/multigpu.txt" ;;
    *) echo "unknown step $s" ;;
  esac
done
