// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, one scale's masked sums (scale SCALE), bit-exact with
// gst/vmaf's CPU reference (libvmaf 3.2 scalar code), and in the same
// dispatch the next scale's wavelet step (vmaf_adm_wavelet.glsl), which
// needs only this scale's band a: the chain of wavelet steps is the frame's
// critical path, and the coarse scales alone left the GPU mostly idle. The
// first workgroups take the wavelet tiles of the reference, then of the
// distorted picture; the others a TW x TH tile of the region `core`:
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
//    finishes them. Sums (mod 2^64) do not depend on the order of addition;
// 4. at the coarsest scale (SCALE 3), which has few rows, the last workgroup
//    to finish a row of tiles finishes its region rows too (a count per row
//    of tiles tells it), rather than a dispatch of its own after one more
//    barrier, which would keep the GPU nearly idle at the end of every
//    frame.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint COS_M = 0u; // float cos^2(1 deg) * 2^24
layout (constant_id = 1) const uint SCALE = 0u;  // a pipeline per scale: its branches fold away
// The scale's CSF weights of bands h and v, and of band d: Q21 and Q23 at
// scale 0, else Q32.
layout (constant_id = 2) const uint RF_HV = 0u;
layout (constant_id = 3) const uint RF_D = 0u;

#include "vmaf_adm_common.glsl"

// 256 invocations make a 30 x 14 tile: its 32 x 16 halo region is exactly
// two rounds of the (costly) decoupling, and the shared memory stays below
// the 16 KiB Vulkan guarantees.
#define TW 30
#define TH 14
#define HW (TW + 2)
#define HH (TH + 2)
#define THREADS 256
#define ROUNDS 2 // HW * HH / THREADS

layout (local_size_x = THREADS) in;

// Each binding is only the part of the kernel's scratch buffer that this
// dispatch touches (vkadmkernel.cpp), so that the row sums of the scale
// before, running at the same time, never share bytes that one writes.
// This scale's bands (read) and the next scale's (written).
layout (std430, binding = 0) buffer Scratch { int scratch[]; };
// This scale's partial sums ((low, high) word pairs), and at scale 3 the
// counts after them: coherent, as there one workgroup reads what the others
// of its row of tiles wrote (4. above).
layout (std430, binding = 1) coherent buffer Partials { int partials[]; };
// This scale's sums in the frame's result slot; written at scale 3 only.
layout (std430, binding = 2) buffer Result { uint result[]; };

// Per scale, packed to fit the 128 bytes of push constants Vulkan promises;
// the region is symmetric (right = w - left, bottom = h - top), and each
// scale's bands are the reference's a, h, v, d, then the distorted's. The
// partial sums are, per sum, tile and region row, a (low, high) pair.
layout (push_constant) uniform Params {
  uint size[4];    // band width | height << 16
  uint corner[4];  // region left | top << 16
  uint shifts[12]; // bytes: num_sub[3], num_sq[3], num_cub[3], den_sq, den_cub, gain
  uint bands[4];   // word offset of the reference's band a (this scale's and the next)
  // Scale 3 (4. above): the row shifts num_row | den_row << 8, and the word
  // offset in Partials of the counts of finished tiles, one per row of
  // tiles, zeroed by scale 0's wavelet step.
  uint row_shifts;
  uint counters;
} pc;

// Scale SCALE's constants, unpacked.
struct Scale {
  uint scale, w, h, stride, n, left, top, right, bottom; // stride, n: words per row, band
  uint ref_bands, dis_bands, partial, tiles_x, tiles;
  uint rfactor[3], num_sub[3], num_sq[3], num_cub[3], den_sq, den_cub;
  int gain;
};
Scale sc;

uint shift_byte (uint s, uint i)
{
  return bitfieldExtract (pc.shifts[s * 3u + i / 4u], int (i % 4u) * 8, 8);
}

void load_scale ()
{
  const uint s = SCALE;
  sc.scale = s;
  sc.w = pc.size[s] & 0xffffu;
  sc.h = pc.size[s] >> 16;
  sc.stride = s == 0u ? (sc.w + 1u) / 2u : sc.w;
  sc.n = sc.stride * sc.h;
  sc.left = pc.corner[s] & 0xffffu;
  sc.top = pc.corner[s] >> 16;
  sc.right = sc.w - sc.left;
  sc.bottom = sc.h - sc.top;
  sc.ref_bands = pc.bands[s];
  sc.dis_bands = sc.ref_bands + 4u * sc.n;
  sc.partial = 0u;
  sc.tiles_x = (sc.right - sc.left + uint (TW) - 1u) / uint (TW);
  sc.tiles = sc.tiles_x * ((sc.bottom - sc.top + uint (TH) - 1u) / uint (TH));
  sc.rfactor = uint[3] (RF_HV, RF_HV, RF_D);
  for (uint b = 0u; b < 3u; b++) {
    sc.num_sub[b] = shift_byte (s, b);
    sc.num_sq[b] = shift_byte (s, 3u + b);
    sc.num_cub[b] = shift_byte (s, 6u + b);
  }
  sc.den_sq = shift_byte (s, 9u);
  sc.den_cub = shift_byte (s, 10u);
  sc.gain = int (shift_byte (s, 11u));
}

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
#define WAVELET_WORDS (2 * 15 * 66) // vmaf_adm_wavelet.glsl's two [ROWS][SPAN] arrays
#if WAVELET_WORDS > TILE_WORDS && WAVELET_WORDS > RED_WORDS
#error the wavelet step's shared arrays do not fit
#endif
shared int smem[TILE_WORDS > RED_WORDS ? TILE_WORDS : RED_WORDS];

// Sample (i, j) of band b (a, h, v, d) of the picture whose bands start at
// word `bands`; scale 0's bands are 16-bit pairs (vmaf_adm_dwt.comp).
int band_at (uint bands, uint b, uint i, uint j)
{
  const uint at = bands + b * sc.n + i * sc.stride;
  if (sc.scale == 0u)
    return bitfieldExtract (scratch[at + j / 2u], int (j & 1u) * 16, 16);
  return scratch[at + j];
}

// The next scale's wavelet step: its input is this scale's band a, its
// bands a word per sample.
#define WAVELET_SCALE (SCALE < 3u ? SCALE + 1u : 3u)
#define WAVELET_LO(r, c) smem[(r) * WAVELET_SPAN + (c)]
#define WAVELET_HI(r, c) smem[(WAVELET_ROWS + (r)) * WAVELET_SPAN + (c)]
uint next_w, next_h;

int wavelet_sample (bool dis, int y, int x)
{
  return band_at (dis ? sc.dis_bands : sc.ref_bands, 0u, uint (y), uint (x));
}

void wavelet_store (bool dis, int i, int j, int a[2], int h[2], int v[2], int d[2])
{
  const uint n = next_w * next_h;
  const uint o = pc.bands[WAVELET_SCALE] + (dis ? 4u * n : 0u) + uint (i) * next_w + uint (j);
  for (uint k = 0u; k < 2u && uint (j) + k < next_w; k++) {
    scratch[o + k] = a[k];
    scratch[o + k + n] = h[k];
    scratch[o + k + 2u * n] = v[k];
    scratch[o + k + 3u * n] = d[k];
  }
}

#include "vmaf_adm_wavelet.glsl"

int centre_term (int csf)
{
  const int a = abs32 (csf);
  if (sc.scale == 0u)
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
  for (uint b = 0u; b < 3u; b++) {
    const int r = smem[R_AT + (b * TH + ty) * ROW_WORDS + tx];
    int x;
    if (sc.scale == 0u)
      x = r * int (sc.rfactor[b]);
    else
      x = int (sar64 (add64 (sumul64 (r, sc.rfactor[b]), uvec2 (1u << 27, 0u)), 28u).x);
    x = max (abs32 (x) - (thr << sc.num_sub[b]), 0);
    const uint sq = sc.num_sq[b];
    const int x_sq = int (sar64 (add64 (smul64 (x, x), uvec2 (1u << (sq - 1u), 0u)), sq).x);
    const uint cub = sc.num_cub[b];
    sums[b] = add64 (sums[b], sar64 (add64 (smul64 (x_sq, x), uvec2 (half_of (cub), 0u)), cub));

    const uint d = uint (abs32 (band_at (sc.ref_bands, b + 1u, i, j)));
    if (sc.scale == 0u) {
      sums[3u + b] = add64 (sums[3u + b], umul64 (d * d, d));
    } else {
      // libvmaf rounds the square with 2^shift, not 2^(shift - 1).
      const uint q = shr64 (add64 (umul64 (d, d), shl64 (uvec2 (1u, 0u), sc.den_sq)), sc.den_sq).x;
      sums[3u + b] = add64 (sums[3u + b],
          shr64 (add64 (umul64 (q, d), uvec2 (half_of (sc.den_cub), 0u)), sc.den_cub));
    }
  }
}

#define ADM_PARTIAL(i) partials[i]
#include "vmaf_adm_rowsum.glsl"

// Scale 3, after the tile's partial sums: the last workgroup of its row of
// tiles to get here adds up the region rows of that row of tiles, each of
// the six sums, into the result slot, as vmaf_adm_rows.comp does for the
// finer scales.
void finish_rows (uint t, uint tile_row)
{
  // Every invocation's partial sums are written before the count.
  memoryBarrierBuffer ();
  barrier ();
  if (t == 0u)
    smem[0] = int (atomicAdd (partials[pc.counters + tile_row], 1) == int (sc.tiles_x) - 1);
  barrier ();
  if (smem[0] == 0)
    return;
  // The other workgroups' partial sums, after their counts.
  memoryBarrierBuffer ();
  const uint rows = sc.bottom - sc.top;
  const uint k = t / TH, row = tile_row * TH + t % TH;
  uvec2 v = uvec2 (0u);
  if (t < 6u * TH && row < rows)
    v = adm_row_total (sc.partial, k, sc.tiles_x, rows, row, pc.row_shifts & 0xffu,
        pc.row_shifts >> 8);
  barrier ();
  smem[2u * t] = int (v.x);
  smem[2u * t + 1u] = int (v.y);
  barrier ();
  if (t < 6u) {
    uvec2 s = uvec2 (0u);
    for (uint i = 0u; i < TH; i++) {
      const uint at = 2u * (t * TH + i);
      s = add64 (s, uvec2 (uint (smem[at]), uint (smem[at + 1u])));
    }
    adm_atomic_add64 (adm_result_word (t), s);
  }
}

void main ()
{
  const uint t = gl_LocalInvocationIndex;
  uint g = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  load_scale ();
  if (SCALE < 3u) {
    next_w = pc.size[WAVELET_SCALE] & 0xffffu;
    next_h = pc.size[WAVELET_SCALE] >> 16;
    const uint tiles_x = (next_w + WAVELET_TILE - 1u) / WAVELET_TILE;
    const uint tiles = tiles_x * ((next_h + WAVELET_ROWS - 1u) / WAVELET_ROWS);
    if (g < 2u * tiles) {
      const bool dis = g >= tiles;
      const uint k = dis ? g - tiles : g;
      wavelet_tile (dis, t, int (k / tiles_x) * WAVELET_ROWS, int (k % tiles_x) * WAVELET_TILE,
          int (sc.w), int (sc.h), int (next_w), int (next_h));
      return;
    }
    g -= 2u * tiles;
  }
  // Workgroups past the last tile (the grid is a rectangle) have nothing.
  if (g >= sc.tiles)
    return;
  const uint tile_x = g % sc.tiles_x;
  const int j0 = int (sc.left + tile_x * TW), i0 = int (sc.top + g / sc.tiles_x * TH);
  const int w = int (sc.w), h = int (sc.h);

  // Both rounds' coefficients are loaded before either is decoupled, so
  // their memory latencies overlap.
  int os[ROUNDS][3], ts[ROUNDS][3];
  for (uint rd = 0u; rd < ROUNDS; rd++) {
    const int e = int (t + rd * THREADS), hy = e / HW, hx = e % HW;
    int i = i0 - 1 + hy, j = j0 - 1 + hx;
    // Past the band's end only for outputs outside the region: clamped.
    i = i < 0 ? 1 : min (i, h - 1);
    j = j < 0 ? 1 : min (j, w - 1);
    for (uint b = 0u; b < 3u; b++) {
      os[rd][b] = band_at (sc.ref_bands, b + 1u, uint (i), uint (j));
      ts[rd][b] = band_at (sc.dis_bands, b + 1u, uint (i), uint (j));
    }
  }
  for (uint rd = 0u; rd < ROUNDS; rd++) {
    const int e = int (t + rd * THREADS), hy = e / HW, hx = e % HW;
    int r[3], csf[3], flt[3];
    decouple_csf (os[rd], ts[rd], r, csf, flt);
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
  if (row < TH && i < sc.bottom)
    for (uint c = lane; c < TW; c += LANES)
      if (uint (j0) + c < sc.right)
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
    if (ri < sc.bottom) {
      uvec2 sum = uvec2 (0u);
      for (uint l = 0u; l < LANES; l++) {
        const uint at = ((k * TH + r) * RED_STRIDE + l) * 2u;
        sum = add64 (sum, uvec2 (uint (smem[at]), uint (smem[at + 1u])));
      }
      const uint rows = sc.bottom - sc.top;
      const uint base = sc.partial + ((k * sc.tiles_x + tile_x) * rows + ri - sc.top) * 2u;
      partials[base] = int (sum.x);
      partials[base + 1u] = int (sum.y);
    }
  }
  if (SCALE == 3u)
    finish_rows (t, g / sc.tiles_x);
}
