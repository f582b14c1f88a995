#!/usr/bin/env bash
# Packs what the GPU machine needs to run our tests and benchmarks into
# .devkit/: GStreamer 1.22 and every library our binaries use (through
# ../shared/device/make-kit.sh), plus the Khronos validation layer.
# Usage (repo root, after tools/build.sh): tools/make-devkit.sh
#   LIBVMAF_RUNNER=PATH tools/make-devkit.sh   adds libvmaf's benchmark runner
#                                     and its libvmaf (benchmarks/vmaf)
#   tools/make-devkit.sh --debian13   the same kit from the Debian 13 chroot
#                                     (GStreamer 1.26; tools/debian13-chroot.sh,
#                                     build-debian13/) into .devkit-debian13/
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ "${1:-}" = --debian13 ]; then
  exec bash tools/debian13-chroot.sh env DEVKIT_DIR=.devkit-debian13 \
    DEVKIT_LEAN="${DEVKIT_LEAN:-0}" GPC_DEVKIT_SYSROOT=debian13 bash tools/make-devkit.sh
fi
build=${BUILD_DIR:-build}
kitdir=${DEVKIT_DIR:-.devkit}
kit=../shared/device/make-kit.sh
[ -f "$kit" ] || { echo "make-devkit: $kit not found (it lives in the shared folder beside the checkout)"; exit 1; }
if [ "${GPC_DEVKIT_SYSROOT:-}" = debian13 ]; then
  # make-kit.sh names Debian 12's FLAC library; Debian 13 ships libFLAC 14.
  sed 's/libflac12/libflac14/; s/libFLAC\.so\.12/libFLAC.so.14/' "$kit" > /tmp/make-kit-debian13.sh
  kit=/tmp/make-kit-debian13.sh
fi
bins=$( (find "$build/ext" -type f -name '*.so' -perm -u+x
        find "$build/tests" "$build/benchmarks" "$build/examples" -type f -perm -u+x 2>/dev/null) |
      grep -v '\.p/' | grep -v '/meson-' | grep -vE '\.(sh|py)$' | sort)
# Debian's flac encoder too: the FLAC benchmark makes its files on the GPU
# machine (hundreds of MB, too large to carry); zstd, which reads the
# conformance vectors a run carries in the kit's vectors/. decodebin and the
# type finders, for test-vkvmaf's example pipeline (it decodes H.264 with
# the kit's nvcodec decoders there; gst-libav's closure is far too large).
gstplugins=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
extra_plugins="$gstplugins/libgstplayback.so $gstplugins/libgsttypefindfunctions.so"
bash "$kit" "$kitdir" $bins /usr/bin/flac /usr/bin/zstd $extra_plugins
cp -L /usr/bin/flac /usr/bin/zstd "$kitdir"/bin/
cp -L $extra_plugins "$kitdir"/plugins/
# multifilesrc, which loops a ProRes clip's frames in the soak (tools/soak.sh).
cp -L "$gstplugins"/libgstmultifile.so "$kitdir"/plugins/
# The leaks tracer, for the *-leaks tests (tests/common/check-leaks.sh).
cp -L "$gstplugins"/libgstcoretracers.so "$kitdir"/plugins/
# The sanitizer runtimes (for the fuzz targets) and the validation layer make
# up half of the kit; DEVKIT_LEAN=1 leaves them out, for benchmark runs where
# the kit, the tree and any clips must fit the 64 MiB a device call carries.
if [ "${DEVKIT_LEAN:-0}" = 1 ]; then
  rm -f "$kitdir"/lib/libasan.so.* "$kitdir"/lib/libubsan.so.*
fi
# libvmaf for benchmarks/vmaf, when the user built it (tools/build-libvmaf.sh
# --optimised [--cuda] prints VMAF_BENCH): LIBVMAF_RUNNER=that path. The runner
# finds libvmaf.so.3 in the kit's lib/ ($ORIGIN/../lib), with any library the
# two need that the kit lacks, but for glibc's and the NVIDIA driver's
# (libcuda.so.1, which libvmaf's CUDA build opens at run time, comes from the
# GPU machine's driver).
if [ -n "${LIBVMAF_RUNNER:-}" ]; then
  cp -L "$LIBVMAF_RUNNER" "$kitdir"/bin/vmaf-bench-libvmaf
  ldd "$LIBVMAF_RUNNER" | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64|libcuda|libnvidia-[^/]*)\.so' |
    while read -r lib; do
      [ -e "$kitdir/lib/$(basename "$lib")" ] || strip --strip-unneeded -o "$kitdir/lib/$(basename "$lib")" "$lib"
    done
  [ -e "$kitdir/lib/libvmaf.so.3" ] || { echo "make-devkit: $LIBVMAF_RUNNER does not link libvmaf.so.3"; exit 1; }
fi
# A crash on the GPU machine (no gdb there) prints its backtrace with
# LD_PRELOAD=$kitdir/lib/libsegv-backtrace.so gst-launch-1.0 --no-fault ...
gcc -shared -fPIC -O1 -o "$kitdir"/lib/libsegv-backtrace.so tools/segv/segv-backtrace.c
# The validation layer, so that tests validate on the NVIDIA driver too.
mkdir -p "$kitdir"/layers
if [ "${DEVKIT_LEAN:-0}" != 1 ]; then
  strip --strip-unneeded -o "$kitdir"/lib/libVkLayer_khronos_validation.so /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so
  sed 's|"library_path": *"[^"]*"|"library_path": "../lib/libVkLayer_khronos_validation.so"|' \
    /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json > "$kitdir"/layers/VkLayer_khronos_validation.json
fi
cat >> "$kitdir"/env.sh <<'EOS'
export VK_LAYER_PATH="$_k/layers"
EOS
# Our binaries, stripped, at their build-relative paths ($kitdir/build).
for f in $bins; do
  rel=${f#$build/}
  mkdir -p "$kitdir/build/$(dirname "$rel")"
  strip --strip-debug -o "$kitdir/build/$rel" "$f"
done
du -sh "$kitdir"
