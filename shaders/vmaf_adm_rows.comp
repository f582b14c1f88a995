// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, the frame's totals from vmaf_adm_masked.comp's partial
// sums of one scale. Workgroup z is the sum (numerators of bands h, v, d,
// then denominators); each invocation finishes one region row: it adds the
// row's tile partials (stored sum, tile, row, so neighbouring invocations
// read neighbouring words) and rounds the total by libvmaf's row shift. The
// workgroup then adds its rows' rounded totals in two short serial steps
// (two barriers) and adds that to the result slot with one 64-bit atomic
// made of 32-bit ones (order-independent, exact). A workgroup per row with a
// barrier tree left most of the GPU idle on barriers for little data.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "vmaf_adm_common.glsl"

#define THREADS 64
#define STEP 8 // THREADS = STEP * STEP

layout (local_size_x = THREADS) in;

// The scale's partial sums, and its part of the frame's result slot.
layout (std430, binding = 0) readonly buffer Scratch { int scratch[]; };
layout (std430, binding = 1) buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint rows, tiles;      // the scale's region rows, tiles per row
  uint num_row, den_row; // its row shifts
} pc;

#define ADM_PARTIAL(i) scratch[i]
#include "vmaf_adm_rowsum.glsl"

shared uvec2 red[THREADS];
shared uvec2 red_step[STEP];

void main ()
{
  const uint k = gl_WorkGroupID.z, t = gl_LocalInvocationIndex;
  const uint rows = pc.rows, tiles = pc.tiles;
  if (gl_WorkGroupID.x * THREADS >= rows)
    return; // the whole workgroup
  const uint row = gl_WorkGroupID.x * THREADS + t;
  uvec2 v = uvec2 (0u);
  if (row < rows)
    v = adm_row_total (0u, k, tiles, rows, row, pc.num_row, pc.den_row);
  red[t] = v;
  barrier ();
  if (t < STEP) {
    uvec2 s = uvec2 (0u);
    for (uint l = 0u; l < STEP; l++)
      s = add64 (s, red[t * STEP + l]);
    red_step[t] = s;
  }
  barrier ();
  if (t == 0u) {
    uvec2 s = uvec2 (0u);
    for (uint l = 0u; l < STEP; l++)
      s = add64 (s, red_step[l]);
    adm_atomic_add64 (adm_result_word (k), s);
  }
}
