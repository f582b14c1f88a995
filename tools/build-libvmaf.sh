#!/usr/bin/env bash
# Builds libvmaf from a source tree the user provides (never downloaded here),
# out of tree with meson, installs it into a private prefix and builds
# tools/vmaf-expect.c against it. Used to regenerate the VMAF test expectations
# (tests/media/vmaf/generate.sh) and, with tools/vmaf-bench-libvmaf.c, the
# libvmaf side of benchmarks/vmaf; libvmaf is never a dependency of the
# project itself.
#
# Usage: tools/build-libvmaf.sh [--out DIR] [--asm | --optimised] [--cuda]
#                               [--installed PREFIX] [SOURCE]
#   SOURCE           libvmaf's repository root or its libvmaf/ folder
#   --out DIR        where to build and install (default: ./build-libvmaf)
#   --asm            keep libvmaf's x86/arm assembly (default: off, the scalar C
#                    code, which the expectations use)
#   --optimised      what a benchmark compares against: the assembly with its
#                    AVX-512 kernels (needs nasm >= 2.14), -O3; libvmaf picks
#                    SSE/AVX2/AVX-512 at run time, its thread pool is a run-time
#                    setting (benchmarks/vmaf uses every core)
#   --cuda           libvmaf's CUDA extractors too (needs nvcc on PATH or in
#                    /usr/local/cuda/bin, and FFmpeg's nv-codec-headers, see
#                    below)
#   --nvcodec DIR    nv-codec-headers' include folder (the one holding
#                    ffnvcodec/), when not the system's (/usr/include)
#   --installed PFX  skip building libvmaf; build the tools against PFX
#
# The CUDA build (what benchmarks/vmaf's "libvmaf CUDA" column runs) is made
# with nv-codec-headers 13.0.19.1 and CUDA 13.0's nvcc. libvmaf 3.2's own
# meson file picks the targets from nvcc's version: with CUDA 13, machine code
# for sm_75, sm_80, sm_90, sm_100 and sm_120 and PTX for compute_120 (Turing
# to Blackwell; sm_86/sm_89 run the sm_80 code). libvmaf loads libcuda.so.1 at
# run time through nv-codec-headers' loader and links no CUDA library.
# libvmaf 3.2.0's CUDA motion extractor addresses pictures above 8 bits with
# twice their row pitch: wrong motion scores at 1080p, an out-of-bounds read
# (CUDA_ERROR_ILLEGAL_ADDRESS, seen first by a later call) at 2160p. Upstream
# fixed it after 3.2.0 (commit 4991d2b5, "cuda: fix row stride in
# calculate_motion_score_kernel_16bpc"); for 10-bit runs build a source that
# has it. The runner's --cuda-selftest checks a build.
# One build-time adjustment: libvmaf 3.2 calls seven driver functions
# (cuStreamCreateWithPriority, cuCtxGetStreamPriorityRange, cuCtxSynchronize,
# cuLaunchHostFunc, cuMemHostAlloc, cuMemFreeHost, cuMemFreeAsync) that
# nv-codec-headers' loader only gained after its 13.0 release, and Debian's
# 11.1/12.1 packages lack. The headers are copied into OUT/nvcodec and any of
# these calls the copy lacks is declared there (the CUDA driver API's
# signatures) and loaded with the others; libvmaf's source and the given
# headers are never changed. Headers that lack other calls libvmaf makes are
# refused with their names.
# An existing OUT/build is reconfigured with this run's options (made afresh
# when it was built from another SOURCE).
#
# Prints, as shell assignments: LIBVMAF_PREFIX, LIBVMAF_LIBDIR, LIBVMAF_MODELS
# (when SOURCE is given), VMAF_EXPECT and VMAF_BENCH (the runner that
# benchmarks/vmaf takes with --libvmaf-runner).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$PWD/build-libvmaf
asm=false
avx512=false
cuda=false
opt=2
nvcodec=
installed=
src=
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --asm) asm=true; shift ;;
    --optimised) asm=true; avx512=true; opt=3; shift ;;
    --cuda) cuda=true; shift ;;
    --nvcodec) nvcodec=$(cd "$2" && pwd); shift 2 ;;
    --installed) installed=$2; shift 2 ;;
    -h|--help) sed -n '2,52p' "$0"; exit 0 ;;
    *) src=$1; shift ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The adjusted copy of nv-codec-headers (see the header): NAME|PARAMETERS of
# each driver call libvmaf 3.2 needs beyond the loader of nv-codec-headers
# 13.0; every one is an unversioned symbol of libcuda.so.1 (CUDA 11.2+).
libvmaf_cuda_calls=(
  'cuCtxGetStreamPriorityRange|int *leastPriority, int *greatestPriority'
  'cuCtxSynchronize|void'
  'cuStreamCreateWithPriority|CUstream *phStream, unsigned int flags, int priority'
  'cuLaunchHostFunc|CUstream hStream, CUhostFn *fn, void *userData'
  'cuMemHostAlloc|void **pp, size_t bytesize, unsigned int Flags'
  'cuMemFreeHost|void *p'
  'cuMemFreeAsync|CUdeviceptr dptr, CUstream hStream'
)
nvcodec_for_libvmaf() {
  local from=$1/ffnvcodec to=$2/ffnvcodec entry name params
  [ -f "$from/dynlink_loader.h" ] || {
    echo "build-libvmaf.sh: no ffnvcodec/dynlink_loader.h in $1 (give --nvcodec DIR)" >&2; exit 2; }
  rm -rf "$to"
  mkdir -p "$to"
  cp "$from"/*.h "$to"/
  # Anchors: the host-function type goes after the stream-callback type, the
  # calls after cuMemAlloc's type, member and loading line.
  grep -q 'CUhostFn' "$to/dynlink_cuda.h" \
    || sed -i '/^typedef void CUDAAPI CUstreamCallback(/a typedef void CUDAAPI CUhostFn(void *userData);' \
      "$to/dynlink_cuda.h"
  for entry in "${libvmaf_cuda_calls[@]}"; do
    name=${entry%%|*}
    params=${entry#*|}
    grep -q "\*$name;" "$to/dynlink_loader.h" && continue
    sed -i "/^typedef CUresult CUDAAPI tcuMemAlloc_v2(/a typedef CUresult CUDAAPI t$name($params);" \
      "$to/dynlink_cuda.h"
    sed -i -e "/^ *tcuMemAlloc_v2 \*cuMemAlloc;/a \    t$name *$name;" \
      -e "/^ *LOAD_SYMBOL(cuMemAlloc, tcuMemAlloc_v2,/a \    LOAD_SYMBOL($name, t$name, \"$name\");" \
      "$to/dynlink_loader.h"
    grep -q "LOAD_SYMBOL($name," "$to/dynlink_loader.h" && grep -q "CUDAAPI t$name(" "$to/dynlink_cuda.h" \
      || { echo "build-libvmaf.sh: cannot add $name to the nv-codec-headers of $1" >&2; exit 1; }
  done
  # Older headers lack more than these (Debian 12's 11.1.5.2: cuStreamWaitEvent).
  local lacking
  lacking=$(grep -rhoE '\bcu[A-Z][A-Za-z0-9_]*\(' "$src/src/cuda" "$src/src/feature/cuda" "$src/src/libvmaf.c" |
    tr -d '(' | sort -u | while read -r name; do
      grep -q "\*$name;" "$to/dynlink_loader.h" || echo "$name"; done)
  [ -z "$lacking" ] || { echo "build-libvmaf.sh: the nv-codec-headers of $1 lack" $lacking \
    "(libvmaf 3.2 calls them; 13.0.19.1 works)" >&2; exit 2; }
}

models=
if [ -n "$installed" ]; then
  prefix=$(cd "$installed" && pwd)
else
  [ -n "$src" ] || { echo "build-libvmaf.sh: give libvmaf's source path" >&2; exit 2; }
  src=$(cd "$src" && pwd)
  [ -f "$src/libvmaf/meson.build" ] && src=$src/libvmaf
  [ -f "$src/meson.build" ] && grep -q "libvmaf" "$src/meson.build" \
    || { echo "build-libvmaf.sh: $src is not libvmaf's source" >&2; exit 2; }
  prefix=$out/inst
  if $avx512 && ! nasm -v 2>/dev/null | grep -qE 'version (2\.1[4-9]|2\.[2-9][0-9]|[3-9])'; then
    echo "build-libvmaf.sh: --optimised needs nasm 2.14 or later" >&2; exit 2
  fi
  if $cuda; then
    command -v nvcc > /dev/null || export PATH=$PATH:/usr/local/cuda/bin
    nvcodec_for_libvmaf "${nvcodec:-/usr/include}" "$out/nvcodec"
    nvcodec=$out/nvcodec
    # libvmaf's nvcc commands name its include folders as ../src and
    # ../include, relative to a build folder inside its source tree.
    ln -sfn "$src/src" "$out/src"
    ln -sfn "$src/include" "$out/include"
    # Its nvcc commands take no c_args: the headers reach them through the
    # host compiler's CPATH.
    export CPATH=$nvcodec${CPATH:+:$CPATH}
  fi
  # An existing build folder takes this run's options too (say --cuda added
  # to an earlier CPU build), but only when it was made from this SOURCE:
  # meson keeps a build folder's source for good, so one made from another
  # libvmaf tree would silently rebuild that tree.
  if [ -f "$out/build/meson-info/meson-info.json" ] &&
     ! grep -qF "\"source\": \"$src\"" "$out/build/meson-info/meson-info.json"; then
    echo "build-libvmaf.sh: $out/build was made from another libvmaf source; starting it afresh" >&2
    rm -rf "$out/build"
  fi
  opts=(-Doptimization=$opt -Denable_asm=$asm -Denable_avx512=$avx512 -Denable_cuda=$cuda
    -Dc_args=${nvcodec:+-I$nvcodec} -Denable_tests=false -Denable_docs=false)
  if [ ! -f "$out/build/build.ninja" ]; then
    meson setup "$out/build" "$src" --prefix "$prefix" --buildtype release "${opts[@]}" >&2
  else
    meson configure "$out/build" "${opts[@]}" >&2
  fi
  meson install -C "$out/build" >&2
  [ -d "$src/../model" ] && models=$(cd "$src/../model" && pwd)
fi

libdir=$(dirname "$(find "$prefix" -name 'libvmaf.so' -print -quit)")
[ -d "$libdir" ] || { echo "build-libvmaf.sh: no libvmaf.so under $prefix" >&2; exit 1; }
cc -O2 -std=c11 -Wall -Wextra -I"$prefix/include" "$root/tools/vmaf-expect.c" \
  -L"$libdir" -Wl,-rpath,"$libdir" -lvmaf -lm -o "$out/vmaf-expect"
# The runner is linked with $ORIGIN-relative search paths too, so that it and
# libvmaf.so.* can travel together (tools/make-devkit.sh LIBVMAF_RUNNER=...).
cuda_flags=()
# (Not nm | grep -q: grep's early exit would fail the pipe under pipefail.)
if [ "$(nm -D "$libdir/libvmaf.so" | grep -c ' T vmaf_cuda_state_init$')" != 0 ]; then
  cuda=${CUDA_HOME:-/usr/local/cuda}
  cuda_flags=(-DVMAF_BENCH_CUDA -I"$cuda/include" "$root/tools/vmaf-bench-libvmaf-cuda.c" -ldl)
fi
cc -O2 -std=c11 -Wall -Wextra -I"$prefix/include" "$root/tools/vmaf-bench-libvmaf.c" \
  "${cuda_flags[@]}" -L"$libdir" -Wl,-rpath,'$ORIGIN:$ORIGIN/../lib':"$libdir" -lvmaf -lpthread -lm \
  -o "$out/vmaf-bench-libvmaf"

echo "LIBVMAF_PREFIX=$prefix"
echo "LIBVMAF_LIBDIR=$libdir"
[ -n "$models" ] && echo "LIBVMAF_MODELS=$models"
echo "VMAF_EXPECT=$out/vmaf-expect"
echo "VMAF_BENCH=$out/vmaf-bench-libvmaf"
