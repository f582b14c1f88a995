// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, one scale's decoupling and CSF, bit-exact with gst/vmaf's
// CPU reference (libvmaf 3.2 scalar code). Per detail coefficient of the
// region `ext`: the restored part r of the distorted band (k * reference,
// k = distorted / reference clamped to [0, 1], or up to the enhancement-gain
// limit where the two detail vectors are less than one degree apart), and
// the CSF-weighted additive part (distorted - r) with its contribution to
// the masking threshold.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint COS_M = 0u; // float cos^2(1 deg) * 2^24

#include "vmaf_adm_common.glsl"

layout (local_size_x = 16, local_size_y = 16) in;

layout (std430, binding = 0) buffer Scratch { int scratch[]; };

layout (push_constant) uniform Params {
  uint w, n;                      // band width, samples per band
  uint left, top, right, bottom;  // the region
  uint ref_bands, dis_bands;      // word offsets of bands a, h, v, d
  uint mask;                      // word offset of r, csf, flt (h, v, d each)
  uint scale;
  uint rfactor[3];                // CSF weights: Q21/Q23 at scale 0, else Q32
  int gain;                       // enhancement-gain limit (integer)
} pc;

// libvmaf's reciprocal table: 2^30 / v, truncated towards zero.
int div_q30 (int v)
{
  return v < 0 ? -int (0x40000000u / uint (-v)) : int (0x40000000u / uint (v));
}

// distorted / reference in Q15, clamped to [0, 32768].
int decouple_k (int o, int t)
{
  if (o == 0)
    return 32768;
  uvec2 k;
  if (pc.scale == 0u) {
    k = sar64 (add64 (smul64 (div_q30 (o), t), uvec2 (16384u, 0u)), 15u);
  } else {
    // Divisors of more than 15 bits are rounded to their top 15 bits.
    const uint ao = uint (abs32 (o));
    uint shift = 0u, m = ao;
    if (ao >= 32768u) {
      shift = uint (findMSB (ao)) - 14u;
      m = (ao + (1u << (shift - 1u))) >> shift;
    }
    uvec2 p = smul64 (div_q30 (int (m)), t);
    if (o < 0)
      p = neg64 (p);
    // libvmaf's rounding term 1 << (14 + shift) is an int: 2^31 wraps.
    p = add64 (p, i64 (int (1u << (14u + shift))));
    k = sar64 (p, 15u + shift);
  }
  if (is_neg64 (k))
    return 0;
  return (k.y != 0u || k.x > 32768u) ? 32768 : int (k.x);
}

// min (rst * gain, t) (o > 0) or max (rst * gain, t) (o < 0), exactly: the
// double product libvmaf forms is exact for an integer gain.
int apply_gain (int rst, int t, bool positive)
{
  uvec2 p = smul64 (rst, pc.gain);
  uvec2 d = add64 (p, neg64 (i64 (t))); // p - t
  bool zero = (d.x | d.y) == 0u;
  if (positive)
    return (!is_neg64 (d) && !zero) ? t : int (p.x);
  return is_neg64 (d) ? t : int (p.x);
}

void main ()
{
  const uint j = pc.left + gl_GlobalInvocationID.x, i = pc.top + gl_GlobalInvocationID.y;
  if (j >= pc.right || i >= pc.bottom)
    return;
  const uint o = i * pc.w + j;
  int os[3], ts[3];
  for (uint b = 0u; b < 3u; b++) {
    os[b] = scratch[pc.ref_bands + (b + 1u) * pc.n + o];
    ts[b] = scratch[pc.dis_bands + (b + 1u) * pc.n + o];
  }
  const uvec2 dp = add64 (smul64 (os[0], ts[0]), smul64 (os[1], ts[1]));
  const uvec2 om = add64 (smul64 (os[0], os[0]), smul64 (os[1], os[1]));
  const uvec2 tm = add64 (smul64 (ts[0], ts[0]), smul64 (ts[1], ts[1]));
  const bool angle = adm_angle_flag (dp, om, tm, COS_M);

  for (uint b = 0u; b < 3u; b++) {
    const int ob = os[b], tb = ts[b];
    const int k = decouple_k (ob, tb);
    int rst;
    if (pc.scale == 0u)
      rst = sext16 ((k * ob + 16384) >> 15);
    else
      rst = int (sar64 (add64 (smul64 (k, ob), uvec2 (16384u, 0u)), 15u).x);
    // libvmaf tests the sign of the float product k / 2^15 * o / 64.
    if (angle && k > 0 && ob != 0)
      rst = apply_gain (rst, tb, ob > 0);
    int add, csf, flt;
    if (pc.scale == 0u) {
      rst = sext16 (rst);
      add = sext16 (tb - rst);
      // Q21 (h, v) / Q23 (d) weights, results Q16.
      const int round = b == 2u ? 65535 : 16384;
      const uint shift = b == 2u ? 17u : 15u;
      csf = sext16 ((int (pc.rfactor[b]) * add + round) >> shift);
      flt = sext16 ((4369 * abs32 (csf) + 2048) >> 12);
    } else {
      add = tb - rst;
      csf = int (sar64 (add64 (sumul64 (add, pc.rfactor[b]), uvec2 (1u << 27, 0u)), 28u).x);
      // libvmaf's rounding term 2^31 is stored in an int32: it subtracts.
      flt = int (sar64 (add64 (smul64 (143165577, abs32 (csf)), uvec2 (0x80000000u, 0xffffffffu)),
          32u).x);
    }
    scratch[pc.mask + b * pc.n + o] = rst;
    scratch[pc.mask + (3u + b) * pc.n + o] = csf;
    scratch[pc.mask + (6u + b) * pc.n + o] = flt;
  }
}
