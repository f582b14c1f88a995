// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, scale 0's db2 wavelet step (vmaf_adm_db2.glsl) of the
// reference and the distorted luma plane (workgroup z = 0 / 1), bit-exact
// with gst/vmaf's CPU reference (libvmaf 3.2 scalar code). The coarser
// scales' steps run in vmaf_adm_masked.comp's dispatches.
//
// A workgroup makes a TILE_W x TILE_H tile of the four bands with LANES x
// SLICES invocations. Each owns four input columns 4m .. 4m + 3 (outputs 2m
// and 2m + 1) and ROWS output rows: it loads its columns of the 2 ROWS + 2
// input rows once, with whole words where the four columns lie inside the
// picture (per sample, mirrored, at its edges), filters them vertically in
// registers, and hands only its first and last column's results to its
// neighbours through shared memory (outputs 2m, 2m + 1 read columns
// 4m - 1 .. 4m + 4). After the single barrier it filters its two outputs
// horizontally. The first and last lane of a row only supply the columns
// left and right of the tile; their loads are the horizontal halo.
//
// Scale 0's bands are 16-bit (libvmaf stores them as int16): two samples
// per word, rows padded to whole words, which halves the bytes this pass
// writes and the masked sums and scale 1 read. A lane's two outputs are one
// word per band, so a row of lanes stores consecutive words.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint PACKING = 0u; // LUMA_*
layout (constant_id = 1) const uint SHIFT = 0u;   // right shift of 16-bit containers

#include "motion_luma_fetch.glsl"
#include "vmaf_adm_common.glsl"
#include "vmaf_adm_db2.glsl"

// One output row per invocation: its two extra input rows (the vertical
// halo) double the loads, but on an H200 a 2160p step takes 36 us so
// against 51 us with two rows, 54 us with four (76 us with eight: the
// samples held in registers cut the occupancy).
#define LANES 64
#define SLICES 4
#define ROWS 1
#define TILE_W (2 * (LANES - 2)) // outputs per row (vkadmkernel.cpp)
#define TILE_H (SLICES * ROWS)   // output rows (vkadmkernel.cpp)

layout (local_size_x = LANES, local_size_y = SLICES) in;

layout (std430, binding = 0) readonly buffer RefBuf { uint ref_words[]; };
layout (std430, binding = 1) readonly buffer DisBuf { uint dis_words[]; };
layout (std430, binding = 2) writeonly buffer Scratch { uint scratch[]; };
// The frame's result slot, zeroed here.
layout (std430, binding = 3) writeonly buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint in_w, in_h;     // luma plane
  uint out_w, out_h;   // bands
  uint bpc;
  uint ref_in, dis_in; // byte offsets in the planes
  uint ref_stride, dis_stride; // bytes
  uint ref_out, dis_out;       // word offsets of bands a, h, v, d
  uint result_words;   // words of the result slot
  uint counters, n_counters; // words in Scratch this pass zeroes (vmaf_adm_masked.comp's)
} pc;

LUMA_FETCH_FUNCTIONS (ref, ref_words)
LUMA_FETCH_FUNCTIONS (dis, dis_words)
LUMA_FETCH4_FUNCTIONS (ref, ref_words)
LUMA_FETCH4_FUNCTIONS (dis, dis_words)

// Each lane's vertical results of its first and last column per tile row,
// low-pass in the low 16 bits, high-pass in the high ones.
shared uint first_s[TILE_H][LANES];
shared uint last_s[TILE_H][LANES];

// Columns 4m .. 4m + 3 of input row y.
ivec4 load4 (bool dis, int y, int m)
{
  const int in_w = int (pc.in_w);
  const uint row = dis ? pc.dis_in + uint (y) * pc.dis_stride : pc.ref_in + uint (y) * pc.ref_stride;
  if (m >= 0 && 4 * m + 3 < in_w) {
    if (dis)
      return dis_fetch4 (row, uint (4 * m));
    return ref_fetch4 (row, uint (4 * m));
  }
  ivec4 v;
  for (int k = 0; k < 4; k++) {
    const uint x = uint (mirror (4 * m + k, in_w));
    if (dis)
      v[k] = dis_fetch (row, x);
    else
      v[k] = ref_fetch (row, x);
  }
  return v;
}

// Four columns' vertical pass from input rows 2i - 1 .. 2i + 2. Samples
// centred on zero: minus half the range times the low-pass sum (the
// high-pass sum is zero). 16-bit input wraps 32 bits on the way; the
// results fit 16 bits.
void vertical (ivec4 s0, ivec4 s1, ivec4 s2, ivec4 s3, out ivec4 lo, out ivec4 hi)
{
  const int mid = 1 << (pc.bpc - 1u);
  const ivec4 sl = LO[0] * s0 + LO[1] * s1 + LO[2] * s2 + LO[3] * s3;
  const ivec4 sh = HI[0] * s0 + HI[1] * s1 + HI[2] * s2 + HI[3] * s3;
  lo = bitfieldExtract ((sl - LO_SUM * mid + mid) >> pc.bpc, 0, 16);
  hi = bitfieldExtract ((sh + mid) >> pc.bpc, 0, 16);
}

// Outputs 2m and 2m + 1 of one filter from columns 4m - 1 .. 4m + 4 as one
// word. int16 inputs: the sums fit 32 bits.
uint horizontal (int s[6], const bool lowpass)
{
  const int c0 = lowpass ? LO[0] : HI[0], c1 = lowpass ? LO[1] : HI[1];
  const int c2 = lowpass ? LO[2] : HI[2], c3 = lowpass ? LO[3] : HI[3];
  const int o0 = (c0 * s[0] + c1 * s[1] + c2 * s[2] + c3 * s[3] + 32768) >> 16;
  const int o1 = (c0 * s[2] + c1 * s[3] + c2 * s[4] + c3 * s[5] + 32768) >> 16;
  return bitfieldInsert (uint (o0), uint (o1), 16, 16);
}

void main ()
{
  const uint t = gl_LocalInvocationIndex;
  if (gl_WorkGroupID == uvec3 (0u)) {
    for (uint i = t; i < pc.result_words; i += LANES * SLICES)
      result[i] = 0u;
    for (uint i = t; i < pc.n_counters; i += LANES * SLICES)
      scratch[pc.counters + i] = 0u;
  }
  const bool dis = gl_WorkGroupID.z == 1u;
  const uint lane = gl_LocalInvocationID.x;
  const int r0 = int (gl_LocalInvocationID.y) * ROWS; // first row in the tile
  const int m = int (gl_WorkGroupID.x) * (TILE_W / 2) - 1 + int (lane);
  const int i0 = int (gl_WorkGroupID.y) * TILE_H + r0;
  const int out_h = int (pc.out_h);

  // Every row is loaded before any is filtered, so the loads' latencies
  // overlap. Slices below the bands have nothing to do.
  ivec4 lo[ROWS], hi[ROWS];
  if (i0 < out_h) {
    ivec4 s[2 * ROWS + 2];
    for (int r = 0; r < 2 * ROWS + 2; r++)
      s[r] = load4 (dis, mirror (2 * i0 - 1 + r, int (pc.in_h)), m);
    for (int r = 0; r < ROWS; r++) {
      vertical (s[2 * r], s[2 * r + 1], s[2 * r + 2], s[2 * r + 3], lo[r], hi[r]);
      first_s[r0 + r][lane] = bitfieldInsert (uint (lo[r].x), uint (hi[r].x), 16, 16);
      last_s[r0 + r][lane] = bitfieldInsert (uint (lo[r].w), uint (hi[r].w), 16, 16);
    }
  }
  barrier ();

  if (lane == 0u || lane == LANES - 1u || 2 * m >= int (pc.out_w))
    return;
  const uint stride = (pc.out_w + 1u) / 2u, n = stride * pc.out_h;
  const uint base = (dis ? pc.dis_out : pc.ref_out) + uint (m);
  for (int r = 0; r < ROWS; r++) {
    if (i0 + r < out_h) {
      const int left = int (last_s[r0 + r][lane - 1u]), right = int (first_s[r0 + r][lane + 1u]);
      int l[6] = int[6] (bitfieldExtract (left, 0, 16), lo[r].x, lo[r].y, lo[r].z, lo[r].w,
          bitfieldExtract (right, 0, 16));
      int h[6] = int[6] (bitfieldExtract (left, 16, 16), hi[r].x, hi[r].y, hi[r].z, hi[r].w,
          bitfieldExtract (right, 16, 16));
      const uint o = base + uint (i0 + r) * stride;
      scratch[o] = horizontal (l, true);
      scratch[o + n] = horizontal (h, true);
      scratch[o + 2u * n] = horizontal (l, false);
      scratch[o + 3u * n] = horizontal (h, false);
    }
  }
}
