// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Exact IEEE-754 binary64 arithmetic (round to nearest, ties to even) on
// 32-bit integers, for the few double operations of VIF's gain (GStreamer
// 1.22 enables no shaderFloat64 or shaderInt64). Only positive, normal,
// finite values occur: a value is m * 2^e with m a 53-bit integer
// (2^52 <= m < 2^53, held as uvec2(low 32, high 21 bits)).
//
// Wide integers are uvec4 (little-endian 32-bit limbs).

struct Dbl {
  uvec2 m;
  int e;
};

int msb128 (uvec4 n)
{
  if (n.w != 0u) return 96 + findMSB (n.w);
  if (n.z != 0u) return 64 + findMSB (n.z);
  if (n.y != 0u) return 32 + findMSB (n.y);
  return findMSB (n.x); // -1 for 0
}

// The 32 bits of n starting at bit k (0 <= k < 128; bits past 127 are 0).
uint bits128 (uvec4 n, int k)
{
  const int w = k >> 5, b = k & 31;
  uint lo = n[w];
  uint hi = w < 3 ? n[min (w + 1, 3)] : 0u;
  return b == 0 ? lo : (lo >> uint (b)) | (hi << uint (32 - b));
}

// n << s, 0 <= s < 128 (bits past 127 are dropped).
uvec4 shl128 (uvec4 n, int s)
{
  uvec4 r = uvec4 (0u);
  const int w = s >> 5, b = s & 31;
  for (int i = 3; i >= w; i--) {
    uint v = n[i - w] << uint (b);
    if (b != 0 && i - w - 1 >= 0)
      v |= n[i - w - 1] >> uint (32 - b);
    r[i] = v;
  }
  return r;
}

// Whether any of the bits below bit k of n is set (0 <= k <= 128).
bool any_below (uvec4 n, int k)
{
  for (int i = 0; i < 4; i++) {
    const int lo = i * 32;
    if (k >= lo + 32) {
      if (n[i] != 0u) return true;
    } else if (k > lo) {
      if ((n[i] & ((1u << uint (k - lo)) - 1u)) != 0u) return true;
    }
  }
  return false;
}

uvec4 add128 (uvec4 a, uvec4 b)
{
  uvec4 r;
  uint c = 0u, c2;
  for (int i = 0; i < 4; i++) {
    r[i] = uaddCarry (a[i], b[i], c2);
    r[i] = uaddCarry (r[i], c, c);
    c += c2;
  }
  return r;
}

// a - b for a >= b.
uvec4 sub128 (uvec4 a, uvec4 b)
{
  uvec4 r;
  uint br = 0u, b2;
  for (int i = 0; i < 4; i++) {
    r[i] = usubBorrow (a[i], b[i], b2);
    r[i] = usubBorrow (r[i], br, br);
    br += b2;
  }
  return r;
}

bool less128 (uvec4 a, uvec4 b)
{
  for (int i = 3; i >= 0; i--)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

// n * 2^e (n > 0) rounded to a double.
Dbl dbl_round (uvec4 n, int e)
{
  const int p = msb128 (n);
  if (p <= 52) {
    uvec4 s = shl128 (n, 52 - p);
    return Dbl (s.xy, e - (52 - p));
  }
  const int sh = p - 52;
  uvec2 m = uvec2 (bits128 (n, sh), bits128 (n, sh + 32) & 0x1fffffu);
  const bool round_bit = ((bits128 (n, sh - 1) & 1u) != 0u);
  const bool sticky = any_below (n, sh - 1);
  if (round_bit && (sticky || (m.x & 1u) != 0u)) {
    uint c;
    m.x = uaddCarry (m.x, 1u, c);
    m.y += c;
    if (m.y == 0x200000u)
      return Dbl (uvec2 (0u, 0x100000u), e + sh + 1);
  }
  return Dbl (m, e + sh);
}

Dbl dbl_from_uint (uint v)
{
  return dbl_round (uvec4 (v, 0u, 0u, 0u), 0);
}

Dbl dbl_from_bits (uint lo, uint hi)
{
  return Dbl (uvec2 (lo, (hi & 0xfffffu) | 0x100000u), int ((hi >> 20) & 0x7ffu) - 1075);
}

// The exact 106-bit product of two mantissas.
uvec4 mul53 (uvec2 a, uvec2 b)
{
  uvec4 r = uvec4 (0u);
  uint hi, lo;
  umulExtended (a.x, b.x, hi, lo);
  r = add128 (r, uvec4 (lo, hi, 0u, 0u));
  umulExtended (a.x, b.y, hi, lo);
  r = add128 (r, uvec4 (0u, lo, hi, 0u));
  umulExtended (a.y, b.x, hi, lo);
  r = add128 (r, uvec4 (0u, lo, hi, 0u));
  umulExtended (a.y, b.y, hi, lo);
  r = add128 (r, uvec4 (0u, 0u, lo, hi));
  return r;
}

Dbl dbl_mul (Dbl a, Dbl b)
{
  return dbl_round (mul53 (a.m, b.m), a.e + b.e);
}

// a + b, both positive.
Dbl dbl_add (Dbl a, Dbl b)
{
  if (a.e < b.e) {
    Dbl t = a;
    a = b;
    b = t;
  }
  const int d = a.e - b.e;
  // b below a quarter of a's last place cannot change the rounded sum.
  if (d > 54)
    return a;
  uvec4 n = add128 (shl128 (uvec4 (a.m, 0u, 0u), d), uvec4 (b.m, 0u, 0u));
  return dbl_round (n, b.e);
}

// a / b: 56 quotient bits by restoring division, then the remainder as a
// sticky bit below them, rounded once.
Dbl dbl_div (Dbl a, Dbl b)
{
  uvec2 rem = a.m;
  uvec2 q = uvec2 (0u);
  for (int i = 0; i < 56; i++) {
    const bool ge = rem.y > b.m.y || (rem.y == b.m.y && rem.x >= b.m.x);
    uint br;
    if (ge) {
      rem.x = usubBorrow (rem.x, b.m.x, br);
      rem.y = rem.y - b.m.y - br;
    }
    q = uvec2 (q.x << 1, (q.y << 1) | (q.x >> 31));
    q.x |= ge ? 1u : 0u;
    rem = uvec2 (rem.x << 1, (rem.y << 1) | (rem.x >> 31));
  }
  // q = floor(a.m * 2^55 / b.m); one more bit keeps the remainder's trace.
  const uint sticky = (rem.x | rem.y) != 0u ? 1u : 0u;
  uvec4 n = uvec4 ((q.x << 1) | sticky, (q.y << 1) | (q.x >> 31), q.y >> 31, 0u);
  return dbl_round (n, a.e - b.e - 56);
}

bool dbl_less (Dbl a, Dbl b)
{
  if (a.e != b.e) return a.e < b.e;
  return a.m.y < b.m.y || (a.m.y == b.m.y && a.m.x < b.m.x);
}

// trunc(a) for a < 2^64.
uvec2 dbl_trunc (Dbl a)
{
  if (a.e >= 0) {
    uvec4 s = shl128 (uvec4 (a.m, 0u, 0u), a.e);
    return s.xy;
  }
  if (a.e <= -64)
    return uvec2 (0u);
  uvec4 n = uvec4 (a.m, 0u, 0u);
  return uvec2 (bits128 (n, -a.e), bits128 (n, -a.e + 32));
}

// trunc(v - a) for an integer v < 2^31 and a > 0, as a non-negative int
// (0 when the difference is negative): the difference exact in 128 bits at
// a's exponent (a >= 2^-84 here, so v * 2^-a.e fits), rounded once.
uint dbl_floor_uint_minus (uint v, Dbl a)
{
  if (a.e >= 0) {
    uvec2 ai = dbl_trunc (a);
    if (ai.y != 0u || ai.x >= v)
      return 0u;
    return v - ai.x;
  }
  uvec4 vv = shl128 (uvec4 (v, 0u, 0u, 0u), -a.e);
  uvec4 am = uvec4 (a.m, 0u, 0u);
  if (!less128 (am, vv))
    return 0u;
  Dbl t = dbl_round (sub128 (vv, am), a.e);
  return dbl_trunc (t).x;
}
