#!/usr/bin/env python3
# gst-gpucodecs: writes a synthetic ProRes frame with extreme values into a
# copy of an ffmpeg-written .mov (SPDX-License-Identifier: LGPL-2.1-or-later).
#
# Real encoders never produce the cases where FFmpeg's int16 truncations and
# 32-bit wrap-arounds matter (scaled matrix entries above 32767, coefficient
# products and DC sums that overflow int16, IDCT rows out of range), nor
# slices without chroma, odd slice header sizes, random alpha codes. This
# frame is full of them; its FFmpeg decode
# (checksums.txt) pins down that arithmetic. The template's first frame is
# replaced (same sample size, zero padded: FFmpeg ignores the padding) and its
# other frames are dropped from the checksums by keeping a single-frame
# template.
#
# Usage: craft-extreme.py template.mov out.mov seed
import random
import struct
import sys


class BitWriter:
    def __init__(self):
        self.bits = []

    def put(self, value, n):
        for i in range(n - 1, -1, -1):
            self.bits.append((value >> i) & 1)

    def bytes(self):
        b = self.bits + [0] * (-len(self.bits) % 8)
        return bytes(int("".join(map(str, b[i:i + 8])), 2) for i in range(0, len(b), 8))


def put_codeword(w, cb, v):
    """RDD 36 adaptive Rice / exp-Golomb code (inverse of the decoder)."""
    k, e, s = cb >> 5, (cb >> 2) & 7, cb & 3
    if v < ((s + 1) << k):
        q = v >> k
        w.put(0, q)
        w.put(1, 1)
        if k:
            w.put(v & ((1 << k) - 1), k)
    else:
        n = v - ((s + 1) << k) + (1 << e)
        length = n.bit_length()
        q = length - e + s
        assert q + length <= 31, (cb, v)
        w.put(0, q)
        w.put(n, length)


def max_codeword(cb):
    """Largest value whose code is at most 31 bits long."""
    k, e, s = cb >> 5, (cb >> 2) & 7, cb & 3
    length = (31 + e - s) // 2
    return (1 << length) - 1 - (1 << e) + ((s + 1) << k)


DC_CB = [0x04, 0x28, 0x28, 0x4D, 0x4D, 0x70, 0x70]
RUN_CB = [0x06, 0x06, 0x05, 0x05, 0x04, 0x29, 0x29, 0x29, 0x29, 0x28, 0x28, 0x28, 0x28, 0x28, 0x28, 0x4C]
LEV_CB = [0x04, 0x0A, 0x05, 0x06, 0x04, 0x28, 0x28, 0x28, 0x28, 0x4C]


def component(rng, nblocks, density):
    w = BitWriter()
    # DC: first value and differences, often huge (the running DC is int16).
    put_codeword(w, 0xB8, rng.choice([rng.randrange(0, 4096), rng.randrange(0, max_codeword(0xB8))]))
    code = 5
    for _ in range(1, nblocks):
        cb = DC_CB[min(code, 6)]
        code = rng.choice([0, 1, 2, rng.randrange(0, 64), rng.randrange(0, max_codeword(cb) + 1)])
        put_codeword(w, cb, code)
    # AC: sparse run/level pairs, levels up to the longest legal code.
    run, level, pos, total = 4, 2, nblocks - 1, 64 * nblocks
    while True:
        r = int(rng.expovariate(density))
        if pos + r + 1 >= total:
            break
        cb = RUN_CB[min(run, 15)]
        r = min(r, max_codeword(cb))
        put_codeword(w, cb, r)
        run, pos = r, pos + r + 1
        cb = LEV_CB[min(level, 9)]
        lv = rng.choice([0, 0, 1, rng.randrange(0, 300), rng.randrange(0, max_codeword(cb) + 1)])
        put_codeword(w, cb, lv)
        level = lv + 1
        w.put(rng.randrange(2), 1)
    return w.bytes()


def alpha_plane(rng, num, bits):
    """Alpha codes (RDD 36 7.1.2) for num samples: full and short differences,
    continuation bits and 4- or 11-bit runs (some past the end: clamped)."""
    w = BitWriter()
    short = 7 if bits == 16 else 4
    idx = 0
    while idx < num:
        while True:
            if rng.random() < 0.3:
                w.put(1, 1)
                w.put(rng.randrange(1 << bits), bits)
            else:
                w.put(0, 1)
                w.put(rng.randrange(1 << short), short)
            idx += 1
            if idx >= num:
                return w.bytes()
            more = rng.random() < 0.6
            w.put(1 if more else 0, 1)
            if not more:
                break
        run = rng.choice([0, 1, 3, 15, 16, rng.randrange(1, 2048)])
        if 0 < run < 16:
            w.put(run, 4)
        else:
            w.put(0, 4)
            w.put(run, 11)
        idx += min(run, num - idx)
    return w.bytes()


def main():
    template, out, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    d = bytearray(open(template, "rb").read())
    start = d.find(b"icpf") - 4
    orig_size = struct.unpack(">I", d[start:start + 4])[0]
    hdr = d[start + 8:start + 8 + 20]
    width, height = struct.unpack(">HH", hdr[8:12])
    is444 = (hdr[12] >> 6) == 3

    # Frame header: both matrices, random bytes 1..255 (scaled entries overflow int16).
    fh = bytearray(hdr)
    fh[0:2] = struct.pack(">H", 148)
    fh[12] = (hdr[12] & 0xC0)            # progressive
    alpha_info = rng.choice([1, 2]) if is444 else 0
    fh[17] = alpha_info                  # 4:4:4: 8- or 16-bit alpha
    fh[19] = 3
    fh += bytes(rng.randrange(1, 256) for _ in range(128))

    mb_w, mb_h = (width + 15) // 16, (height + 15) // 16
    log2w = 3
    slices = []
    for y in range(mb_h):
        x = 0
        while x < mb_w:
            n = 1 << log2w
            while mb_w - x < n:
                n >>= 1
            slices.append(n)
            x += n
    data = []
    for i, n in enumerate(slices):
        q = rng.choice([1, 2, 128, 129, 200, 224, 255, rng.randrange(0, 256)])
        luma = component(rng, 4 * n, 0.12)
        cblocks = (4 if is444 else 2) * n
        if i % 7 == 3:   # no chroma at all: FFmpeg fills 511 << (depth - 10)
            u = v = b""
        else:
            u, v = component(rng, cblocks, 0.15), component(rng, cblocks, 0.15)
        a = alpha_plane(rng, 256 * n, 8 << (alpha_info - 1)) if alpha_info else b""
        # Header sizes 6 and 7 (V implied), 8, 11 and 15 (V explicit, extra
        # bytes skipped); alpha needs an explicit V.
        hs = rng.choice([8, 11, 15] if a or i % 2 else [6, 7])
        sh = bytes([hs << 3, q]) + struct.pack(">HH", len(luma), len(u))
        if hs >= 8:
            sh += struct.pack(">H", len(v))
        sh += bytes(rng.randrange(256) for _ in range(hs - len(sh)))
        data.append(sh + luma + u + v + a)
    index = b"".join(struct.pack(">H", len(s)) for s in data)
    body = b"".join(data)
    pic_size = 8 + len(index) + len(body)
    ph = bytes([8 << 3]) + struct.pack(">IH", pic_size, len(slices)) + bytes([log2w << 4])
    frame = b"icpf" + bytes(fh) + ph + index + body
    total = 4 + len(frame)
    assert total <= orig_size, "crafted frame (%d) larger than the template's (%d)" % (total, orig_size)
    frame = struct.pack(">I", orig_size) + frame + bytes(orig_size - total)
    d[start:start + orig_size] = frame
    open(out, "wb").write(d)


main()
