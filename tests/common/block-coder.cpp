/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "block-coder.h"

#include <stdlib.h>

#include <algorithm>

namespace gpc_test {

std::vector<uint16_t> block_coder_loss (const std::vector<uint16_t> &f, unsigned w, unsigned h,
    unsigned bits, unsigned t)
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
          out[i] = (uint16_t) std::min<int64_t> (max, std::max<int64_t> (0, qmean + qr));
        }
    }
  return out;
}

} // namespace gpc_test
