#!/usr/bin/env bash
# Builds libvmaf from a source tree the user provides (never downloaded here),
# out of tree with meson, installs it into a private prefix and builds
# tools/vmaf-expect.c against it. Used to regenerate the VMAF test expectations
# (tests/media/vmaf/generate.sh) and by benchmarks/vmaf; libvmaf is never a
# dependency of the project itself.
#
# Usage: tools/build-libvmaf.sh [--out DIR] [--asm] [--installed PREFIX] [SOURCE]
#   SOURCE           libvmaf's repository root or its libvmaf/ folder
#   --out DIR        where to build and install (default: ./build-libvmaf)
#   --asm            keep libvmaf's x86/arm assembly (default: off, the scalar C
#                    code, which the expectations use)
#   --installed PFX  skip building libvmaf; build vmaf-expect against PFX
# Prints, as shell assignments: LIBVMAF_PREFIX, LIBVMAF_LIBDIR, LIBVMAF_MODELS
# (when SOURCE is given) and VMAF_EXPECT.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$PWD/build-libvmaf
asm=false
installed=
src=
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --asm) asm=true; shift ;;
    --installed) installed=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
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
  if [ ! -f "$out/build/build.ninja" ]; then
    meson setup "$out/build" "$src" --prefix "$prefix" --buildtype release \
      -Denable_asm=$asm -Denable_tests=false -Denable_docs=false >&2
  fi
  meson install -C "$out/build" >&2
  [ -d "$src/../model" ] && models=$(cd "$src/../model" && pwd)
fi

libdir=$(dirname "$(find "$prefix" -name 'libvmaf.so' -print -quit)")
[ -d "$libdir" ] || { echo "build-libvmaf.sh: no libvmaf.so under $prefix" >&2; exit 1; }
cc -O2 -std=c11 -Wall -Wextra -I"$prefix/include" "$root/tools/vmaf-expect.c" \
  -L"$libdir" -Wl,-rpath,"$libdir" -lvmaf -lm -o "$out/vmaf-expect"

echo "LIBVMAF_PREFIX=$prefix"
echo "LIBVMAF_LIBDIR=$libdir"
[ -n "$models" ] && echo "LIBVMAF_MODELS=$models"
echo "VMAF_EXPECT=$out/vmaf-expect"
