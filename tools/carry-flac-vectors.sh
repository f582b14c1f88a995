#!/usr/bin/env bash
# Puts one half of the FLAC conformance subset into .devkit/vectors, for a
# GPU-machine call: the whole subset (45 MB) and the lean kit do not fit the
# 64 MiB a call carries, two halves do. Both halves hold the files that
# test-cudaflacdec compares with flacdec by name.
# Usage: tools/carry-flac-vectors.sh 1|2   (after DEVKIT_LEAN=1 tools/make-devkit.sh)
# Then, there: GPC_VECTORS_DIR=$PWD/.devkit/vectors .devkit/build/tests/flac/test-cudaflacdec-cuda
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
half=${1:?1 or 2}
src="$root/../shared/vectors/flac-test-files/subset"
dst="$root/.devkit/vectors/flac-test-files/subset"
[ -d "$src" ] || { echo "carry-flac-vectors: $src not found"; exit 1; }
rm -rf "$dst"
mkdir -p "$dst"
named=$(grep -o '"[0-9][0-9] - [^"]*\.flac"' "$root/tests/flac/test-cudaflacdec.cpp" | tr -d '"')
i=0
while IFS= read -r f; do
  if grep -qxF "$f" <<< "$named"; then
    cp "$src/$f" "$dst/"
    continue
  fi
  i=$((i + 1))
  [ $(( i % 2 )) = $(( half % 2 )) ] && cp "$src/$f" "$dst/"
done < <(cd "$src" && ls -- *.flac)
echo "$(ls "$dst" | wc -l) files, $(du -sh "$dst" | cut -f1) in $dst"
