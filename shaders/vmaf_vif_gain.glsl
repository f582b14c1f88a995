// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VIF's per-pixel numerator term log2(numer) - log2(sv + 2^17) (x2048), from
// sigma1_sq >= 2^17, sigma2_sq > 0 and sigma12 > 0: an integer fast path
// where bounds prove libvmaf's double results, else exact double emulation.
// Shared by vmaf_vif.comp and the tests' vmaf_vif_gain_test.comp.
//
// The includer declares the storage buffer array log2_words: libvmaf's log2
// table (entry i - 32768 for i in [32768, 65535], two 16-bit entries per
// word), then at word EPS_BASE + E the float e_E = double(2^E + eps) - 2^E,
// what adding eps adds to any sigma1_sq in [2^E, 2^(E+1)).

#include "vmaf_vif_double.glsl"

const uint EPS_BASE = 16384u;

// libvmaf's vif_enhn_gain_limit: as a double, as an integer (0 when it is
// not one) and as a float; and the double limit * limit, in [1, 10^4], as
// sq_int + sq_frac / 2^64 (exact: its last place is at least 2^-52).
struct VifLimit {
  Dbl d;
  uint i;
  float f;
  uint sq_int;
  uvec2 sq_frac; // (low, high)
};

// The push constant words of VkVifKernel::limit_words().
VifLimit vif_limit (uint lo, uint hi, uint li, float lf, uint sq_int, uint sq_lo, uint sq_hi)
{
  return VifLimit (dbl_from_bits (lo, hi), li, lf, sq_int, uvec2 (sq_lo, sq_hi));
}

void add64 (inout uvec2 a, uint v)
{
  uint c;
  a.x = uaddCarry (a.x, v, c);
  a.y += c;
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
uint num_log_exact (uint s1, uint s2, uint s12, VifLimit lim)
{
  const Dbl d1 = dbl_from_uint (s1);
  const Dbl d12 = dbl_from_uint (s12);
  const Dbl g = dbl_div (d12, dbl_add (d1, EPS));
  const uint sv = dbl_floor_uint_minus (s2, dbl_mul (g, d12));
  const Dbl gc = dbl_less (g, lim.d) ? g : lim.d;
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

// libvmaf's int64(limit * limit * s1) in integers: X = (limit * limit) s1
// exactly, as an integer and a fraction of 64 bits. For X < 2^45 the double
// product is within 2^-9 of X and integers are doubles, so it truncates to
// floor(X) unless X's fraction exceeds 1 - 2^-9. False where the fraction
// reaches 1 - 2^-8 or X 2^45 (then num_log_exact decides); never for an
// integer limit (fraction 0, X < 10^4 2^31 < 2^45).
bool limit_sq_times (VifLimit lim, uint s1, out uvec2 p)
{
  uint h0, l0, h1, l1, c;
  umulExtended (lim.sq_frac.x, s1, h0, l0);
  umulExtended (lim.sq_frac.y, s1, h1, l1);
  // The fraction's high word; the carry goes to the integer part.
  const uint frac_hi = uaddCarry (l1, h0, c);
  umulExtended (lim.sq_int, s1, p.y, p.x);
  add64 (p, h1 + c);
  return frac_hi < 0xff000000u && p.y < (1u << 13);
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
bool num_log_fast (uint s1, uint s2, uint s12, VifLimit lim, out uint term)
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
  if (lim.i != 0u) {
    // g < L exactly when s12 <= L s1 (L e < 1).
    uint ph, pl;
    umulExtended (lim.i, s1, ph, pl);
    clamped = ph == 0u && s12 > pl;
  } else {
    const float ls = lim.f * s1f, sf = float (s12);
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
  } else if (!limit_sq_times (lim, s1, p)) {
    return false;
  }
  const uint n1 = uint (sv) + 131072u;
  add64 (p, n1);
  term = log2_fixed (p.x, p.y) - log2_fixed (n1, 0u);
  return true;
}
