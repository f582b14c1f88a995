/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-frames.h"

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

/* What a low-rate block coder leaves: [1 2 1] blur, then per 8x8 block the
 * mean quantised with step 4q and the residual with step q. */
std::vector<uint16_t>
distort (const std::vector<uint16_t> &f, unsigned w, unsigned h, unsigned bits, unsigned t)
{
  const uint32_t max = (1u << bits) - 1;
  std::vector<uint16_t> b (f.size ());
  auto at = [&] (int x, int y) {
    x = std::min<int> (w - 1, std::max (0, x));
    y = std::min<int> (h - 1, std::max (0, y));
    return (int32_t) f[(size_t) y * w + x];
  };
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++) {
      int32_t s = 0;
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          s += at (x + dx, y + dy) * (2 - std::abs (dx)) * (2 - std::abs (dy));
      b[(size_t) y * w + x] = (uint16_t) ((s + 8) / 16);
    }
  /* The step changes from frame to frame, as a rate control's would. */
  const int32_t q = (int32_t) ((6 + 3 * (t % 4)) << (bits - 8));
  std::vector<uint16_t> out (f.size ());
  for (unsigned by = 0; by < h; by += 8)
    for (unsigned bx = 0; bx < w; bx += 8) {
      const unsigned bw = std::min (8u, w - bx), bh = std::min (8u, h - by);
      int64_t sum = 0;
      for (unsigned y = 0; y < bh; y++)
        for (unsigned x = 0; x < bw; x++)
          sum += b[(size_t) (by + y) * w + bx + x];
      const int32_t mean = (int32_t) (sum / (bw * bh));
      const int32_t qmean = (mean + 2 * q) / (4 * q) * (4 * q);
      for (unsigned y = 0; y < bh; y++)
        for (unsigned x = 0; x < bw; x++) {
          const size_t i = (size_t) (by + y) * w + bx + x;
          const int32_t r = b[i] - mean;
          const int32_t qr = (r >= 0 ? (r + q / 2) / q : -((-r + q / 2) / q)) * q;
          out[i] = clip (qmean + qr, max);
        }
    }
  return out;
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
    c.dist.push_back (distort (f, w, h, bits, t));
    c.ref.push_back (std::move (f));
  }
  return c;
}

} // namespace gpc_bench
