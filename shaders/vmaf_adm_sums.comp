// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, one scale's sums, bit-exact with gst/vmaf's CPU
// reference (libvmaf 3.2 scalar code). A workgroup takes one row of the
// region `core`: per coefficient and band h, v, d, the CSF-weighted restored
// detail less its masking threshold (the 3x3 neighbourhood of the three
// bands' masking contributions), cubed with libvmaf's roundings, and the
// reference's detail cubed; the row's sums are rounded by libvmaf's row
// shifts and added to the frame's 64-bit totals in the result slot.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "vmaf_adm_common.glsl"

#define THREADS 256

layout (local_size_x = THREADS) in;

layout (std430, binding = 0) readonly buffer Scratch { int scratch[]; };
layout (std430, binding = 1) buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint w, h, n;                   // band size, samples per band
  uint left, top, right, bottom;  // the region
  uint ref_bands;                 // word offset of the reference's bands a, h, v, d
  uint mask;                      // word offset of r, csf, flt (h, v, d each)
  uint scale;
  uint rfactor[3];                // CSF weights: Q21/Q23 at scale 0, else Q32
  uint num_sub[3], num_sq[3], num_cub[3];
  uint num_row, den_sq, den_cub, den_row;
  uint result_base;               // word index of this scale's num (den at + 24)
} pc;

shared uvec2 red[6][THREADS];

int flt_at (uint b, uint y, uint x)
{
  return scratch[pc.mask + (6u + b) * pc.n + y * pc.w + x];
}

// Neighbours mirror to index 1 above / left of the band and repeat the edge
// below / right of it.
int threshold (uint i, uint j)
{
  const uint ys[3] = uint[3] (i == 0u ? 1u : i - 1u, i, i == pc.h - 1u ? i : i + 1u);
  const uint xs[3] = uint[3] (j == 0u ? 1u : j - 1u, j, j == pc.w - 1u ? j : j + 1u);
  int thr = 0;
  for (uint b = 0u; b < 3u; b++) {
    for (uint dy = 0u; dy < 3u; dy++)
      for (uint dx = 0u; dx < 3u; dx++)
        if (dy != 1u || dx != 1u)
          thr += flt_at (b, ys[dy], xs[dx]);
    const int a = abs32 (scratch[pc.mask + (3u + b) * pc.n + i * pc.w + j]);
    if (pc.scale == 0u)
      thr += sext16 ((8738 * a + 2048) >> 12);
    else
      thr += int (sar64 (add64 (smul64 (286331153, a), uvec2 (0x80000000u, 0xffffffffu)), 32u).x);
  }
  return thr;
}

void atomic_add64 (uint idx, uvec2 v)
{
  const uint old = atomicAdd (result[idx], v.x);
  const uint hi = v.y + (old + v.x < old ? 1u : 0u);
  if (hi != 0u)
    atomicAdd (result[idx + 1u], hi);
}

void main ()
{
  const uint t = gl_LocalInvocationIndex;
  const uint i = pc.top + gl_WorkGroupID.x;
  uvec2 num[3] = uvec2[3] (uvec2 (0u), uvec2 (0u), uvec2 (0u));
  uvec2 den[3] = uvec2[3] (uvec2 (0u), uvec2 (0u), uvec2 (0u));
  for (uint j = pc.left + t; j < pc.right; j += THREADS) {
    const uint o = i * pc.w + j;
    const int thr = threshold (i, j);
    for (uint b = 0u; b < 3u; b++) {
      const int r = scratch[pc.mask + b * pc.n + o];
      int x;
      if (pc.scale == 0u)
        x = r * int (pc.rfactor[b]);
      else
        x = int (sar64 (add64 (sumul64 (r, pc.rfactor[b]), uvec2 (1u << 27, 0u)), 28u).x);
      x = abs32 (x) - (thr << pc.num_sub[b]);
      x = max (x, 0);
      const uint sq = pc.num_sq[b];
      const int x_sq = int (sar64 (add64 (smul64 (x, x), uvec2 (1u << (sq - 1u), 0u)), sq).x);
      num[b] = add64 (num[b],
          sar64 (add64 (smul64 (x_sq, x), uvec2 (half_of (pc.num_cub[b]), 0u)), pc.num_cub[b]));

      const uint d = uint (abs32 (scratch[pc.ref_bands + (b + 1u) * pc.n + o]));
      if (pc.scale == 0u) {
        den[b] = add64 (den[b], umul64 (d * d, d));
      } else {
        // libvmaf rounds the square with 2^shift, not 2^(shift - 1).
        const uint q = shr64 (add64 (umul64 (d, d), shl64 (uvec2 (1u, 0u), pc.den_sq)), pc.den_sq).x;
        den[b] = add64 (den[b],
            shr64 (add64 (umul64 (q, d), uvec2 (half_of (pc.den_cub), 0u)), pc.den_cub));
      }
    }
  }
  for (uint b = 0u; b < 3u; b++) {
    red[b][t] = num[b];
    red[3u + b][t] = den[b];
  }
  for (uint s = THREADS / 2u; s > 0u; s >>= 1u) {
    barrier ();
    if (t < s)
      for (uint k = 0u; k < 6u; k++)
        red[k][t] = add64 (red[k][t], red[k][t + s]);
  }
  barrier ();
  if (t < 3u) {
    const uvec2 row = sar64 (add64 (red[t][0], uvec2 (half_of (pc.num_row), 0u)), pc.num_row);
    atomic_add64 (pc.result_base + 2u * t, row);
  } else if (t < 6u) {
    const uvec2 row = shr64 (add64 (red[t][0], uvec2 (half_of (pc.den_row), 0u)), pc.den_row);
    atomic_add64 (pc.result_base + 24u + 2u * (t - 3u), row);
  }
}
