// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, one scale's masked sums, bit-exact with gst/vmaf's CPU
// reference (libvmaf 3.2 scalar code). A workgroup takes a TW x TH tile of
// the region `core`:
// 1. decoupling and CSF (vmaf_adm_decouple.glsl) of the tile and a 1-sample
//    halo into shared memory, the halo mirrored as libvmaf's masking
//    neighbourhood is (-1 -> 1 above / left, n -> n - 1 below / right);
// 2. per coefficient and band h, v, d: the CSF-weighted restored detail less
//    the masking threshold (3x3 neighbourhood over the three bands), cubed
//    with libvmaf's roundings, and the reference's detail cubed;
// 3. each tile row's six 64-bit sums go to the partial-sum area; the row
//    shifts need whole rows, so vmaf_adm_rows.comp finishes them.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint COS_M = 0u; // float cos^2(1 deg) * 2^24

#include "vmaf_adm_common.glsl"

// 256 invocations (32 x 8) make a 30 x 14 tile: its 32 x 16 halo region is
// exactly two rounds of the (costly) decoupling, and the shared memory stays
// below the 16 KiB Vulkan guarantees.
#define TW 30
#define TH 14
#define HW (TW + 2)
#define HH (TH + 2)
#define LX 32
#define LY 8

layout (local_size_x = LX, local_size_y = LY) in;

// Bands (read) and partial sums (written, as (low, high) word pairs).
layout (std430, binding = 0) buffer Scratch { int scratch[]; };

layout (push_constant) uniform Params {
  uint w, h, n;                   // band size, samples per band
  uint left, top, right, bottom;  // the region
  uint ref_bands, dis_bands;      // word offsets of bands a, h, v, d
  uint scale;
  uint rfactor[3];                // CSF weights: Q21/Q23 at scale 0, else Q32
  int gain;                       // enhancement-gain limit (integer)
  uint num_sub[3], num_sq[3], num_cub[3];
  uint den_sq, den_cub;
  uint partial;                   // word offset: per region row, per tile, 6 pairs
  uint tiles_x;
} pc;

#include "vmaf_adm_decouple.glsl"

shared int flt_s[3][HH][HW];
shared int r_s[3][TH][TW];
shared int ctr_s[TH][TW]; // centre terms of the threshold, summed over the bands
shared uvec2 red[LY][LX];

int centre_term (int csf)
{
  const int a = abs32 (csf);
  if (pc.scale == 0u)
    return sext16 ((8738 * a + 2048) >> 12);
  return int (sar64 (add64 (smul64 (286331153, a), uvec2 (0x80000000u, 0xffffffffu)), 32u).x);
}

// Numerator and denominator terms of bands h, v, d at tile position (ty, tx).
void terms (uint ty, uint tx, uint i, uint j, out uvec2 sums[6])
{
  int thr = ctr_s[ty][tx];
  for (uint b = 0u; b < 3u; b++)
    for (uint dy = 0u; dy < 3u; dy++)
      for (uint dx = 0u; dx < 3u; dx++)
        if (dy != 1u || dx != 1u)
          thr += flt_s[b][ty + dy][tx + dx];
  const uint o = i * pc.w + j;
  for (uint b = 0u; b < 3u; b++) {
    const int r = r_s[b][ty][tx];
    int x;
    if (pc.scale == 0u)
      x = r * int (pc.rfactor[b]);
    else
      x = int (sar64 (add64 (sumul64 (r, pc.rfactor[b]), uvec2 (1u << 27, 0u)), 28u).x);
    x = max (abs32 (x) - (thr << pc.num_sub[b]), 0);
    const uint sq = pc.num_sq[b];
    const int x_sq = int (sar64 (add64 (smul64 (x, x), uvec2 (1u << (sq - 1u), 0u)), sq).x);
    sums[b] = sar64 (add64 (smul64 (x_sq, x), uvec2 (half_of (pc.num_cub[b]), 0u)), pc.num_cub[b]);

    const uint d = uint (abs32 (scratch[pc.ref_bands + (b + 1u) * pc.n + o]));
    if (pc.scale == 0u) {
      sums[3u + b] = umul64 (d * d, d);
    } else {
      // libvmaf rounds the square with 2^shift, not 2^(shift - 1).
      const uint q = shr64 (add64 (umul64 (d, d), shl64 (uvec2 (1u, 0u), pc.den_sq)), pc.den_sq).x;
      sums[3u + b] = shr64 (add64 (umul64 (q, d), uvec2 (half_of (pc.den_cub), 0u)), pc.den_cub);
    }
  }
}

void main ()
{
  const uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  const uint t = gl_LocalInvocationIndex;
  const int j0 = int (pc.left + gl_WorkGroupID.x * TW), i0 = int (pc.top + gl_WorkGroupID.y * TH);
  const int w = int (pc.w), h = int (pc.h);

  for (uint e = t; e < uint (HW * HH); e += uint (LX * LY)) {
    const int hy = int (e) / HW, hx = int (e) % HW;
    int i = i0 - 1 + hy, j = j0 - 1 + hx;
    // Past the band's end only for outputs outside the region: clamped.
    i = i < 0 ? 1 : min (i, h - 1);
    j = j < 0 ? 1 : min (j, w - 1);
    const uint o = uint (i * w + j);
    int os[3], ts[3], r[3], csf[3], flt[3];
    for (uint b = 0u; b < 3u; b++) {
      os[b] = scratch[pc.ref_bands + (b + 1u) * pc.n + o];
      ts[b] = scratch[pc.dis_bands + (b + 1u) * pc.n + o];
    }
    decouple_csf (os, ts, r, csf, flt);
    for (uint b = 0u; b < 3u; b++)
      flt_s[b][hy][hx] = flt[b];
    if (hy >= 1 && hy <= TH && hx >= 1 && hx <= TW) {
      for (uint b = 0u; b < 3u; b++)
        r_s[b][hy - 1][hx - 1] = r[b];
      ctr_s[hy - 1][hx - 1] = centre_term (csf[0]) + centre_term (csf[1]) + centre_term (csf[2]);
    }
  }
  barrier ();

  // Two rounds of LY tile rows; each row's sums reduced across the LX lanes.
  for (uint round = 0u; round < 2u; round++) {
    const uint row = round * LY + ty;
    const uint i = uint (i0) + row, j = uint (j0) + tx;
    uvec2 sums[6] = uvec2[6] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u),
        uvec2 (0u));
    if (row < TH && tx < TW && i < pc.bottom && j < pc.right)
      terms (row, tx, i, j, sums);
    for (uint k = 0u; k < 6u; k++) {
      red[ty][tx] = sums[k];
      barrier ();
      for (uint s = LX / 2u; s > 0u; s >>= 1u) {
        if (tx < s)
          red[ty][tx] = add64 (red[ty][tx], red[ty][tx + s]);
        barrier ();
      }
      if (tx == 0u && row < TH && i < pc.bottom) {
        const uint base = pc.partial + ((i - pc.top) * pc.tiles_x + gl_WorkGroupID.x) * 12u + 2u * k;
        scratch[base] = int (red[ty][0].x);
        scratch[base + 1u] = int (red[ty][0].y);
      }
      barrier ();
    }
  }
}
