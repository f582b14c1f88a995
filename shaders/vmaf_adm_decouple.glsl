// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM: decoupling and CSF of one detail coefficient triple
// (bands h, v, d), bit-exact with gst/vmaf's CPU reference (libvmaf 3.2
// scalar code). The restored part r of the distorted coefficient is
// k * reference, k = distorted / reference clamped to [0, 1] (or up to the
// enhancement-gain limit where the two detail vectors (h, v) are less than
// one degree apart); the CSF weights the additive part (distorted - r), and
// flt is that part's contribution to the masking threshold.
//
// Needs vmaf_adm_common.glsl, COS_M, and sc.scale, sc.rfactor[3], sc.gain.

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
  if (sc.scale == 0u) {
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
  const uvec2 p = smul64 (rst, sc.gain);
  const uvec2 d = add64 (p, neg64 (i64 (t))); // p - t
  const bool zero = (d.x | d.y) == 0u;
  if (positive)
    return (!is_neg64 (d) && !zero) ? t : int (p.x);
  return is_neg64 (d) ? t : int (p.x);
}

// os, ts: reference and distorted coefficients of bands h, v, d. Returns
// r, csf and flt per band.
void decouple_csf (const int os[3], const int ts[3], out int r[3], out int csf[3], out int flt[3])
{
  const uvec2 dp = add64 (smul64 (os[0], ts[0]), smul64 (os[1], ts[1]));
  const uvec2 om = add64 (smul64 (os[0], os[0]), smul64 (os[1], os[1]));
  const uvec2 tm = add64 (smul64 (ts[0], ts[0]), smul64 (ts[1], ts[1]));
  const bool angle = adm_angle_flag (dp, om, tm, COS_M);
  for (uint b = 0u; b < 3u; b++) {
    const int ob = os[b], tb = ts[b];
    const int k = decouple_k (ob, tb);
    int rst;
    if (sc.scale == 0u)
      rst = sext16 ((k * ob + 16384) >> 15);
    else
      rst = int (sar64 (add64 (smul64 (k, ob), uvec2 (16384u, 0u)), 15u).x);
    // libvmaf tests the sign of the float product k / 2^15 * o / 64.
    if (angle && k > 0 && ob != 0)
      rst = apply_gain (rst, tb, ob > 0);
    if (sc.scale == 0u) {
      rst = sext16 (rst);
      const int add = sext16 (tb - rst);
      // Q21 (h, v) / Q23 (d) weights, results Q16.
      const int round = b == 2u ? 65535 : 16384;
      const uint shift = b == 2u ? 17u : 15u;
      csf[b] = sext16 ((int (sc.rfactor[b]) * add + round) >> shift);
      flt[b] = sext16 ((4369 * abs32 (csf[b]) + 2048) >> 12);
    } else {
      const int add = tb - rst;
      csf[b] = int (sar64 (add64 (sumul64 (add, sc.rfactor[b]), uvec2 (1u << 27, 0u)), 28u).x);
      // libvmaf's rounding term 2^31 is stored in an int32: it subtracts.
      flt[b] = int (sar64 (add64 (smul64 (143165577, abs32 (csf[b])),
          uvec2 (0x80000000u, 0xffffffffu)), 32u).x);
    }
    r[b] = rst;
  }
}
