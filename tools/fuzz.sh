#!/usr/bin/env bash
# Builds every libFuzzer target with clang (ASan + UBSan) in build-fuzz/ and runs
# each for SECONDS (default 60) on a scratch copy of its corpus.
# Usage: tools/fuzz.sh [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
cd "$root"
command -v clang >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo; $sudo apt-get install -y -q clang; }
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang CXX=clang++ meson setup build-fuzz -Dfuzzing=true -Db_lundef=false -Dtests=disabled \
    -Dbenchmarks=false -Dvulkan=disabled -Dcuda=disabled \
    -Db_sanitize=address,undefined -Dcpp_args=-fsanitize=fuzzer-no-link -Dc_args=-fsanitize=fuzzer-no-link
fi
meson compile -C build-fuzz
status=0
for f in $(find build-fuzz/fuzz -type f -name 'fuzz-*' -perm -u+x | sort); do
  name=$(basename "$f")
  comp=$(basename "$(dirname "$f")")
  scratch=$(mktemp -d)
  seeds=()
  [ -d "fuzz/$comp/corpus" ] && seeds+=("fuzz/$comp/corpus")
  echo "== $name ($secs s)"
  "$f" "$scratch" "${seeds[@]}" -max_total_time="$secs" -print_final_stats=1 2>&1 | tail -4 || status=1
  rm -rf "$scratch"
done
exit $status
