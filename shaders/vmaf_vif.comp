// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer VIF, one scale per dispatch, bit-exact with gst/vmaf's CPU
// reference (libvmaf 3.2 scalar code): the scale's four integer sums, and
// (scales 0..2) the next scale's pictures, low-passed and decimated.
//
// A workgroup covers a TILE_W x TILE_H tile of the scale: it loads the tile
// with an R-sample mirrored halo (R = 8, 4, 2, 1) into shared memory, filters
// vertically (means and second moments of both pictures and their product)
// into shared memory, then horizontally and turns each pixel into its
// contribution. The decimation filter (radius R / 2) runs on the same tile.
//
// No optional device feature is needed (GStreamer 1.22 enables none): sums
// wider than 32 bits are rounded exactly from two 32-bit sums of the high
// and low parts of each term, x = 2^s * hi + lo:
//   (sum c x + 2^(s-1)) >> s = A + ((B + 2^(s-1)) >> s),
//   A = sum c hi, B = sum c lo,
// and the gain's double arithmetic is either proved exact from integer
// bounds (fast path) or emulated exactly (vmaf_vif_double.glsl).
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint PACKING = 0u; // LUMA_*, scale 0
layout (constant_id = 1) const uint SHIFT = 0u;   // right shift of 16-bit containers
layout (constant_id = 2) const int SCALE = 0;
layout (constant_id = 3) const int TILE_W = 32;   // even
layout (constant_id = 4) const int TILE_H = 8;    // even
layout (constant_id = 5) const int NTHREADS = 256;
// Test seam: every pixel through the exact double emulation.
layout (constant_id = 6) const bool EXACT_ONLY = false;

const int R = 8 >> SCALE;       // filter radius of this scale
const int RD = 4 >> SCALE;      // radius of the next scale's filter
const int TW = TILE_W + 2 * R;  // tile width with halo
const int TH = TILE_H + 2 * R;

#include "motion_luma_fetch.glsl"
#include "vmaf_vif_double.glsl"

layout (local_size_x_id = 5) in;

// Scale 0: the two luma planes. Coarser scales: binding 0 holds both
// pictures, one word per sample (reference low 16 bits, distorted high).
layout (std430, binding = 0) readonly buffer RefBuf { uint ref_words[]; };
layout (std430, binding = 1) readonly buffer DistBuf { uint dist_words[]; };
// The next scale's pictures (scales 0..2), packed as above.
layout (std430, binding = 2) writeonly buffer NextBuf { uint next_words[]; };
// log2 mantissa table: entry i - 32768 for i in [32768, 65535], two per word;
// then, at word 16384 + E, the float e_E = double(2^E + eps) - 2^E: what
// adding eps adds to any sigma1_sq in [2^E, 2^(E+1)).
layout (std430, binding = 3) readonly buffer Log2Buf { uint log2_words[]; };
const uint EPS_BASE = 16384u;
// Per result slot and scale: num_log, den_log, num_non_log, den_non_log as
// (low, high) 32-bit pairs.
layout (std430, binding = 4) buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint ref_offset;   // scale 0: bytes (multiple of 4); else words
  uint dist_offset;  // scale 0 only
  uint ref_stride;   // scale 0: bytes (multiple of 4); else words
  uint dist_stride;  // scale 0 only
  uint width;        // of this scale
  uint height;
  uint bpc;
  uint next_offset;  // words
  uint slot;
  uint limit_lo;     // gain limit, IEEE double bits
  uint limit_hi;
  uint limit_int;    // the limit when it is an integer, else 0
  float limit_f;     // the limit as a float
} pc;

LUMA_FETCH_FUNCTIONS (ref, ref_words)
LUMA_FETCH_FUNCTIONS (dist, dist_words)

const uint F0[17] = uint[] (489u, 935u, 1640u, 2640u, 3896u, 5274u, 6547u, 7455u, 7784u,
    7455u, 6547u, 5274u, 3896u, 2640u, 1640u, 935u, 489u);
const uint F1[9] = uint[] (1244u, 3663u, 7925u, 12590u, 14692u, 12590u, 7925u, 3663u, 1244u);
const uint F2[5] = uint[] (3571u, 16004u, 26386u, 16004u, 3571u);
const uint F3[3] = uint[] (10904u, 43728u, 10904u);

uint coef (int s, int k)
{
  if (s == 0) return F0[k];
  if (s == 1) return F1[k];
  if (s == 2) return F2[k];
  return F3[k];
}

shared uint tile[TH][TW];       // reference | distorted << 16
shared uint v_mu[TILE_H][TW];   // vertical means, packed the same way
shared uint v_xx[TILE_H][TW];
shared uint v_yy[TILE_H][TW];
shared uint v_xy[TILE_H][TW];
shared uint tile_sums[8];

// Reflect-101, clamped first so that the halo of tiles past the picture's
// end stays inside it (their outputs are discarded).
int mirror (int idx, int n)
{
  idx = clamp (idx, -R, n - 1 + R);
  return idx < 0 ? -idx : (idx >= n ? 2 * n - idx - 2 : idx);
}

void add64 (inout uvec2 a, uint v)
{
  uint c;
  a.x = uaddCarry (a.x, v, c);
  a.y += c;
}

// (sum c_k p_k + 2^(s-1)) >> s from the split sums of the terms p_k.
uint split_round (uint a, uint b, uint s)
{
  return s == 0u ? a : a + ((b + (1u << (s - 1u))) >> s);
}

uint log2_entry (uint i)
{
  return (log2_words[(i - 32768u) >> 1] >> ((i & 1u) * 16u)) & 0xffffu;
}

// log2(v) * 2048 from the leading 16 bits of v >= 2^17 (libvmaf's table
// lookup), v = hi * 2^32 + lo.
uint log2_fixed (uint lo, uint hi)
{
  const int msb = hi != 0u ? 32 + findMSB (hi) : findMSB (lo);
  const int k = msb - 15;
  uint top;
  if (k >= 32)
    top = hi >> uint (k - 32);
  else
    top = (lo >> uint (k)) | (k == 0 ? 0u : hi << uint (32 - k));
  return log2_entry (top & 0xffffu) + 2048u * uint (k);
}

// 65536 * 1.0e-10 as a double (libvmaf's epsilon in the gain's divisor).
const Dbl EPS = Dbl (uvec2 (0xd9d7bdbbu, 0x1b7cdfu), -70);

// The numerator's log2 term of a pixel with sigma1_sq >= 2^17, sigma12 > 0
// and sigma2_sq > 0, by exact emulation of libvmaf's double arithmetic:
//   g = sigma12 / (sigma1_sq + eps); sv = max(int(sigma2_sq - g sigma12), 0)
//   g = min(g, limit); numer = int64(g g sigma1_sq) + sv + 2^17.
uint num_log_exact (uint s1, uint s2, uint s12)
{
  const Dbl d1 = dbl_from_uint (s1);
  const Dbl d12 = dbl_from_uint (s12);
  const Dbl g = dbl_div (d12, dbl_add (d1, EPS));
  const uint sv = dbl_floor_uint_minus (s2, dbl_mul (g, d12));
  const Dbl limit = dbl_from_bits (pc.limit_lo, pc.limit_hi);
  const Dbl gc = dbl_less (g, limit) ? g : limit;
  const uvec2 p = dbl_trunc (dbl_mul (dbl_mul (gc, gc), d1));
  const uint n1 = sv + 131072u;
  uvec2 n = p;
  add64 (n, n1);
  return log2_fixed (n.x, n.y) - log2_fixed (n1, 0u);
}

// Exact floor(s12^2 / s1) and remainder when the quotient is below 2^31 (a
// float estimate, one correction from the float remainder, then +-1
// steps); false otherwise.
bool div_square (uint s12, uint s1, out uint q, out uint r)
{
  uint sh, sl;
  umulExtended (s12, s12, sh, sl);
  q = 0u;
  r = 0u;
  if (sh >= (s1 >> 1))
    return false;
  const float s1f = float (s1);
  q = uint (min (float (s12) * float (s12) / s1f, 2147483520.0));
  // The remainder s12^2 - q s1 as a signed 64-bit (rh, rl).
  uint ph, pl, b, c;
  umulExtended (q, s1, ph, pl);
  uint rl = usubBorrow (sl, pl, b);
  uint rh = sh - ph - b;
  const float rf = float (int (rh)) * 4294967296.0 + float (rl);
  const int dq = int (floor (rf / s1f));
  q = uint (int (q) + dq);
  umulExtended (q, s1, ph, pl);
  rl = usubBorrow (sl, pl, b);
  rh = sh - ph - b;
  for (int k = 0; k < 4; k++) {
    if (int (rh) < 0) {
      rl = uaddCarry (rl, s1, c);
      rh += c;
      q--;
    } else if (rh != 0u || rl >= s1) {
      rl = usubBorrow (rl, s1, b);
      rh -= b;
      q++;
    } else {
      r = rl;
      return q < 0x80000000u;
    }
  }
  return false;
}

// The numerator's log2 term without double arithmetic, where integer and
// float bounds prove the result; false where they do not (then
// num_log_exact decides). With d = sigma1_sq + e (e: eps rounded to
// sigma1_sq's last place), X = s12^2 / d and Q, r from div_square:
//   X = Q + F, F = (r - Q e) / d, so floor(s2 - X) = s2 - Q - (F > 0),
//   g^2 s1 = X - X e / d = Q + Z, Z ~= r / s1 - 2 Q e / s1,
// and libvmaf's doubles are within (3X + s2) 2^-53 and (g^2 s1) 2^-51 of
// these: a pixel takes the fast path when F and Z lie farther than twice
// those bounds plus the float error from the integers 0 and 1.
bool num_log_fast (uint s1, uint s2, uint s12, out uint term)
{
  term = 0u;
  uint q, r;
  if (!div_square (s12, s1, q, r))
    return false;
  const float s1f = float (s1);
  const float qf = float (q);
  const float e = uintBitsToFloat (log2_words[EPS_BASE + uint (findMSB (s1))]);
  const float a = float (r) / s1f;
  const float tq = qf * e / s1f;
  const float f = a - tq;
  const float mf = (3.0 * qf + float (s2) + 4.0) * exp2 (-52.0) + (a + tq) * exp2 (-19.0) +
      exp2 (-26.0);
  int sv;
  if (f > mf && f < 1.0 - mf)
    sv = int (s2) - int (q) - 1;
  else if (f < -mf)
    sv = int (s2) - int (q);
  else
    return false;
  sv = max (sv, 0);

  bool clamped;
  if (pc.limit_int != 0u) {
    // g < L exactly when s12 <= L s1 (L e < 1).
    uint ph, pl;
    umulExtended (pc.limit_int, s1, ph, pl);
    clamped = ph == 0u && s12 > pl;
  } else {
    const float ls = pc.limit_f * s1f, sf = float (s12);
    if (sf < ls * (1.0 - exp2 (-16.0)))
      clamped = false;
    else if (sf > ls * (1.0 + exp2 (-16.0)))
      clamped = true;
    else
      return false;
  }
  uvec2 p;
  if (!clamped) {
    const float z = a - 2.0 * tq;
    const float mz = (qf + 1.0) * exp2 (-50.0) + (a + 2.0 * tq) * exp2 (-19.0) + exp2 (-26.0);
    if (z > mz && z < 1.0 - mz)
      p = uvec2 (q, 0u);
    else if (z < -mz && q > 0u)
      p = uvec2 (q - 1u, 0u);
    else
      return false;
  } else {
    // L^2 s1 is an exact double for an integer L <= 100.
    if (pc.limit_int == 0u)
      return false;
    umulExtended (pc.limit_int * pc.limit_int, s1, p.y, p.x);
  }
  const uint n1 = uint (sv) + 131072u;
  add64 (p, n1);
  term = log2_fixed (p.x, p.y) - log2_fixed (n1, 0u);
  return true;
}

void pixel (uint mu1, uint mu2, uint xx, uint yy, uint xy, inout uvec2 acc[4])
{
  uint hi, lo;
  umulExtended (mu1, mu1, hi, lo);
  const uint mu1_sq = hi + (lo >> 31);
  umulExtended (mu2, mu2, hi, lo);
  const uint mu2_sq = hi + (lo >> 31);
  umulExtended (mu1, mu2, hi, lo);
  const uint mu1_mu2 = hi + (lo >> 31);
  // Differences wrap in 32 bits and are read as signed, as libvmaf does.
  const int sigma1_sq = int (xx - mu1_sq);
  const int sigma2_sq = max (int (yy - mu2_sq), 0);
  const int sigma12 = int (xy - mu1_mu2);
  if (sigma1_sq < 131072) {
    add64 (acc[2], uint (sigma2_sq));
    add64 (acc[3], 1u);
    return;
  }
  add64 (acc[1], log2_fixed (uint (sigma1_sq) + 131072u, 0u) - 2048u * 17u);
  if (sigma12 > 0 && sigma2_sq > 0) {
    uint term;
    if (EXACT_ONLY || !num_log_fast (uint (sigma1_sq), uint (sigma2_sq), uint (sigma12), term))
      term = num_log_exact (uint (sigma1_sq), uint (sigma2_sq), uint (sigma12));
    add64 (acc[0], term);
  }
}

void main ()
{
  const int t = int (gl_LocalInvocationIndex);
  const int w = int (pc.width), h = int (pc.height);
  const int x0 = int (gl_WorkGroupID.x) * TILE_W;
  const int y0 = int (gl_WorkGroupID.y) * TILE_H;

  if (t < 8)
    tile_sums[t] = 0u;

  // The tile with its halo, both pictures in one word per sample.
  for (int i = t; i < TH * TW; i += NTHREADS) {
    const int ty = i / TW, tx = i % TW;
    const uint gy = uint (mirror (y0 + ty - R, h));
    const uint gx = uint (mirror (x0 + tx - R, w));
    uint v;
    if (SCALE == 0) {
      v = uint (ref_fetch (pc.ref_offset + gy * pc.ref_stride, gx)) |
          (uint (dist_fetch (pc.dist_offset + gy * pc.dist_stride, gx)) << 16);
    } else {
      v = ref_words[pc.ref_offset + gy * pc.ref_stride + gx];
    }
    tile[ty][tx] = v;
  }
  barrier ();

  // Vertical pass. Scale 0 brings means from bpc to 16 bits and moments from
  // 2 bpc to 32 (8-bit moments fit as they are); coarser scales drop 16
  // bits from both.
  const uint mean_shift = SCALE == 0 ? pc.bpc : 16u;
  const uint mom_shift = SCALE == 0 ? 2u * (pc.bpc - 8u) : 16u;
  const uint mom_mask = (1u << mom_shift) - 1u;
  const int rows = min (TILE_H, h - y0);
  for (int i = t; i < rows * TW; i += NTHREADS) {
    const int r = i / TW, c = i % TW;
    uint m1 = 0u, m2 = 0u;
    uint xa = 0u, xb = 0u, ya = 0u, yb = 0u, pa = 0u, pb = 0u;
    for (int k = 0; k <= 2 * R; k++) {
      const uint f = coef (SCALE, k);
      const uint v = tile[r + k][c];
      const uint x = v & 0xffffu, y = v >> 16;
      m1 += f * x;
      m2 += f * y;
      const uint xx = x * x, yy = y * y, xy = x * y;
      xa += f * (xx >> mom_shift);
      xb += f * (xx & mom_mask);
      ya += f * (yy >> mom_shift);
      yb += f * (yy & mom_mask);
      pa += f * (xy >> mom_shift);
      pb += f * (xy & mom_mask);
    }
    const uint mr = 1u << (mean_shift - 1u);
    v_mu[r][c] = ((m1 + mr) >> mean_shift) | (((m2 + mr) >> mean_shift) << 16);
    v_xx[r][c] = split_round (xa, xb, mom_shift);
    v_yy[r][c] = split_round (ya, yb, mom_shift);
    v_xy[r][c] = split_round (pa, pb, mom_shift);
  }
  barrier ();

  // Horizontal pass and the per-pixel statistics.
  uvec2 acc[4] = uvec2[4] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u));
  const int cols = min (TILE_W, w - x0);
  for (int i = t; i < rows * TILE_W; i += NTHREADS) {
    const int r = i / TILE_W, c = i % TILE_W;
    if (c >= cols)
      continue;
    uint m1 = 0u, m2 = 0u;
    uint xa = 0u, xb = 0u, ya = 0u, yb = 0u, pa = 0u, pb = 0u;
    for (int k = 0; k <= 2 * R; k++) {
      const uint f = coef (SCALE, k);
      const uint mu = v_mu[r][c + k];
      m1 += f * (mu & 0xffffu);
      m2 += f * (mu >> 16);
      const uint xx = v_xx[r][c + k], yy = v_yy[r][c + k], xy = v_xy[r][c + k];
      xa += f * (xx >> 16);
      xb += f * (xx & 0xffffu);
      ya += f * (yy >> 16);
      yb += f * (yy & 0xffffu);
      pa += f * (xy >> 16);
      pb += f * (xy & 0xffffu);
    }
    pixel (m1, m2, split_round (xa, xb, 16u), split_round (ya, yb, 16u),
        split_round (pa, pb, 16u), acc);
  }

  // The next scale: even rows and columns of this tile, low-passed with the
  // next filter (vertical results in v_mu, then horizontal).
  if (SCALE < 3) {
    barrier ();
    const uint mr = 1u << (mean_shift - 1u);
    const int dec_rows = TILE_H / 2;
    for (int i = t; i < dec_rows * TW; i += NTHREADS) {
      const int r = i / TW, c = i % TW;
      if (2 * r >= rows)
        continue;
      uint a1 = 0u, a2 = 0u;
      for (int k = 0; k <= 2 * RD; k++) {
        const uint f = coef (SCALE + 1, k);
        const uint v = tile[2 * r + R - RD + k][c];
        a1 += f * (v & 0xffffu);
        a2 += f * (v >> 16);
      }
      v_mu[r][c] = ((a1 + mr) >> mean_shift) | (((a2 + mr) >> mean_shift) << 16);
    }
    barrier ();
    const int nw = w / 2, nh = h / 2;
    const int dec_cols = TILE_W / 2;
    for (int i = t; i < dec_rows * dec_cols; i += NTHREADS) {
      const int r = i / dec_cols, c = i % dec_cols;
      const int oy = y0 / 2 + r, ox = x0 / 2 + c;
      if (oy >= nh || ox >= nw)
        continue;
      uint a1 = 0u, a2 = 0u;
      for (int k = 0; k <= 2 * RD; k++) {
        const uint f = coef (SCALE + 1, k);
        const uint v = v_mu[r][2 * c + R - RD + k];
        a1 += f * (v & 0xffffu);
        a2 += f * (v >> 16);
      }
      next_words[pc.next_offset + uint (oy * nw + ox)] =
          ((a1 + 32768u) >> 16) | (((a2 + 32768u) >> 16) << 16);
    }
  }

  // The tile's sums, then the frame's: 64-bit from 32-bit atomics, the one
  // that wraps a low word carries into the high word.
  for (int k = 0; k < 4; k++) {
    if (acc[k] == uvec2 (0u))
      continue;
    const uint old = atomicAdd (tile_sums[2 * k], acc[k].x);
    const uint hi = acc[k].y + (old + acc[k].x < old ? 1u : 0u);
    if (hi != 0u)
      atomicAdd (tile_sums[2 * k + 1], hi);
  }
  barrier ();
  if (t < 4) {
    const uvec2 s = uvec2 (tile_sums[2 * t], tile_sums[2 * t + 1]);
    const uint base = (pc.slot * 4u + uint (SCALE)) * 8u + 2u * uint (t);
    if (s != uvec2 (0u)) {
      const uint old = atomicAdd (result[base], s.x);
      const uint hi = s.y + (old + s.x < old ? 1u : 0u);
      if (hi != 0u)
        atomicAdd (result[base + 1u], hi);
    }
  }
}
