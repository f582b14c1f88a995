/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU reference of VMAF's integer motion feature (libvmaf 3.2 "motion",
 * formerly integer_motion_v2), the ground truth the GPU kernel is checked
 * against bit for bit.
 *
 * Per frame pair: d = prev - cur on luma, 5-tap vertical filter then 5-tap
 * horizontal filter (mirror borders), sum of absolute values.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace gpc {

/* The motion filter, sum 65536 (libvmaf's integer motion taps). */
constexpr int kMotionTaps = 5;
constexpr int32_t kMotionFilter[kMotionTaps] = { 3571, 16004, 26386, 16004, 3571 };

/* Reflect-101 border: -1 -> 1, n -> n - 2. Valid for n >= 3. */
inline int motion_mirror (int idx, int n)
{
  if (idx < 0)
    return -idx;
  if (idx >= n)
    return 2 * n - idx - 2;
  return idx;
}

/* A luma plane as unpacked sample values (one uint16 per sample). */
struct LumaPlane {
  const uint16_t *data;
  ptrdiff_t stride; /* in samples */
};

/* Exact SAD of the filtered difference prev - cur, as libvmaf's scalar code
 * computes it: the vertical pass rounds with (acc + 2^(bpc-1)) >> bpc, the
 * horizontal pass with (acc + 2^15) >> 16, and each row's absolute sum is a
 * 32-bit unsigned value before it is added to the 64-bit total (rows of up to
 * 65536 samples cannot wrap it). Width and height must be >= 3, bpc 8..16. */
uint64_t motion_sad_ref (const LumaPlane &prev, const LumaPlane &cur,
    unsigned width, unsigned height, unsigned bpc);

/* The per-frame score from a SAD: sad / 256 / (w * h), weighted and clipped. */
double motion_score_from_sad (uint64_t sad, unsigned width, unsigned height,
    double fps_weight, double max_val);

/* libvmaf's blend: score * factor + (1 - factor) * min(offset, score). */
double motion_blend (double score, double factor, double offset);

} // namespace gpc
