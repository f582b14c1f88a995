/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU reference of VMAF's integer VIF feature (libvmaf 3.2 "vif", features
 * integer_vif_scale0..3), the ground truth the GPU kernel is checked against
 * bit for bit.
 *
 * Per scale: separable Gaussian filters (17, 9, 5, 3 taps) give local means,
 * variances and the covariance of reference and distorted luma in fixed
 * point; each pixel adds either log2 terms (looked up in a table of 16-bit
 * mantissas) or, on flat reference areas, linear terms to four integer
 * accumulators. Between scales both pictures are low-passed with the next
 * scale's filter and decimated by two. Borders mirror without repeating the
 * edge sample (reflect-101).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace gpc {

constexpr int kVifScales = 4;

/* The taps of each scale's filter (each sums to 65536) and their count. */
constexpr int kVifTaps[kVifScales] = { 17, 9, 5, 3 };
extern const uint16_t kVifFilter[kVifScales][17];

/* libvmaf's default (and largest) enhancement gain limit; the neg models
 * pass 1.0 (no enhancement gain). */
constexpr double kVifDefaultGainLimit = 100.0;

/* Smallest width and height: below it libvmaf's borders read outside the
 * picture at the coarsest scales. */
constexpr unsigned kVifMinSize = 16;

/* Noise variance, in the fixed-point unit of the variances (2 in 8-bit
 * sample units squared). */
constexpr int32_t kVifSigmaNsq = 65536 << 1;

/* A luma plane: uint8 samples when bytes_per_sample is 1 (8-bit only),
 * uint16 in host order when 2. */
struct VifPlane {
  const void *data;
  ptrdiff_t stride; /* bytes */
  unsigned bytes_per_sample;
};

/* One scale's integer sums, all non-negative: log2 sums of the pixels whose
 * reference variance reaches the noise level (x2048), and the distorted
 * variances and the count of the others. */
struct VifAccum {
  uint64_t num_log;
  uint64_t den_log;
  uint64_t num_non_log;
  uint64_t den_non_log;
};

/* What libvmaf reports for one frame: per scale the float numerator and
 * denominator and their quotient (as a double); and the debug features
 * integer_vif, integer_vif_num, integer_vif_den. */
struct VifScores {
  float num[kVifScales], den[kVifScales];
  double scale[kVifScales];
  double vif, vif_num, vif_den;
};

/* log2(i) * 2048, rounded, for i in [32768, 65535]: libvmaf's table of
 * 16-bit mantissas (index i - 32768). Computed once with the C library's
 * log2f, as libvmaf does. */
const uint16_t *vif_log2_table ();
constexpr unsigned kVifLog2TableSize = 32768;

/* The four scales' sums of a frame pair. width, height >= kVifMinSize,
 * bpc 8..16, gain_limit in [1, 100]. False (nothing written) on bad
 * arguments. */
bool vif_accumulate_ref (const VifPlane &ref, const VifPlane &dist, unsigned width,
    unsigned height, unsigned bpc, double gain_limit, VifAccum accum[kVifScales]);

/* libvmaf's feature values from the sums (shared by the CPU and GPU paths). */
VifScores vif_scores (const VifAccum accum[kVifScales]);

/* One pixel's contribution from its filtered statistics: mu1, mu2 (means,
 * 16 fractional bits), xx, yy, xy (second moments); gain_limit as above. */
void vif_pixel_ref (uint32_t mu1, uint32_t mu2, uint32_t xx, uint32_t yy, uint32_t xy,
    double gain_limit, VifAccum *accum);

} // namespace gpc
