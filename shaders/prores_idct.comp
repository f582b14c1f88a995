#version 450
#extension GL_GOOGLE_include_directive : require
/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes split decoding, pass 2: one workgroup per slice reads the
 * coefficients pass 1 (prores_vld.comp) left in the scratch, then runs the
 * fused shader's dequantisation, IDCT and stores (prores_idct.glsl), and
 * reports the slice's status (its record, its header, its components'
 * decoding) as the fused shader does.
 */

/* The ids are the fused shader's (the host fills one list). */
layout (constant_id = 0) const uint DEPTH12 = 0;
layout (constant_id = 1) const uint IDCT_X86 = 1;
layout (constant_id = 2) const uint WG = 64;
layout (constant_id = 4) const uint C444 = 0;

layout (local_size_x_id = 2) in;

#include "prores_io.glsl"

layout (std430, binding = 6) readonly buffer Scratch { uint scratch[]; };

/* Coded position of each natural coefficient index (the inverse scan). */
shared uint s_iscan[64];
shared uint s_info[8]; /* header size, qscale, y, u, v, a sizes, status */

#include "prores_slice.glsl"
#include "prores_idct.glsl"
#include "prores_scratch.glsl"

void main ()
{
  const uint slice = gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x;
  if (slice >= pc.num_slices)
    return;
  const uint tid = gl_LocalInvocationID.x;
  const bool c444 = C444 != 0u;
  const bool interlaced = in_words[FP_INTERLACED] != 0u;
  const uint fields = interlaced ? 2u : 1u;

  SliceDesc sd;
  if (!slice_desc (slice, c444, sd)) {
    if (tid == 0u)
      fail_slice (slice, ST_BAD_DESC);
    return;
  }
  if (tid == 0u) {
    uint info[6];
    uint st = slice_header (sd.off, sd.size, info);
    for (uint i = 0u; i < 6u; i++)
      s_info[i] = info[i];
    s_info[6] = st;
  }
  for (uint i = tid; i < 64u; i += WG)
    s_iscan[interlaced ? INTERLACED_SCAN[i] : PROGRESSIVE_SCAN[i]] = i;
  barrier ();
  if (s_info[6] != ST_OK) {
    if (tid == 0u)
      fail_slice (slice, s_info[6]);
    return;
  }
  const bool no_chroma = s_info[3] + s_info[4] == 0u;
  load_qmat (tid, s_info[1]);
  barrier ();

  /* IDCT rows of every block: task = block * 8 + row; the row's
   * coefficients gathered from the component's coded order. */
  const uint n_blocks = slice_blocks (sd.luma_log2, sd.chroma_log2, no_chroma);
  const uint base_y = scratch_base (sd, 0u), base_cb = scratch_base (sd, 1u),
      base_cr = scratch_base (sd, 2u);
  for (uint t = tid; t < n_blocks * 8u; t += WG) {
    BlockRef br = block_ref (t >> 3, sd.luma_log2, sd.chroma_log2, sd.mb_x, c444);
    const uint r = t & 7u;
    const uint log2n = br.comp == 0u ? sd.luma_log2 : sd.chroma_log2;
    const uint base = br.comp == 0u ? base_y : br.comp == 1u ? base_cb : base_cr;
    int x[8];
    for (uint i = 0u; i < 8u; i++) {
      uint pos = (s_iscan[r * 8u + i] << log2n) | br.block;
      x[i] = sext16u (scratch[base + (pos >> 1)] >> ((pos & 1u) << 4));
    }
    idct_row (br.comp, r, x, br.index + r * 8u);
  }
  barrier ();
  idct_columns (tid, n_blocks, sd.luma_log2, sd.chroma_log2, sd.mb_x, c444);
  barrier ();
  store_slice (tid, n_blocks, sd.luma_log2, sd.chroma_log2, sd.mb_x, sd.mb_y, sd.mb_count,
      fields, sd.bottom, c444, no_chroma);
  if (tid == 0u) {
    const uint s = pc.stat_word + slice * 4u;
    uint st = max (scratch[s], max (scratch[s + 1u], scratch[s + 2u]));
    if (st != ST_OK)
      fail_slice (slice, st);
  }
}
