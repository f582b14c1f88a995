/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-vif-ref.h"

#include "vmaf-motion-ref.h"

#include <math.h>

#include <vector>

namespace gpc {

const uint16_t kVifFilter[kVifScales][17] = {
  { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640,
    935, 489 },
  { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 },
  { 3571, 16004, 26386, 16004, 3571 },
  { 10904, 43728, 10904 },
};

namespace {

/* One picture of a scale: samples of up to 16 bits. */
struct Picture {
  std::vector<uint16_t> px;
  int w = 0, h = 0;
  uint32_t at (int y, int x) const { return px[(size_t) y * w + x]; }
};

/* Rounding right shifts of the vertical pass. Scale 0 brings the means from
 * bpc to 16 bits and the second moments from 2 * bpc to 32; the coarser
 * scales hold 16-bit samples and drop 16 bits from both. */
struct VertShift {
  unsigned mean, moment;
};

VertShift vert_shift (int scale, unsigned bpc)
{
  if (scale == 0)
    return { bpc, 2 * (bpc - 8) };
  return { 16, 16 };
}

inline uint64_t round_shift (uint64_t v, unsigned s)
{
  return s == 0 ? v : (v + ((uint64_t) 1 << (s - 1))) >> s;
}

/* Position of the leading 16 bits of v (v >= 2^17): v >> k is in
 * [2^15, 2^16). */
inline int mantissa_shift (uint64_t v)
{
  return 48 - __builtin_clzll (v);
}

inline uint32_t log2_fixed (uint64_t v)
{
  const int k = mantissa_shift (v);
  return vif_log2_table ()[(v >> k) - 32768] + 2048u * (uint32_t) k;
}

void accumulate_scale (const Picture &ref, const Picture &dis, int scale, unsigned bpc,
    double gain_limit, VifAccum *acc)
{
  const int taps = kVifTaps[scale], radius = taps / 2;
  const uint16_t *c = kVifFilter[scale];
  const VertShift sh = vert_shift (scale, bpc);
  const int w = ref.w, h = ref.h;
  std::vector<uint32_t> m1 (w), m2 (w), xx (w), yy (w), xy (w);

  for (int i = 0; i < h; i++) {
    for (int j = 0; j < w; j++) {
      uint64_t a1 = 0, a2 = 0, axx = 0, ayy = 0, axy = 0;
      for (int k = 0; k < taps; k++) {
        const int r = motion_mirror (i - radius + k, h);
        const uint64_t x = ref.at (r, j), y = dis.at (r, j);
        a1 += c[k] * x;
        a2 += c[k] * y;
        axx += c[k] * x * x;
        ayy += c[k] * y * y;
        axy += c[k] * x * y;
      }
      m1[j] = (uint32_t) round_shift (a1, sh.mean);
      m2[j] = (uint32_t) round_shift (a2, sh.mean);
      xx[j] = (uint32_t) round_shift (axx, sh.moment);
      yy[j] = (uint32_t) round_shift (ayy, sh.moment);
      xy[j] = (uint32_t) round_shift (axy, sh.moment);
    }
    for (int j = 0; j < w; j++) {
      uint64_t a1 = 0, a2 = 0, axx = 0, ayy = 0, axy = 0;
      for (int k = 0; k < taps; k++) {
        const int q = motion_mirror (j - radius + k, w);
        a1 += c[k] * (uint64_t) m1[q];
        a2 += c[k] * (uint64_t) m2[q];
        axx += c[k] * (uint64_t) xx[q];
        ayy += c[k] * (uint64_t) yy[q];
        axy += c[k] * (uint64_t) xy[q];
      }
      vif_pixel_ref ((uint32_t) a1, (uint32_t) a2, (uint32_t) round_shift (axx, 16),
          (uint32_t) round_shift (ayy, 16), (uint32_t) round_shift (axy, 16), gain_limit, acc);
    }
  }
}

/* The next scale's picture: low-pass with that scale's filter, keep even
 * rows and columns. */
Picture decimate (const Picture &in, int scale, unsigned bpc)
{
  const int taps = kVifTaps[scale + 1], radius = taps / 2;
  const uint16_t *c = kVifFilter[scale + 1];
  const unsigned sh = vert_shift (scale, bpc).mean;
  Picture out;
  out.w = in.w / 2;
  out.h = in.h / 2;
  out.px.resize ((size_t) out.w * out.h);
  std::vector<uint32_t> v (in.w);
  for (int i = 0; i < out.h; i++) {
    for (int j = 0; j < in.w; j++) {
      uint64_t a = 0;
      for (int k = 0; k < taps; k++)
        a += c[k] * (uint64_t) in.at (motion_mirror (2 * i - radius + k, in.h), j);
      v[j] = (uint32_t) round_shift (a, sh);
    }
    for (int j = 0; j < out.w; j++) {
      uint64_t a = 0;
      for (int k = 0; k < taps; k++)
        a += c[k] * (uint64_t) v[motion_mirror (2 * j - radius + k, in.w)];
      out.px[(size_t) i * out.w + j] = (uint16_t) round_shift (a, 16);
    }
  }
  return out;
}

Picture load (const VifPlane &p, int w, int h)
{
  Picture out;
  out.w = w;
  out.h = h;
  out.px.resize ((size_t) w * h);
  for (int y = 0; y < h; y++) {
    const uint8_t *row = (const uint8_t *) p.data + y * p.stride;
    for (int x = 0; x < w; x++)
      out.px[(size_t) y * w + x] =
          p.bytes_per_sample == 1 ? row[x] : ((const uint16_t *) row)[x];
  }
  return out;
}

} // namespace

const uint16_t *vif_log2_table ()
{
  static const std::vector<uint16_t> table = [] {
    std::vector<uint16_t> t (kVifLog2TableSize);
    for (unsigned i = 0; i < kVifLog2TableSize; i++)
      t[i] = (uint16_t) round (log2f ((float) (i + 32768)) * 2048);
    return t;
  }();
  return table.data ();
}

void vif_pixel_ref (uint32_t mu1, uint32_t mu2, uint32_t xx, uint32_t yy, uint32_t xy,
    double gain_limit, VifAccum *acc)
{
  const uint64_t half = (uint64_t) 1 << 31;
  const uint32_t mu1_sq = (uint32_t) (((uint64_t) mu1 * mu1 + half) >> 32);
  const uint32_t mu2_sq = (uint32_t) (((uint64_t) mu2 * mu2 + half) >> 32);
  const uint32_t mu1_mu2 = (uint32_t) (((uint64_t) mu1 * mu2 + half) >> 32);
  /* Differences wrap in 32 bits and are read as signed, as libvmaf does. */
  const int32_t sigma1_sq = (int32_t) (xx - mu1_sq);
  int32_t sigma2_sq = (int32_t) (yy - mu2_sq);
  const int32_t sigma12 = (int32_t) (xy - mu1_mu2);
  if (sigma2_sq < 0)
    sigma2_sq = 0;

  if (sigma1_sq < kVifSigmaNsq) {
    acc->num_non_log += (uint32_t) sigma2_sq;
    acc->den_non_log++;
    return;
  }
  /* log2(1 + sigma1_sq / sigma_nsq) = log2(sigma_nsq + sigma1_sq) - 17 */
  acc->den_log += log2_fixed ((uint32_t) (kVifSigmaNsq + sigma1_sq)) - 2048u * 17;
  if (sigma12 <= 0 || sigma2_sq <= 0)
    return;

  /* The gain and the residual noise in double precision, each operation
   * rounded as libvmaf's x86-64 build does. The volatile product keeps a
   * compiler from fusing it with the subtraction (FMA targets). */
  const double eps = 65536 * 1.0e-10;
  double g = sigma12 / (sigma1_sq + eps);
  const volatile double g_sigma12 = g * sigma12;
  const double sv = sigma2_sq - g_sigma12;
  /* libvmaf converts to int32 and clamps at 0; sv < sigma2_sq < 2^31. */
  const uint32_t sv_sq = sv > 0 ? (uint32_t) (int32_t) sv : 0;
  if (!(g < gain_limit))
    g = gain_limit;
  const uint32_t numer1 = sv_sq + (uint32_t) kVifSigmaNsq;
  const int64_t numer1_tmp = (int64_t) (g * g * sigma1_sq) + numer1;
  acc->num_log += log2_fixed ((uint64_t) numer1_tmp) - log2_fixed (numer1);
}

bool vif_accumulate_ref (const VifPlane &ref, const VifPlane &dist, unsigned width,
    unsigned height, unsigned bpc, double gain_limit, VifAccum accum[kVifScales])
{
  if (width < kVifMinSize || height < kVifMinSize || width > (1u << 16)
      || height > (1u << 16) || bpc < 8 || bpc > 16 || !(gain_limit >= 1.0)
      || !(gain_limit <= kVifDefaultGainLimit) || !ref.data || !dist.data)
    return false;
  for (const VifPlane *p : { &ref, &dist }) {
    if (p->bytes_per_sample != 2 && !(p->bytes_per_sample == 1 && bpc == 8))
      return false;
  }
  Picture r = load (ref, (int) width, (int) height);
  Picture d = load (dist, (int) width, (int) height);
  for (int scale = 0; scale < kVifScales; scale++) {
    if (scale > 0) {
      r = decimate (r, scale - 1, bpc);
      d = decimate (d, scale - 1, bpc);
    }
    accum[scale] = {};
    accumulate_scale (r, d, scale, bpc, gain_limit, &accum[scale]);
  }
  return true;
}

VifScores vif_scores (const VifAccum accum[kVifScales])
{
  VifScores s = {};
  for (int i = 0; i < kVifScales; i++) {
    const VifAccum &a = accum[i];
    /* libvmaf keeps numerator and denominator as floats. */
    s.num[i] = (float) ((int64_t) a.num_log / 2048.0
        + ((int64_t) a.den_non_log - ((int64_t) a.num_non_log / 16384.0) / 65025.0));
    s.den[i] = (float) ((int64_t) a.den_log / 2048.0 + (int64_t) a.den_non_log);
    s.scale[i] = s.num[i] / s.den[i];
    s.vif_num += s.num[i];
    s.vif_den += s.den[i];
  }
  s.vif = s.vif_den == 0.0 ? 1.0 : s.vif_num / s.vif_den;
  return s;
}

} // namespace gpc
