// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, scale 0's db2 wavelet step (vmaf_adm_wavelet.glsl) of
// the reference and the distorted luma plane (workgroup z = 0 / 1): a 32 x 15
// tile of the four bands per workgroup. The coarser scales' steps run in
// vmaf_adm_masked.comp's dispatches.
//
// Scale 0's bands are 16-bit (libvmaf stores them as int16): two samples
// per word, rows padded to whole words, which halves the bytes this pass
// writes and the masked sums and scale 1 read.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint PACKING = 0u; // LUMA_*
layout (constant_id = 1) const uint SHIFT = 0u;   // right shift of 16-bit containers

#include "motion_luma_fetch.glsl"
#include "vmaf_adm_common.glsl"

layout (local_size_x = 256) in;

layout (std430, binding = 0) readonly buffer RefBuf { uint ref_words[]; };
layout (std430, binding = 1) readonly buffer DisBuf { uint dis_words[]; };
layout (std430, binding = 2) writeonly buffer Scratch { int scratch[]; };
layout (std430, binding = 3) writeonly buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint in_w, in_h;     // luma plane
  uint out_w, out_h;   // bands
  uint bpc;
  uint ref_in, dis_in; // byte offsets in the planes
  uint ref_stride, dis_stride; // bytes
  uint ref_out, dis_out;       // word offsets of bands a, h, v, d
  uint slot;           // result slot this pass zeroes
  uint result_words;   // words per result slot
} pc;

LUMA_FETCH_FUNCTIONS (ref, ref_words)
LUMA_FETCH_FUNCTIONS (dis, dis_words)

#define WAVELET_SCALE 0u
#define WAVELET_BPC pc.bpc

// WAVELET_ROWS x WAVELET_SPAN (vmaf_adm_wavelet.glsl) each.
shared int lo_s[15][66];
shared int hi_s[15][66];
#define WAVELET_LO(r, c) lo_s[r][c]
#define WAVELET_HI(r, c) hi_s[r][c]

int wavelet_sample (bool dis, int y, int x)
{
  if (dis)
    return dis_fetch (pc.dis_in + uint (y) * pc.dis_stride, uint (x));
  return ref_fetch (pc.ref_in + uint (y) * pc.ref_stride, uint (x));
}

// j is even: one word per band; past an odd width the high half is padding.
void wavelet_store (bool dis, int i, int j, int a[2], int h[2], int v[2], int d[2])
{
  const uint stride = (pc.out_w + 1u) / 2u, n = stride * pc.out_h;
  const uint o = (dis ? pc.dis_out : pc.ref_out) + uint (i) * stride + uint (j) / 2u;
  scratch[o] = int (bitfieldInsert (uint (a[0]), uint (a[1]), 16, 16));
  scratch[o + n] = int (bitfieldInsert (uint (h[0]), uint (h[1]), 16, 16));
  scratch[o + 2u * n] = int (bitfieldInsert (uint (v[0]), uint (v[1]), 16, 16));
  scratch[o + 3u * n] = int (bitfieldInsert (uint (d[0]), uint (d[1]), 16, 16));
}

#include "vmaf_adm_wavelet.glsl"

void main ()
{
  const uint t = gl_LocalInvocationIndex;
  if (gl_WorkGroupID == uvec3 (0u) && t < pc.result_words)
    result[pc.slot * pc.result_words + t] = 0u;
  wavelet_tile (gl_WorkGroupID.z == 1u, t, int (gl_WorkGroupID.y) * WAVELET_ROWS,
      int (gl_WorkGroupID.x) * WAVELET_TILE, int (pc.in_w), int (pc.in_h), int (pc.out_w),
      int (pc.out_h));
}
