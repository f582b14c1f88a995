// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, the frame's totals from vmaf_adm_masked.comp's partial
// sums: per scale (workgroup y) and region row (workgroup x), the row's six
// 64-bit sums, rounded by libvmaf's row shifts and added to the result slot
// with 64-bit atomics made of 32-bit ones (order-independent, exact).
#version 450
#extension GL_GOOGLE_include_directive : require

#include "vmaf_adm_common.glsl"

#define THREADS 64

layout (local_size_x = THREADS) in;

layout (std430, binding = 0) readonly buffer Scratch { int scratch[]; };
layout (std430, binding = 1) buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint rows[4], tiles[4], partial[4]; // per scale: region rows, tiles per row, word offset
  uint num_row[4], den_row[4];        // per scale: row shifts
  uint result_base;                   // first word of the result slot
} pc;

shared uvec2 red[6][THREADS];

void atomic_add64 (uint idx, uvec2 v)
{
  const uint old = atomicAdd (result[idx], v.x);
  const uint hi = v.y + (old + v.x < old ? 1u : 0u);
  if (hi != 0u)
    atomicAdd (result[idx + 1u], hi);
}

void main ()
{
  const uint scale = gl_WorkGroupID.y, row = gl_WorkGroupID.x, t = gl_LocalInvocationIndex;
  if (row >= pc.rows[scale])
    return;
  uvec2 acc[6] = uvec2[6] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u));
  for (uint tile = t; tile < pc.tiles[scale]; tile += THREADS) {
    const uint base = pc.partial[scale] + (row * pc.tiles[scale] + tile) * 12u;
    for (uint k = 0u; k < 6u; k++)
      acc[k] = add64 (acc[k], uvec2 (uint (scratch[base + 2u * k]), uint (scratch[base + 2u * k + 1u])));
  }
  for (uint k = 0u; k < 6u; k++)
    red[k][t] = acc[k];
  barrier ();
  for (uint s = THREADS / 2u; s > 0u; s >>= 1u) {
    if (t < s)
      for (uint k = 0u; k < 6u; k++)
        red[k][t] = add64 (red[k][t], red[k][t + s]);
    barrier ();
  }
  if (t < 3u) {
    const uint sh = pc.num_row[scale];
    atomic_add64 (pc.result_base + scale * 6u + 2u * t,
        sar64 (add64 (red[t][0], uvec2 (half_of (sh), 0u)), sh));
  } else if (t < 6u) {
    const uint sh = pc.den_row[scale];
    atomic_add64 (pc.result_base + 24u + scale * 6u + 2u * (t - 3u),
        shr64 (add64 (red[t][0], uvec2 (half_of (sh), 0u)), sh));
  }
}
