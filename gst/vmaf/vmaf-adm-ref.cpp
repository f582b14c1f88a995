/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Written from libvmaf 3.2's scalar integer ADM (feature "adm"). Where
 * libvmaf relies on two's-complement wrap-around or on a narrowing store,
 * this code does the same explicitly (wrap32 / int16 casts), so that the
 * results are defined and equal to libvmaf's on x86-64 and AArch64.
 */
#include "vmaf-adm-ref.h"

#include <math.h>
#include <string.h>

#include <algorithm>
#include <vector>

namespace gpc {

namespace {

/* db2 analysis filters in Q15 (low sum 46342 = sqrt(2) * 2^15). */
const int32_t kLo[4] = { 15826, 27411, 7345, -4240 };
const int32_t kHi[4] = { -4240, -7345, 27411, -15826 };
const int32_t kLoSum = 46342;

/* Watson et al.'s wavelet noise floor model for luma (a, k, f0, g) and the
 * basis function amplitudes of the 9/7 wavelet per level and orientation. */
const float kModelA = 0.495f, kModelK = 0.466f, kModelF0 = 0.401f;
const float kModelG[4] = { 1.501f, 1.0f, 0.534f, 1.0f };
const float kAmplitude[4][4] = {
  { 0.62171f, 0.67234f, 0.72709f, 0.67234f },
  { 0.34537f, 0.41317f, 0.49428f, 0.41317f },
  { 0.18004f, 0.22727f, 0.28688f, 0.22727f },
  { 0.091401f, 0.11792f, 0.15214f, 0.11792f },
};

int32_t wrap32 (int64_t v)
{
  return (int32_t) (uint32_t) (uint64_t) v;
}

int32_t abs32 (int32_t v)
{
  return v < 0 ? (int32_t) (0u - (uint32_t) v) : v;
}

/* Input row / column of tap k (0..3) for output i: 2i - 1 + k, mirrored
 * without repeating the edge at the start and with it at the end. */
int dwt_index (int i, int k, int n)
{
  int x = 2 * i - 1 + k;
  if (x < 0)
    x = -x;
  if (x >= n)
    x = 2 * n - x - 1;
  return x;
}

/* Band planes of one picture at one scale (int32 samples, row-major). */
struct Bands {
  std::vector<int32_t> a, h, v, d;
  void resize (size_t n)
  {
    a.assign (n, 0);
    h.assign (n, 0);
    v.assign (n, 0);
    d.assign (n, 0);
  }
};

/* Rounding of the two passes per scale (index 0: scale 0, shift_v is the
 * sample depth there). */
const int64_t kAddV[4] = { 0, 0, 32768, 32768 };
const int kShiftV[4] = { 0, 0, 16, 16 };
const int64_t kAddH[4] = { 32768, 16384, 32768, 16384 };
const int kShiftH[4] = { 16, 15, 16, 15 };

/* One wavelet step of an n_w x n_h picture given by `in(y, x)`. */
template <typename In>
void dwt_step (In in, int n_w, int n_h, int scale, unsigned bpc, Bands *out)
{
  const int w = (n_w + 1) / 2, h = (n_h + 1) / 2;
  out->resize ((size_t) w * h);
  std::vector<int32_t> lo (n_w), hi (n_w);
  for (int i = 0; i < h; i++) {
    const int y[4] = { dwt_index (i, 0, n_h), dwt_index (i, 1, n_h), dwt_index (i, 2, n_h),
      dwt_index (i, 3, n_h) };
    for (int x = 0; x < n_w; x++) {
      int64_t sl = 0, sh = 0;
      for (int k = 0; k < 4; k++) {
        const int64_t s = in (y[k], x);
        sl += kLo[k] * s;
        sh += kHi[k] * s;
      }
      if (scale == 0) {
        /* Samples are centred on zero: subtract half the range times the
         * filter's sum (the high-pass sum is zero). The results fit int16. */
        const int64_t half = (int64_t) 1 << (bpc - 1);
        lo[x] = (int16_t) ((sl - kLoSum * half + half) >> bpc);
        hi[x] = (int16_t) ((sh + half) >> bpc);
      } else {
        lo[x] = wrap32 ((sl + kAddV[scale]) >> kShiftV[scale]);
        hi[x] = wrap32 ((sh + kAddV[scale]) >> kShiftV[scale]);
      }
    }
    for (int j = 0; j < w; j++) {
      const int x[4] = { dwt_index (j, 0, n_w), dwt_index (j, 1, n_w), dwt_index (j, 2, n_w),
        dwt_index (j, 3, n_w) };
      int64_t ll = 0, lh = 0, hl = 0, hh = 0;
      for (int k = 0; k < 4; k++) {
        ll += kLo[k] * (int64_t) lo[x[k]];
        lh += kHi[k] * (int64_t) lo[x[k]];
        hl += kLo[k] * (int64_t) hi[x[k]];
        hh += kHi[k] * (int64_t) hi[x[k]];
      }
      const size_t o = (size_t) i * w + j;
      const int64_t add = kAddH[scale];
      const int sh = kShiftH[scale];
      if (scale == 0) {
        out->a[o] = (int16_t) ((ll + add) >> sh);
        out->v[o] = (int16_t) ((lh + add) >> sh);
        out->h[o] = (int16_t) ((hl + add) >> sh);
        out->d[o] = (int16_t) ((hh + add) >> sh);
      } else {
        out->a[o] = wrap32 ((ll + add) >> sh);
        out->v[o] = wrap32 ((lh + add) >> sh);
        out->h[o] = wrap32 ((hl + add) >> sh);
        out->d[o] = wrap32 ((hh + add) >> sh);
      }
    }
  }
}

/* 2^30 / v for v in -32768..32768 (libvmaf's reciprocal table). */
int32_t div_q30 (int32_t v)
{
  return v < 0 ? -(int32_t) (1073741824 / -v) : (int32_t) (1073741824 / v);
}

/* The ratio th / oh in Q15, clamped to [0, 1]. */
int64_t decouple_k (int32_t o, int32_t t, int scale)
{
  if (o == 0)
    return 32768;
  int64_t k;
  if (scale == 0) {
    k = ((int64_t) div_q30 (o) * t + 16384) >> 15;
  } else {
    /* Divisors of more than 15 bits are rounded to their top 15 bits. */
    const uint32_t ao = (uint32_t) abs32 (o);
    int shift = 0;
    uint32_t m = ao;
    if (ao >= 32768) {
      shift = 17 - __builtin_clz (ao);
      m = (ao + (1u << (shift - 1))) >> shift;
    }
    const int64_t sign = o < 0 ? -1 : 1;
    const int64_t round = (int32_t) (1u << (14 + shift));
    k = (((int64_t) div_q30 ((int32_t) m) * t) * sign + round) >> (15 + shift);
  }
  return std::min<int64_t> (std::max<int64_t> (k, 0), 32768);
}

/* Restored part of one detail coefficient (o: reference, t: distorted). */
int32_t decouple_restore (int32_t o, int32_t t, bool angle_flag, double gain, int scale)
{
  const int64_t k = decouple_k (o, t, scale);
  int32_t rst;
  if (scale == 0)
    rst = (int16_t) ((k * o + 16384) >> 15);
  else
    rst = wrap32 ((k * o + 16384) >> 15);
  /* libvmaf tests the sign of the float product k / 2^15 * o / 64. */
  if (angle_flag && k > 0 && o > 0)
    rst = (int32_t) std::min ((double) rst * gain, (double) t);
  else if (angle_flag && k > 0 && o < 0)
    rst = (int32_t) std::max ((double) rst * gain, (double) t);
  return scale == 0 ? (int16_t) rst : rst;
}

struct Region {
  int left, top, right, bottom;
};

/* Decoupling and CSF of one scale: restored detail r, CSF-weighted additive
 * detail csf and its masking contribution flt, per band h, v, d. */
struct Masking {
  std::vector<int32_t> r[3], csf[3], flt[3];
};

void decouple_csf (const Bands &ref, const Bands &dis, const AdmScaleGeom &g, int scale,
    const AdmParams &params, const AdmConsts &c, Masking *m)
{
  const size_t n = (size_t) g.w * g.h;
  for (int t = 0; t < 3; t++) {
    m->r[t].assign (n, 0);
    m->csf[t].assign (n, 0);
    m->flt[t].assign (n, 0);
  }
  const AdmRect &e = g.ext;
  for (int i = e.top; i < e.bottom; i++) {
    for (int j = e.left; j < e.right; j++) {
      const size_t o = (size_t) i * g.w + j;
      const int32_t oh = ref.h[o], ov = ref.v[o], od = ref.d[o];
      const int32_t th = dis.h[o], tv = dis.v[o], td = dis.d[o];
      const int64_t ot_dp = (int64_t) oh * th + (int64_t) ov * tv;
      const int64_t o_mag_sq = (int64_t) oh * oh + (int64_t) ov * ov;
      const int64_t t_mag_sq = (int64_t) th * th + (int64_t) tv * tv;
      const bool angle = adm_angle_flag (ot_dp, o_mag_sq, t_mag_sq);
      const int32_t os[3] = { oh, ov, od }, ts[3] = { th, tv, td };
      for (int b = 0; b < 3; b++) {
        const int32_t rst = decouple_restore (os[b], ts[b], angle, params.enhn_gain_limit, scale);
        const int32_t add = scale == 0 ? (int16_t) (ts[b] - rst) : wrap32 ((int64_t) ts[b] - rst);
        m->r[b][o] = rst;
        if (scale == 0) {
          /* Q21 (h, v) or Q23 (d) weights; results Q16. */
          static const int32_t round[3] = { 16384, 16384, 65535 };
          static const int shift[3] = { 15, 15, 17 };
          const int16_t v = (int16_t) (((int32_t) c.i_rfactor[0][b] * add + round[b]) >> shift[b]);
          m->csf[b][o] = v;
          m->flt[b][o] = (int16_t) ((4369 * abs32 (v) + 2048) >> 12);
        } else {
          const int32_t v = wrap32 (((int64_t) c.i_rfactor[scale][b] * add + (1 << 27)) >> 28);
          m->csf[b][o] = v;
          /* libvmaf's rounding term 2^31 is stored in an int32: it subtracts. */
          m->flt[b][o] = wrap32 (((int64_t) 143165577 * abs32 (v) - 2147483648LL) >> 32);
        }
      }
    }
  }
}

/* Masking threshold at (i, j): the 3x3 neighbourhood of flt over the three
 * bands, the centre from csf. Neighbours mirror to index 1 above / left of
 * the band and repeat the edge below / right of it. */
int32_t mask_threshold (const Masking &m, const AdmScaleGeom &g, int scale, int i, int j)
{
  const int up = i == 0 ? 1 : i - 1, down = i == g.h - 1 ? g.h - 1 : i + 1;
  const int lf = j == 0 ? 1 : j - 1, rt = j == g.w - 1 ? g.w - 1 : j + 1;
  const int ys[3] = { up, i, down }, xs[3] = { lf, j, rt };
  uint32_t thr = 0;
  for (int b = 0; b < 3; b++) {
    for (int dy = 0; dy < 3; dy++) {
      for (int dx = 0; dx < 3; dx++) {
        const size_t o = (size_t) ys[dy] * g.w + xs[dx];
        int32_t v;
        if (dy == 1 && dx == 1) {
          const int32_t a = abs32 (m.csf[b][o]);
          if (scale == 0)
            v = (int16_t) ((8738 * a + 2048) >> 12);
          else
            v = wrap32 (((int64_t) 286331153 * a - 2147483648LL) >> 32);
        } else {
          v = m.flt[b][o];
        }
        thr += (uint32_t) v;
      }
    }
  }
  return (int32_t) thr;
}

uint32_t ceil_log2_u32 (double v)
{
  return (uint32_t) (int64_t) ceil (log2 (v));
}

/* libvmaf's (uint32) pow (2, shift - 1): 0 for shift 0. */
uint64_t half_of (uint32_t shift)
{
  return shift == 0 ? 0 : (uint64_t) 1 << (shift - 1);
}

AdmShifts shifts_for (const AdmScaleGeom &g, int scale)
{
  AdmShifts s {};
  const AdmRect &r = g.core;
  if (scale == 0) {
    const uint32_t cub_hv = (uint32_t) (int64_t) ceil (log2 ((double) g.w) - 4);
    const uint32_t cub_d = (uint32_t) (int64_t) ceil (log2 ((double) g.w) - 3);
    const uint32_t sub[3] = { 10, 10, 12 }, sq[3] = { 29, 29, 30 }, cub[3] = { cub_hv, cub_hv, cub_d };
    memcpy (s.num_sub, sub, sizeof sub);
    memcpy (s.num_sq, sq, sizeof sq);
    memcpy (s.num_cub, cub, sizeof cub);
    const int32_t den_row =
        (int32_t) ceil (log2 ((double) ((r.bottom - r.top) * (r.right - r.left))) - 20);
    s.den_row = den_row > 0 ? den_row : 0;
  } else {
    for (int b = 0; b < 3; b++) {
      s.num_sub[b] = 0;
      s.num_sq[b] = 30;
      s.num_cub[b] = ceil_log2_u32 (g.w);
    }
    static const uint32_t den_sq[3] = { 31, 30, 31 };
    s.den_sq = den_sq[scale - 1];
    s.den_cub = ceil_log2_u32 (r.right - r.left);
    s.den_row = ceil_log2_u32 (r.bottom - r.top);
  }
  s.num_row = ceil_log2_u32 (g.h);
  return s;
}

void masked_sums (const Bands &ref, const Masking &m, const AdmScaleGeom &g, int scale,
    const AdmConsts &c, AdmAccum *acc)
{
  const AdmShifts s = shifts_for (g, scale);
  const AdmRect &r = g.core;
  const std::vector<int32_t> *den_src[3] = { &ref.h, &ref.v, &ref.d };
  for (int b = 0; b < 3; b++) {
    acc->num[scale][b] = 0;
    acc->den[scale][b] = 0;
  }
  for (int i = r.top; i < r.bottom; i++) {
    int64_t num_row[3] = { 0, 0, 0 };
    uint64_t den_row[3] = { 0, 0, 0 };
    for (int j = r.left; j < r.right; j++) {
      const size_t o = (size_t) i * g.w + j;
      const int32_t thr = mask_threshold (m, g, scale, i, j);
      for (int b = 0; b < 3; b++) {
        int32_t x;
        if (scale == 0)
          x = (int32_t) ((uint32_t) m.r[b][o] * c.i_rfactor[0][b]);
        else
          x = wrap32 (((int64_t) m.r[b][o] * c.i_rfactor[scale][b] + (1 << 27)) >> 28);
        x = (int32_t) ((uint32_t) abs32 (x) - ((uint32_t) thr << s.num_sub[b]));
        if (x < 0)
          x = 0;
        const int32_t x_sq =
            wrap32 (((int64_t) x * x + ((int64_t) 1 << (s.num_sq[b] - 1))) >> s.num_sq[b]);
        num_row[b] += ((int64_t) x_sq * x + (int64_t) half_of (s.num_cub[b])) >> s.num_cub[b];

        const uint32_t d = (uint32_t) abs32 ((*den_src[b])[o]);
        if (scale == 0) {
          den_row[b] += (uint64_t) d * d * d;
        } else {
          /* libvmaf rounds the square with 2^shift, not 2^(shift - 1). */
          const uint64_t sq = ((uint64_t) d * d + ((uint64_t) 1 << s.den_sq)) >> s.den_sq;
          den_row[b] += (sq * d + half_of (s.den_cub)) >> s.den_cub;
        }
      }
    }
    for (int b = 0; b < 3; b++) {
      acc->num[scale][b] += (num_row[b] + (int64_t) half_of (s.num_row)) >> s.num_row;
      acc->den[scale][b] += (den_row[b] + half_of (s.den_row)) >> s.den_row;
    }
  }
}

/* 1 / quantisation step of the noise floor model (float, as libvmaf). */
float csf_weight (const AdmParams &p, int lambda, int theta)
{
  const float r = p.norm_view_dist * p.ref_display_height * M_PI / 180.0;
  const float temp = log10 (pow (2.0, lambda + 1) * kModelF0 * kModelG[theta] / r);
  const float q = 2.0 * kModelA * pow (10.0, kModelK * temp * temp) / kAmplitude[lambda][theta];
  return 1.0f / q;
}

} // namespace

void adm_shifts (const AdmScaleGeom &geom, int scale, AdmShifts *shifts)
{
  *shifts = shifts_for (geom, scale);
}

bool adm_params_valid (const AdmParams &p, std::string *why)
{
  const char *err = nullptr;
  if (!(p.enhn_gain_limit >= 1.0 && p.enhn_gain_limit <= 100.0))
    err = "adm_enhn_gain_limit must be in [1, 100]";
  else if (!(p.norm_view_dist >= 0.75 && p.norm_view_dist <= 24.0))
    err = "adm_norm_view_dist must be in [0.75, 24]";
  else if (p.ref_display_height < 1 || p.ref_display_height > 4320)
    err = "adm_ref_display_height must be in [1, 4320]";
  else if (!(p.noise_weight >= 0.0 && p.noise_weight <= 1500.0))
    err = "adm_noise_weight must be in [0, 1500]";
  else if (p.norm_view_dist * p.ref_display_height < 3.0 * 1080)
    /* libvmaf's 16-bit scale-0 data path cannot represent finer angular
     * frequencies and refuses them too. */
    err = "adm_norm_view_dist * adm_ref_display_height must be at least 3 * 1080";
  if (err && why)
    *why = err;
  return err == nullptr;
}

bool adm_size_supported (unsigned width, unsigned height)
{
  return width >= kAdmMinSize && height >= kAdmMinSize && width <= 32768 && height <= 32768;
}

void adm_geometry (unsigned width, unsigned height, AdmScaleGeom geom[4])
{
  int w = width, h = height;
  for (int s = 0; s < 4; s++) {
    w = (w + 1) / 2;
    h = (h + 1) / 2;
    AdmScaleGeom &g = geom[s];
    g.w = w;
    g.h = h;
    /* 10% of each side is left out of the sums; the decoupling and CSF run
     * one filter tap further (libvmaf's truncating int conversions). */
    int l = (int) (w * 0.1 - 0.5 - 1), t = (int) (h * 0.1 - 0.5 - 1);
    g.ext.right = std::min (w - l + 2, w);
    g.ext.bottom = std::min (h - t + 2, h);
    g.ext.left = std::max (l, 0);
    g.ext.top = std::max (t, 0);
    l = (int) (w * 0.1 - 0.5);
    t = (int) (h * 0.1 - 0.5);
    g.core = { l, t, w - l, h - t };
  }
}

void adm_consts (const AdmParams &p, AdmConsts *c)
{
  for (int s = 0; s < 4; s++) {
    const float f1 = csf_weight (p, s, 1), f2 = csf_weight (p, s, 2);
    const float f[3] = { f1, f1, f2 };
    for (int b = 0; b < 3; b++) {
      c->rfactor[s][b] = f[b];
      if (s > 0)
        c->i_rfactor[s][b] = (uint32_t) (f[b] * pow (2, 32));
    }
  }
  if (fabs (p.norm_view_dist * p.ref_display_height - 3.0 * 1080) < 1.0e-8) {
    /* libvmaf's fixed values for the default viewing conditions. */
    c->i_rfactor[0][0] = 36453;
    c->i_rfactor[0][1] = 36453;
    c->i_rfactor[0][2] = 49417;
  } else {
    c->i_rfactor[0][0] = (uint16_t) (c->rfactor[0][0] * pow (2, 21));
    c->i_rfactor[0][1] = (uint16_t) (c->rfactor[0][1] * pow (2, 21));
    c->i_rfactor[0][2] = (uint16_t) (c->rfactor[0][2] * pow (2, 23));
  }
  const double g = p.enhn_gain_limit;
  c->gain_limit = (g == floor (g) && g >= 1 && g <= 100) ? (int32_t) g : 0;
}

bool adm_angle_flag (int64_t ot_dp, int64_t o_mag_sq, int64_t t_mag_sq)
{
  const float cos_1deg_sq = cos (1.0 * M_PI / 180.0) * cos (1.0 * M_PI / 180.0);
  const double dp = (float) ot_dp / 4096.0;
  return dp >= 0.0f
      && dp * dp >= cos_1deg_sq * ((float) o_mag_sq / 4096.0) * ((float) t_mag_sq / 4096.0);
}

namespace {

/* A value rounded to float precision: m * 2^e, m < 2^24 (round to nearest,
 * ties to even, as the int64 -> float conversion does). */
struct Fp24 {
  uint64_t m;
  int e;
};

int bit_length (unsigned __int128 v)
{
  int n = 0;
  while (v) {
    v >>= 1;
    n++;
  }
  return n;
}

Fp24 round24 (uint64_t v)
{
  const int n = bit_length (v);
  if (n <= 24)
    return { v, 0 };
  const int s = n - 24;
  uint64_t m = v >> s;
  const uint64_t rem = v & ((1ull << s) - 1), half = 1ull << (s - 1);
  if (rem > half || (rem == half && (m & 1)))
    m++;
  return { m, s };
}

/* a * 2^ea >= b * 2^eb for non-negative a, b. */
bool ge_scaled (unsigned __int128 a, int ea, unsigned __int128 b, int eb)
{
  if (a == 0 || b == 0)
    return b == 0;
  const int la = bit_length (a) + ea, lb = bit_length (b) + eb;
  if (la != lb)
    return la > lb;
  /* Same magnitude: align on the smaller exponent (both stay below 2^74). */
  if (ea >= eb)
    return (a << (ea - eb)) >= b;
  return a >= (b << (eb - ea));
}

} // namespace

uint32_t adm_cos_1deg_sq_q24 ()
{
  /* The float lies in [0.5, 1): 24 significant bits are its 24 bits below
   * the binary point. */
  const float cos_1deg_sq = cos (1.0 * M_PI / 180.0) * cos (1.0 * M_PI / 180.0);
  return (uint32_t) (cos_1deg_sq * 16777216.0);
}

bool adm_angle_flag_int (int64_t ot_dp, int64_t o_mag_sq, int64_t t_mag_sq)
{
  if (ot_dp < 0)
    return false;
  const uint64_t cos_m = adm_cos_1deg_sq_q24 ();
  /* Squared norms that wrapped around (libvmaf's int64 sums of huge
   * coefficients) are negative floats: a negative right side passes. */
  if ((o_mag_sq < 0) != (t_mag_sq < 0) && o_mag_sq != 0 && t_mag_sq != 0)
    return true;
  const uint64_t om = o_mag_sq < 0 ? 0 - (uint64_t) o_mag_sq : o_mag_sq;
  const uint64_t tm = t_mag_sq < 0 ? 0 - (uint64_t) t_mag_sq : t_mag_sq;
  /* Clear cases in float arithmetic (the GPU's shortcut): each side is
   * within 2^-20 of its exact value, far inside the 1e-5 margin. */
  auto approx = [] (uint64_t v) {
    return (float) (uint32_t) (v >> 32) * 4294967296.0f + (float) (uint32_t) v;
  };
  const float lhs = approx (ot_dp) * approx (ot_dp);
  const float rhs = adm_cos_1deg_sq_q24 () * (1.0f / 16777216.0f) * approx (om) * approx (tm);
  if (lhs > rhs * 1.00001f)
    return true;
  if (lhs < rhs * 0.99999f)
    return false;
  const Fp24 a = round24 (ot_dp), b = round24 (om), c = round24 (tm);
  /* Right side: (cos * B) is exact in double, (cos * B) * C is rounded to
   * 53 bits (ties to even); the left side A^2 is exact. */
  unsigned __int128 p = (unsigned __int128) cos_m * b.m * c.m;
  int pe = b.e + c.e - 24;
  const int n = bit_length (p);
  if (n > 53) {
    const int s = n - 53;
    unsigned __int128 q = p >> s;
    const unsigned __int128 rem = p & (((unsigned __int128) 1 << s) - 1);
    const unsigned __int128 half = (unsigned __int128) 1 << (s - 1);
    if (rem > half || (rem == half && (q & 1)))
      q++;
    p = q;
    pe += s;
  }
  return ge_scaled ((unsigned __int128) a.m * a.m, 2 * a.e, p, pe);
}

namespace {

/* Sample (y, x) of a luma plane. */
auto luma (const AdmPlane &p, unsigned bpc)
{
  return [p, bpc] (int y, int x) -> int32_t {
    const uint8_t *row = (const uint8_t *) p.data + (size_t) y * p.stride;
    return bpc == 8 ? row[x] : ((const uint16_t *) row)[x];
  };
}

} // namespace

void adm_wavelet0 (const AdmPlane &in, unsigned width, unsigned height, unsigned bpc,
    std::vector<int16_t> bands[4])
{
  Bands b;
  dwt_step (luma (in, bpc), (int) width, (int) height, 0, bpc, &b);
  const std::vector<int32_t> *src[4] = { &b.a, &b.h, &b.v, &b.d };
  for (int k = 0; k < 4; k++)
    bands[k].assign (src[k]->begin (), src[k]->end ());
}

void adm_accumulate (const AdmPlane &ref, const AdmPlane &dist, unsigned width, unsigned height,
    unsigned bpc, const AdmParams &params, AdmAccum *accum)
{
  AdmScaleGeom geom[4];
  adm_geometry (width, height, geom);
  AdmConsts c;
  adm_consts (params, &c);
  Bands rb, db;
  Masking m;
  for (int s = 0; s < 4; s++) {
    const int n_w = s == 0 ? (int) width : geom[s - 1].w;
    const int n_h = s == 0 ? (int) height : geom[s - 1].h;
    if (s == 0) {
      dwt_step (luma (ref, bpc), n_w, n_h, 0, bpc, &rb);
      dwt_step (luma (dist, bpc), n_w, n_h, 0, bpc, &db);
    } else {
      /* The approximation band of the previous scale is the input. */
      const std::vector<int32_t> ra = rb.a, da = db.a;
      auto band = [n_w] (const std::vector<int32_t> &a) {
        return [&a, n_w] (int y, int x) -> int32_t { return a[(size_t) y * n_w + x]; };
      };
      dwt_step (band (ra), n_w, n_h, s, bpc, &rb);
      dwt_step (band (da), n_w, n_h, s, bpc, &db);
    }
    decouple_csf (rb, db, geom[s], s, params, c, &m);
    masked_sums (rb, m, geom[s], s, c, accum);
  }
}

void adm_finish (const AdmAccum &acc, unsigned width, unsigned height, const AdmParams &p,
    AdmScores *out)
{
  AdmScaleGeom geom[4];
  adm_geometry (width, height, geom);
  AdmConsts c;
  adm_consts (p, &c);
  double num = 0, den = 0;
  for (int s = 0; s < 4; s++) {
    const AdmScaleGeom &g = geom[s];
    const AdmRect &r = g.core;
    const AdmShifts sh = shifts_for (g, s);
    const float noise =
        powf ((r.bottom - r.top) * (r.right - r.left) * p.noise_weight, 1.0f / 3.0f);

    /* Sums back to real scale: 2^-x for the fixed-point positions the
     * integer stages left in them (libvmaf's unsigned exponent arithmetic). */
    float num_s = 0, den_s = 0;
    for (int b = 0; b < 3; b++) {
      float f_num;
      double den_div;
      if (s == 0) {
        const uint32_t e = (b == 2 ? 57u : 52u) - sh.num_cub[b] - sh.num_row;
        f_num = (float) (acc.num[s][b] / pow (2, e));
        den_div = pow (2, (int32_t) (18 - sh.den_row));
      } else {
        static const uint32_t num_e[3] = { 45, 39, 36 }, den_e[3] = { 32, 27, 23 };
        const float div = pow (2, num_e[s - 1] - sh.num_cub[0] - sh.num_row);
        f_num = (float) acc.num[s][b] / div;
        den_div = pow (2, den_e[s - 1] - sh.den_row - sh.den_cub);
      }
      const double csf = (double) (acc.den[s][b] / den_div) * pow (c.rfactor[s][b], 3);
      num_s += powf (f_num, 1.0f / 3.0f) + noise;
      den_s += powf (csf, 1.0f / 3.0f) + noise;
    }
    out->num_scale[s] = num_s;
    out->den_scale[s] = den_s;
    out->scale[s] = (double) num_s / den_s;
    num += num_s;
    den += den_s;
  }
  const double limit = 1e-10 * (width * height) / (1920.0 * 1080.0);
  num = num < limit ? 0 : num;
  den = den < limit ? 0 : den;
  out->num = num;
  out->den = den;
  out->adm2 = den == 0.0 ? 1.0 : num / den;
}

void adm_compute (const AdmPlane &ref, const AdmPlane &dist, unsigned width, unsigned height,
    unsigned bpc, const AdmParams &params, AdmScores *scores)
{
  AdmAccum acc;
  adm_accumulate (ref, dist, width, height, bpc, params, &acc);
  adm_finish (acc, width, height, params, scores);
}

} // namespace gpc
