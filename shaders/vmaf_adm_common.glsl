// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Shared by the integer ADM shaders (vmaf_adm_*.comp): 64-bit integer
// arithmetic on 32-bit words, since GStreamer 1.22 opens the device without
// shaderInt64, and the decoupling's angle test in integer form (the twin of
// gpc::adm_angle_flag_int in gst/vmaf/vmaf-adm-ref.cpp).
//
// A 64-bit value is a uvec2 (x: low word, y: high word), two's complement
// when signed; a 96-bit one a uvec3 (x lowest).

uvec2 i64 (int v) { return uvec2 (uint (v), v < 0 ? 0xffffffffu : 0u); }

uvec2 add64 (uvec2 a, uvec2 b)
{
  uint c;
  uint lo = uaddCarry (a.x, b.x, c);
  return uvec2 (lo, a.y + b.y + c);
}

uvec2 neg64 (uvec2 a) { return add64 (~a, uvec2 (1u, 0u)); }

bool is_neg64 (uvec2 a) { return int (a.y) < 0; }

uvec2 smul64 (int a, int b)
{
  int hi, lo;
  imulExtended (a, b, hi, lo);
  return uvec2 (uint (lo), uint (hi));
}

uvec2 umul64 (uint a, uint b)
{
  uint hi, lo;
  umulExtended (a, b, hi, lo);
  return uvec2 (lo, hi);
}

// Signed a times unsigned b: the signed product reads b >= 2^31 as b - 2^32.
uvec2 sumul64 (int a, uint b)
{
  uvec2 p = smul64 (a, int (b));
  if (b >= 0x80000000u)
    p.y += uint (a);
  return p;
}

// Arithmetic (signed) and logical right shifts, s < 64.
uvec2 sar64 (uvec2 a, uint s)
{
  if (s == 0u)
    return a;
  if (s < 32u)
    return uvec2 ((a.x >> s) | (a.y << (32u - s)), uint (int (a.y) >> s));
  return uvec2 (uint (int (a.y) >> (s - 32u)), uint (int (a.y) >> 31));
}

uvec2 shr64 (uvec2 a, uint s)
{
  if (s == 0u)
    return a;
  if (s < 32u)
    return uvec2 ((a.x >> s) | (a.y << (32u - s)), a.y >> s);
  return uvec2 (a.y >> (s - 32u), 0u);
}

uvec2 shl64 (uvec2 a, uint s)
{
  if (s == 0u)
    return a;
  if (s < 32u)
    return uvec2 (a.x << s, (a.y << s) | (a.x >> (32u - s)));
  return uvec2 (0u, a.x << (s - 32u));
}

// |v| with two's-complement wrap (the most negative value stays itself).
int abs32 (int v) { return v < 0 ? -v : v; }

// Sign-extends the low 16 bits (a store to int16_t).
int sext16 (int v) { return bitfieldExtract (v, 0, 16); }

// libvmaf's (uint32) pow (2, shift - 1): 0 for shift 0.
uint half_of (uint shift) { return shift == 0u ? 0u : 1u << (shift - 1u); }

uint bitlen32 (uint v) { return uint (findMSB (v) + 1); }
uint bitlen64 (uvec2 v) { return v.y != 0u ? 32u + bitlen32 (v.y) : bitlen32 (v.x); }
uint bitlen96 (uvec3 v)
{
  return v.z != 0u ? 64u + bitlen32 (v.z) : (v.y != 0u ? 32u + bitlen32 (v.y) : bitlen32 (v.x));
}

uvec3 shr96 (uvec3 v, uint s)
{
  for (; s >= 32u; s -= 32u)
    v = uvec3 (v.y, v.z, 0u);
  if (s == 0u)
    return v;
  return uvec3 ((v.x >> s) | (v.y << (32u - s)), (v.y >> s) | (v.z << (32u - s)), v.z >> s);
}

uvec3 shl96 (uvec3 v, uint s)
{
  for (; s >= 32u; s -= 32u)
    v = uvec3 (0u, v.x, v.y);
  if (s == 0u)
    return v;
  return uvec3 (v.x << s, (v.y << s) | (v.x >> (32u - s)), (v.z << s) | (v.y >> (32u - s)));
}

bool ge96 (uvec3 a, uvec3 b)
{
  if (a.z != b.z)
    return a.z > b.z;
  if (a.y != b.y)
    return a.y > b.y;
  return a.x >= b.x;
}

bool is_zero96 (uvec3 v) { return (v.x | v.y | v.z) == 0u; }

// v rounded to 24 significant bits, ties to even (int64 -> float): m * 2^e.
void round24 (uvec2 v, out uint m, out uint e)
{
  uint n = bitlen64 (v);
  if (n <= 24u) {
    m = v.x;
    e = 0u;
    return;
  }
  uint s = n - 24u;
  m = shr64 (v, s).x;
  bool round_bit = (shr64 (v, s - 1u).x & 1u) != 0u;
  bool sticky = s > 1u && any (notEqual (shl64 (v, 65u - s), uvec2 (0u)));
  if (round_bit && (sticky || (m & 1u) != 0u))
    m++;
  e = s;
}

// a * 2^ea >= b * 2^eb for non-negative a, b below 2^75.
bool ge_scaled (uvec3 a, int ea, uvec3 b, int eb)
{
  if (is_zero96 (a) || is_zero96 (b))
    return is_zero96 (b);
  int la = int (bitlen96 (a)) + ea, lb = int (bitlen96 (b)) + eb;
  if (la != lb)
    return la > lb;
  if (ea >= eb)
    a = shl96 (a, uint (ea - eb));
  else
    b = shl96 (b, uint (eb - ea));
  return ge96 (a, b);
}

// A non-negative 64-bit value as a float, within 2^-23 relative.
float approx64 (uvec2 v) { return float (v.y) * 4294967296.0 + float (v.x); }

// libvmaf's test float(dp)^2 >= cos^2(1 deg) * float(om) * float(tm) in
// double: the left side is exact, the right side's last product rounds to
// 53 bits. COS_M is the float cos^2(1 deg) times 2^24.
bool adm_angle_flag (uvec2 dp, uvec2 om, uvec2 tm, uint COS_M)
{
  if (is_neg64 (dp))
    return false;
  bool on = is_neg64 (om), tn = is_neg64 (tm);
  bool oz = (om.x | om.y) == 0u, tz = (tm.x | tm.y) == 0u;
  if (on != tn && !oz && !tz)
    return true;
  if (on)
    om = neg64 (om);
  if (tn)
    tm = neg64 (tm);
  // Clear cases in float arithmetic: each side is within 2^-20 of its exact
  // value, far inside the 1e-5 margin. Only near-ties take the exact path.
  const float lhs = approx64 (dp) * approx64 (dp);
  const float rhs = float (COS_M) * (1.0 / 16777216.0) * approx64 (om) * approx64 (tm);
  if (lhs > rhs * 1.00001)
    return true;
  if (lhs < rhs * 0.99999)
    return false;
  uint am, ae, bm, be, cm, ce;
  round24 (dp, am, ae);
  round24 (om, bm, be);
  round24 (tm, cm, ce);
  uvec2 cb = umul64 (COS_M, bm);
  uint h0, l0, h1, l1, carry;
  umulExtended (cb.x, cm, h0, l0);
  umulExtended (cb.y, cm, h1, l1);
  uint mid = uaddCarry (h0, l1, carry);
  uvec3 p = uvec3 (l0, mid, h1 + carry);
  int pe = int (be + ce) - 24;
  uint n = bitlen96 (p);
  if (n > 53u) {
    uint s = n - 53u;
    uvec3 q = shr96 (p, s);
    bool round_bit = (shr96 (p, s - 1u).x & 1u) != 0u;
    bool sticky = s > 1u && !is_zero96 (shl96 (p, 97u - s));
    if (round_bit && (sticky || (q.x & 1u) != 0u))
      q = uvec3 (add64 (q.xy, uvec2 (1u, 0u)), q.z);
    p = q;
    pe += int (s);
  }
  return ge_scaled (uvec3 (umul64 (am, am), 0u), int (2u * ae), p, pe);
}
