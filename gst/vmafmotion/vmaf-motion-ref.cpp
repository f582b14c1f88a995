/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-motion-ref.h"

#include <algorithm>
#include <vector>

namespace gpc {

uint64_t motion_sad_ref (const LumaPlane &prev, const LumaPlane &cur,
    unsigned width, unsigned height, unsigned bpc)
{
  const int w = (int) width, h = (int) height;
  const int radius = kMotionTaps / 2;
  /* 8-bit keeps libvmaf's 32-bit vertical accumulator, deeper samples a
   * 64-bit one; both shift by bpc. */
  const int64_t y_round = (int64_t) 1 << (bpc - 1);
  std::vector<int32_t> row (width);
  uint64_t sad = 0;

  for (int i = 0; i < h; i++) {
    for (int j = 0; j < w; j++) {
      int64_t acc = 0;
      for (int k = 0; k < kMotionTaps; k++) {
        int r = motion_mirror (i - radius + k, h);
        int32_t d = (int32_t) prev.data[r * prev.stride + j] -
            (int32_t) cur.data[r * cur.stride + j];
        acc += (int64_t) kMotionFilter[k] * d;
      }
      row[j] = (int32_t) ((acc + y_round) >> bpc);
    }
    uint32_t row_sad = 0;
    for (int j = 0; j < w; j++) {
      int64_t acc = 0;
      for (int k = 0; k < kMotionTaps; k++)
        acc += (int64_t) kMotionFilter[k] * row[motion_mirror (j - radius + k, w)];
      int32_t v = (int32_t) ((acc + 32768) >> 16);
      row_sad += (uint32_t) (v < 0 ? -v : v);
    }
    sad += row_sad;
  }
  return sad;
}

double motion_score_from_sad (uint64_t sad, unsigned width, unsigned height,
    double fps_weight, double max_val)
{
  double score = (double) sad / 256. / (width * height) * fps_weight;
  return std::min (score, max_val);
}

double motion_blend (double score, double factor, double offset)
{
  return score * factor + (1 - factor) * std::min (offset, score);
}

} // namespace gpc
