// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, one scale's masked sums, bit-exact with gst/vmaf's CPU
// reference (libvmaf 3.2 scalar code). A workgroup takes a TW x TH tile of
// the region `core`:
// 1. decoupling and CSF (vmaf_adm_decouple.glsl) of the tile and a 1-sample
//    halo into shared memory, the halo mirrored as libvmaf's masking
//    neighbourhood is (-1 -> 1 above / left, n -> n - 1 below / right). The
//    threshold adds the three bands' contributions of the eight neighbours
//    in 32-bit wrapping arithmetic, which is associative: the halo keeps
//    their per-sample sum, a third of the shared reads;
// 2. per coefficient and band h, v, d: the CSF-weighted restored detail less
//    the masking threshold (3x3 neighbourhood over the three bands), cubed
//    with libvmaf's roundings, and the reference's detail cubed. LANES
//    invocations share a tile row, each adding its columns' six 64-bit terms
//    in registers;
// 3. each tile row's six sums: the lanes' partial sums, added by one
//    invocation per row and sum after a single barrier (a barrier per tree
//    level cost far more than the arithmetic between them), go to the
//    partial-sum area; the row shifts need whole rows, so vmaf_adm_rows.comp
//    finishes them. Sums (mod 2^64) do not depend on the order of addition.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint COS_M = 0u; // float cos^2(1 deg) * 2^24

#include "vmaf_adm_common.glsl"

// 256 invocations make a 30 x 14 tile: its 32 x 16 halo region is exactly
// two rounds of the (costly) decoupling, and the shared memory stays below
// the 16 KiB Vulkan guarantees.
#define TW 30
#define TH 14
#define HW (TW + 2)
#define HH (TH + 2)
#define THREADS 256

layout (local_size_x = THREADS) in;

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
  uint partial;                   // word offset: per sum, tile and region row, a pair
  uint tiles_x;
} pc;

#include "vmaf_adm_decouple.glsl"

// One shared array: the lanes' partial sums reuse the decoupled tile's
// space once every invocation has read it (16 KiB is all Vulkan promises).
// Rows of 16-lane steps are padded to a multiple of 32 words plus 16, so the
// two tile rows a subgroup of 32 reads fall on different banks.
#define LANES 16
#define ROW_WORDS 48
#define FS_AT 0                              // [HH][ROW_WORDS] flt summed over bands
#define R_AT (FS_AT + HH * ROW_WORDS)        // [3][TH][ROW_WORDS] restored detail
#define CTR_AT (R_AT + 3 * TH * ROW_WORDS)   // [TH][ROW_WORDS] centre terms of the threshold
#define TILE_WORDS (CTR_AT + TH * ROW_WORDS)
#define RED_STRIDE (LANES + 1)               // uvec2 per (sum, row); odd against bank conflicts
#define RED_WORDS (6 * TH * RED_STRIDE * 2)
shared int smem[TILE_WORDS > RED_WORDS ? TILE_WORDS : RED_WORDS];

int centre_term (int csf)
{
  const int a = abs32 (csf);
  if (pc.scale == 0u)
    return sext16 ((8738 * a + 2048) >> 12);
  return int (sar64 (add64 (smul64 (286331153, a), uvec2 (0x80000000u, 0xffffffffu)), 32u).x);
}

// Adds the numerator and denominator terms of bands h, v, d at tile
// position (ty, tx) to sums.
void terms (uint ty, uint tx, uint i, uint j, inout uvec2 sums[6])
{
  int thr = smem[CTR_AT + ty * ROW_WORDS + tx];
  for (uint dy = 0u; dy < 3u; dy++)
    for (uint dx = 0u; dx < 3u; dx++)
      if (dy != 1u || dx != 1u)
        thr += smem[FS_AT + (ty + dy) * ROW_WORDS + tx + dx];
  const uint o = i * pc.w + j;
  for (uint b = 0u; b < 3u; b++) {
    const int r = smem[R_AT + (b * TH + ty) * ROW_WORDS + tx];
    int x;
    if (pc.scale == 0u)
      x = r * int (pc.rfactor[b]);
    else
      x = int (sar64 (add64 (sumul64 (r, pc.rfactor[b]), uvec2 (1u << 27, 0u)), 28u).x);
    x = max (abs32 (x) - (thr << pc.num_sub[b]), 0);
    const uint sq = pc.num_sq[b];
    const int x_sq = int (sar64 (add64 (smul64 (x, x), uvec2 (1u << (sq - 1u), 0u)), sq).x);
    sums[b] = add64 (sums[b], sar64 (add64 (smul64 (x_sq, x), uvec2 (half_of (pc.num_cub[b]), 0u)), pc.num_cub[b]));

    const uint d = uint (abs32 (scratch[pc.ref_bands + (b + 1u) * pc.n + o]));
    if (pc.scale == 0u) {
      sums[3u + b] = add64 (sums[3u + b], umul64 (d * d, d));
    } else {
      // libvmaf rounds the square with 2^shift, not 2^(shift - 1).
      const uint q = shr64 (add64 (umul64 (d, d), shl64 (uvec2 (1u, 0u), pc.den_sq)), pc.den_sq).x;
      sums[3u + b] = add64 (sums[3u + b],
          shr64 (add64 (umul64 (q, d), uvec2 (half_of (pc.den_cub), 0u)), pc.den_cub));
    }
  }
}

void main ()
{
  const uint t = gl_LocalInvocationIndex;
  const int j0 = int (pc.left + gl_WorkGroupID.x * TW), i0 = int (pc.top + gl_WorkGroupID.y * TH);
  const int w = int (pc.w), h = int (pc.h);

  for (uint e = t; e < uint (HW * HH); e += uint (THREADS)) {
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
    smem[FS_AT + hy * ROW_WORDS + hx] = flt[0] + flt[1] + flt[2];
    if (hy >= 1 && hy <= TH && hx >= 1 && hx <= TW) {
      for (uint b = 0u; b < 3u; b++)
        smem[R_AT + (b * TH + hy - 1) * ROW_WORDS + hx - 1] = r[b];
      smem[CTR_AT + (hy - 1) * ROW_WORDS + hx - 1] =
          centre_term (csf[0]) + centre_term (csf[1]) + centre_term (csf[2]);
    }
  }
  barrier ();

  // Tile row `row`, columns lane, lane + LANES.
  const uint row = t / LANES, lane = t % LANES;
  const uint i = uint (i0) + row;
  uvec2 acc[6] = uvec2[6] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u));
  if (row < TH && i < pc.bottom)
    for (uint c = lane; c < TW; c += LANES)
      if (uint (j0) + c < pc.right)
        terms (row, c, i, uint (j0) + c, acc);
  barrier ();
  if (row < TH)
    for (uint k = 0u; k < 6u; k++) {
      const uint at = ((k * TH + row) * RED_STRIDE + lane) * 2u;
      smem[at] = int (acc[k].x);
      smem[at + 1u] = int (acc[k].y);
    }
  barrier ();

  // One invocation per (sum, row): the row's total over the lanes, stored
  // as the partial sum area's [sum][tile][region row] (low, high) pairs.
  if (t < 6u * TH) {
    const uint k = t / TH, r = t % TH, ri = uint (i0) + r;
    if (ri < pc.bottom) {
      uvec2 sum = uvec2 (0u);
      for (uint l = 0u; l < LANES; l++) {
        const uint at = ((k * TH + r) * RED_STRIDE + l) * 2u;
        sum = add64 (sum, uvec2 (uint (smem[at]), uint (smem[at + 1u])));
      }
      const uint rows = pc.bottom - pc.top;
      const uint base = pc.partial + ((k * pc.tiles_x + gl_WorkGroupID.x) * rows + ri - pc.top) * 2u;
      scratch[base] = int (sum.x);
      scratch[base + 1u] = int (sum.y);
    }
  }
}
