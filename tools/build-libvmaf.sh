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
#                    /usr/local/cuda/bin, and FFmpeg's nv-codec-headers recent
#                    enough for libvmaf: 3.2 calls cuStreamCreateWithPriority,
#                    cuMemHostAlloc..., which Debian 12's 11.1 and Debian 13's
#                    12.1 packages lack)
#   --nvcodec DIR    nv-codec-headers' include folder (the one holding
#                    ffnvcodec/), when not installed system-wide
#   --installed PFX  skip building libvmaf; build the tools against PFX
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
    -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
    *) src=$1; shift ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

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
    # libvmaf's nvcc commands name its include folders as ../src and
    # ../include, relative to a build folder inside its source tree.
    ln -sfn "$src/src" "$out/src"
    ln -sfn "$src/include" "$out/include"
  fi
  if [ ! -f "$out/build/build.ninja" ]; then
    meson setup "$out/build" "$src" --prefix "$prefix" --buildtype release -Doptimization=$opt \
      -Denable_asm=$asm -Denable_avx512=$avx512 -Denable_cuda=$cuda \
      ${nvcodec:+-Dc_args=-I$nvcodec} -Denable_tests=false -Denable_docs=false >&2
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
if nm -D "$libdir/libvmaf.so" | grep -q ' T vmaf_cuda_state_init'; then
  cuda=${CUDA_HOME:-/usr/local/cuda}
  cuda_flags=(-DVMAF_BENCH_CUDA -I"$cuda/include" -ldl)
fi
cc -O2 -std=c11 -Wall -Wextra -I"$prefix/include" "$root/tools/vmaf-bench-libvmaf.c" \
  -L"$libdir" -Wl,-rpath,'$ORIGIN:$ORIGIN/../lib':"$libdir" -lvmaf "${cuda_flags[@]}" -lpthread -lm \
  -o "$out/vmaf-bench-libvmaf"

echo "LIBVMAF_PREFIX=$prefix"
echo "LIBVMAF_LIBDIR=$libdir"
[ -n "$models" ] && echo "LIBVMAF_MODELS=$models"
echo "VMAF_EXPECT=$out/vmaf-expect"
echo "VMAF_BENCH=$out/vmaf-bench-libvmaf"
