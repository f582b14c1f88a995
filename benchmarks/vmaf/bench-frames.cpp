/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-frames.h"

#include "block-coder.h"

#include <algorithm>
#include <cmath>

namespace gpc_bench {

namespace {

uint64_t
next (uint64_t &s)
{
  s = s * 6364136223846793005ull + 1442695040888963407ull;
  return s >> 33;
}

/* Smooth texture: white noise box-filtered twice (so detail at a few
 * scales), values around 0, larger than a frame by `margin` for the pan. */
std::vector<int32_t>
texture (unsigned w, unsigned h, uint64_t &seed)
{
  std::vector<int32_t> t ((size_t) w * h), tmp ((size_t) w * h);
  for (int32_t &v : t)
    v = (int32_t) (next (seed) & 1023) - 512;
  const int r = 2;
  for (int pass = 0; pass < 2; pass++) {
    for (unsigned y = 0; y < h; y++)
      for (unsigned x = 0; x < w; x++) {
        int32_t s = 0;
        for (int k = -r; k <= r; k++)
          s += t[(size_t) y * w + std::min<int> (w - 1, std::max<int> (0, (int) x + k))];
        tmp[(size_t) y * w + x] = s / (2 * r + 1);
      }
    for (unsigned y = 0; y < h; y++)
      for (unsigned x = 0; x < w; x++) {
        int32_t s = 0;
        for (int k = -r; k <= r; k++)
          s += tmp[(size_t) std::min<int> (h - 1, std::max<int> (0, (int) y + k)) * w + x];
        t[(size_t) y * w + x] = s / (2 * r + 1);
      }
  }
  return t;
}

uint16_t
clip (int64_t v, uint32_t max)
{
  return (uint16_t) std::min<int64_t> (max, std::max<int64_t> (0, v));
}

} // namespace

VmafBenchClip
make_vmaf_bench_clip (unsigned w, unsigned h, unsigned bits, unsigned frames, uint64_t seed)
{
  VmafBenchClip c;
  c.width = w;
  c.height = h;
  c.bits = bits;
  const unsigned margin = 4 * frames + 64;
  const unsigned tw = w + margin, th = h + margin;
  const std::vector<int32_t> tex = texture (tw, th, seed);
  const uint32_t max = (1u << bits) - 1;
  const int shift = (int) bits - 10;
  for (unsigned t = 0; t < frames; t++) {
    std::vector<uint16_t> f ((size_t) w * h);
    /* Two objects with sharp edges crossing the panning background. */
    const int ox = (int) ((w / 5 + 37 * t) % w), oy = (int) (h / 3);
    const int px = (int) (w / 2), py = (int) ((h / 4 + 23 * t) % h);
    const int r2 = (int) (h / 8) * (int) (h / 8);
    for (unsigned y = 0; y < h; y++) {
      for (unsigned x = 0; x < w; x++) {
        /* Pan: 3 samples right, 2 down per frame; a slow vertical gradient. */
        int64_t v = 512 + tex[(size_t) (y + 2 * t) * tw + x + 3 * t] * 3
            + (int64_t) (y * 256 / h) - 128;
        const int dx = (int) x - ox, dy = (int) y - oy;
        if (dx * dx + dy * dy < r2)
          v = 820 + tex[(size_t) y * tw + x] / 2;
        if ((unsigned) ((int) x - px + (int) w / 16) < w / 8
            && (unsigned) ((int) y - py + (int) h / 10) < h / 5)
          v = 160 + ((x / 4 + y / 4) & 1) * 96;
        f[(size_t) y * w + x] = clip (shift >= 0 ? v << shift : v >> -shift, max);
      }
    }
    c.dist.push_back (gpc_test::block_coder_loss (f, w, h, bits, t));
    c.ref.push_back (std::move (f));
  }
  return c;
}

} // namespace gpc_bench
