#!/bin/sh
# gst-gpucodecs: extracts every ProRes frame of tests/media/prores/*.mov into
# a libFuzzer corpus folder (SPDX-License-Identifier: LGPL-2.1-or-later).
# Usage: make-corpus.sh <corpus-folder>
set -eu
src=$(dirname "$0")/../../tests/media/prores
out=${1:?corpus folder}
mkdir -p "$out"
python3 - "$src" "$out" <<'PY'
import os, struct, sys
src, out = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    if not name.endswith(".mov"):
        continue
    d = open(os.path.join(src, name), "rb").read()
    pos, n = 0, 0
    while pos + 8 <= len(d):
        size, kind = struct.unpack(">I4s", d[pos:pos + 8])
        if size < 8:
            break
        if kind == b"mdat":
            f = pos + 8
            while f + 8 <= pos + size and d[f + 4:f + 8] == b"icpf":
                fs = struct.unpack(">I", d[f:f + 4])[0]
                open(os.path.join(out, "%s.%d.icpf" % (name[:-4], n)), "wb").write(d[f:f + fs])
                f += fs
                n += 1
        pos += size
PY
ls "$out" | wc -l
