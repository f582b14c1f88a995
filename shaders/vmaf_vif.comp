// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer VIF, one scale per dispatch (and a tail, below), bit-exact
// with gst/vmaf's CPU reference (libvmaf 3.2 scalar code): the scale's four
// integer sums, and (scales 0..2) the next scale's pictures, low-passed and
// decimated.
//
// A workgroup covers a strip of STRIP tiles of TILE_W x TILE_H, each
// filtered vertically (means and second moments of both pictures and their
// product, over the tile's columns and an R-sample mirrored halo each side,
// R = 8, 4, 2, 1) into shared memory, then horizontally, each pixel turned
// into its contribution. The decimation filter (radius R / 2) runs on the
// same tile. The strip goes one of two ways:
// - down the scale (ALONG_ROWS false): shared memory holds the tile's rows
//   with their halo, all TILE_W + 2R columns; the next tile keeps the 2R
//   rows it shares with the previous and loads TILE_H new ones, and filters
//   all its columns vertically again;
// - along a row (ALONG_ROWS true): the vertical results of the 2R columns a
//   tile shares with the previous one (and the decimation's) are kept,
//   moved left, so the next tile loads its TILE_W new columns only (TILE_H
//   + 2R rows) and filters only those vertically; the strip's first tile
//   filters its left halo first, as if kept from a tile before it.
// In both filter passes an invocation owns KV (KH) neighbouring outputs, so
// that the products and split parts of an input can be formed once for
// several taps (a tuning choice of the kernel).
//
// No optional device feature is needed (GStreamer 1.22 enables none): sums
// wider than 32 bits are rounded exactly from two 32-bit sums of the high
// and low parts of each term, x = 2^s * hi + lo:
//   (sum c x + 2^(s-1)) >> s = A + ((B + 2^(s-1)) >> s),
//   A = sum c hi, B = sum c lo,
// B being summed as is or recovered from the wrapped sum of the x (WRAP),
// and the gain's double arithmetic is either proved exact from integer
// bounds (fast path) or emulated exactly (vmaf_vif_double.glsl).
//
// The emulation is long and rarely needed (a few pixels per frame), and
// compiled into this kernel its registers would cut the occupancy of the
// filters (a third of the kernel's time on an H200). So each scale has two
// dispatches: the main one (TAIL false) lists the pixels the fast path
// cannot decide in a buffer (per workgroup in shared memory, then one
// global reservation), and the tail (TAIL true) emulates them. A workgroup
// whose list does not fit the buffer adds nothing; it queues its strip of
// tiles, and the tail filters that strip again, with the emulation inline,
// and adds it whole: every strip is counted by exactly one dispatch.
#version 450
#extension GL_GOOGLE_include_directive : require
// Unrolled filter loops keep the per-output sums in registers.
#extension GL_EXT_control_flow_attributes : require

layout (constant_id = 0) const uint PACKING = 0u; // LUMA_*, scale 0
layout (constant_id = 1) const uint SHIFT = 0u;   // right shift of 16-bit containers
layout (constant_id = 2) const int SCALE = 0;
layout (constant_id = 3) const int TILE_W = 32;   // even
layout (constant_id = 4) const int TILE_H = 8;    // even
layout (constant_id = 5) const int NTHREADS = 256;
// Test seam: every pixel through the exact double emulation.
layout (constant_id = 6) const bool EXACT_ONLY = false;
// Scale 0's bit depth (coarser scales hold 16-bit values whatever it was):
// constant shifts, and no split sums at 8 bits.
layout (constant_id = 7) const uint BPC = 8u;
// Outputs one invocation filters, down a column (vertical pass) and along a
// row (horizontal): each input's terms are formed once and feed up to
// that many outputs, held in registers. They divide TILE_H and TILE_W.
layout (constant_id = 8) const int KV = 1;
layout (constant_id = 9) const int KH = 1;
// The tail dispatch of the scale (see above).
layout (constant_id = 10) const bool TAIL = false;
// Tiles in a workgroup's strip: the window of input slides (down the
// scale or along a row), so that each input sample is loaded once, not
// with every tile's halo.
layout (constant_id = 11) const int STRIP = 1;
// Symmetric taps added before their multiply (vertical_sym).
layout (constant_id = 12) const bool SYM = false;
// Moments summed as (high part, wrapped full term) rather than (high part,
// low part): bit 0 in the vertical pass, bit 1 in the horizontal.
layout (constant_id = 13) const uint WRAP = 0u;
// The strip's direction (see above): along a row rather than down.
layout (constant_id = 14) const bool ALONG_ROWS = false;
// Workgroups of the tail dispatch.
const uint TAIL_GROUPS = 32u;

const int R = 8 >> SCALE;       // filter radius of this scale
const int RD = 4 >> SCALE;      // radius of the next scale's filter
const int TW = TILE_W + 2 * R;  // tile width with halo
const int TH = TILE_H + 2 * R;
// Columns of input rows held: the tile's with their halo, or along a row
// a tile's new columns (or the first tile's left halo).
const int IN_W = ALONG_ROWS ? (TILE_W > 2 * R ? TILE_W : 2 * R) : TW;

#include "motion_luma_fetch.glsl"

layout (local_size_x_id = 5) in;

// The host binds each dispatch only the parts of its scratch buffer that
// it touches (vkvifkernel.cpp), so that dispatches running at once never
// bind the same bytes where one writes.
// Scale 0: the two luma planes. Coarser scales: binding 0 holds both
// pictures, one word per sample (reference low 16 bits, distorted high).
layout (std430, binding = 0) readonly buffer RefBuf { uint ref_words[]; };
layout (std430, binding = 1) readonly buffer DistBuf { uint dist_words[]; };
// The next scale's pictures (scales 0..2), packed as above.
layout (std430, binding = 2) writeonly buffer NextBuf { uint next_words[]; };
// The gain's tables (vmaf_vif_gain.glsl).
layout (std430, binding = 3) readonly buffer Log2Buf { uint log2_words[]; };
// This scale's sums in the frame's result slot: num_log, den_log,
// num_non_log, den_non_log as (low, high) 32-bit pairs.
layout (std430, binding = 4) buffer Result { uint result[]; };
// This scale's pixels for the exact emulation: word 0 counts the entries
// listed (past the capacity: reserved but not written), word 1 the strips
// queued; then the list (3 words an entry: sigma1_sq, sigma2_sq, sigma12;
// an entry of zeros is empty) and the queue.
layout (std430, binding = 5) buffer Exact { uint exact[]; };
const uint LIST_AT = 2u;

layout (push_constant) uniform Params {
  uint ref_offset;   // scale 0 only: bytes (multiple of 4)
  uint dist_offset;  // scale 0 only
  uint ref_stride;   // scale 0: bytes (multiple of 4); else words
  uint dist_stride;  // scale 0 only
  uint width;        // of this scale
  uint height;
  uint limit_lo;     // gain limit, IEEE double bits
  uint limit_hi;
  uint limit_int;    // the limit when it is an integer, else 0
  float limit_f;     // the limit as a float
  uint limit_sq_int; // limit * limit as a double: integer part,
  uint limit_sq_lo;  // fraction * 2^64
  uint limit_sq_hi;
  uint list_cap;     // entries
  uint queue_offset; // words, in Exact (one per strip of the scale)
  uint tiles_x;      // strips per row of the scale
} pc;

#include "vmaf_vif_gain.glsl"

LUMA_FETCH_FUNCTIONS (ref, ref_words)
LUMA_FETCH_FUNCTIONS (dist, dist_words)
LUMA_FETCH4_FUNCTIONS (ref, ref_words)
LUMA_FETCH4_FUNCTIONS (dist, dist_words)

const uint F0[17] = uint[] (489u, 935u, 1640u, 2640u, 3896u, 5274u, 6547u, 7455u, 7784u,
    7455u, 6547u, 5274u, 3896u, 2640u, 1640u, 935u, 489u);
const uint F1[9] = uint[] (1244u, 3663u, 7925u, 12590u, 14692u, 12590u, 7925u, 3663u, 1244u);
const uint F2[5] = uint[] (3571u, 16004u, 26386u, 16004u, 3571u);
const uint F3[3] = uint[] (10904u, 43728u, 10904u);

uint coef (int s, int k)
{
  if (s == 0) return F0[k];
  if (s == 1) return F1[k];
  if (s == 2) return F2[k];
  return F3[k];
}

shared uint tile[TH][IN_W];     // reference | distorted << 16
// Vertical results: means (packed as the tile), xx, yy, xy; one 16-byte
// load per tap in the horizontal pass.
shared uvec4 vres[TILE_H][TW];
// Along a row: the decimation's vertical results (means of the even rows,
// packed as the tile), kept across tiles as vres is. Down the scale they
// replace vres[].x once the tile's pixels are done.
const int DEC_H = ALONG_ROWS ? TILE_H / 2 : 1;
shared uint dres[DEC_H][ALONG_ROWS ? TW : 1];
shared uint tile_sums[8];
// (sigma1_sq, sigma2_sq, sigma12) of the pixels left to the exact emulation;
// a strip with more is queued whole (kGroupList in vkvifkernel.cpp).
const uint WG_LIST = 64u;
shared uint exact_list[3 * WG_LIST];
shared uint exact_n;

// Reflect-101, clamped first so that the halo of tiles past the picture's
// end stays inside it (their outputs are discarded).
int mirror (int idx, int n)
{
  idx = clamp (idx, -R, n - 1 + R);
  return idx < 0 ? -idx : (idx >= n ? 2 * n - idx - 2 : idx);
}

// (sum c_k p_k + 2^(s-1)) >> s from the split sums of the terms p_k.
uint split_round (uint a, uint b, uint s)
{
  return s == 0u ? a : a + ((b + (1u << (s - 1u))) >> s);
}

// The same from A = sum c_k (p_k >> s) and the wrapped full sum
// L = sum c_k p_k mod 2^32: B = sum c_k (p_k mod 2^s) is L - 2^s A mod 2^32,
// as B < 2^32 (c_k sum to 2^16, s <= 16). One IMAD per term, as for the low
// parts, without masking each term.
uint wrap_round (uint a, uint l, uint s)
{
  return s == 0u ? a : split_round (a, l - (a << s), s);
}

void pixel (uint mu1, uint mu2, uint xx, uint yy, uint xy, VifLimit lim, inout uvec2 acc[4])
{
  uint hi, lo;
  umulExtended (mu1, mu1, hi, lo);
  const uint mu1_sq = hi + (lo >> 31);
  umulExtended (mu2, mu2, hi, lo);
  const uint mu2_sq = hi + (lo >> 31);
  umulExtended (mu1, mu2, hi, lo);
  const uint mu1_mu2 = hi + (lo >> 31);
  // Differences wrap in 32 bits and are read as signed, as libvmaf does.
  const int sigma1_sq = int (xx - mu1_sq);
  const int sigma2_sq = max (int (yy - mu2_sq), 0);
  const int sigma12 = int (xy - mu1_mu2);
  if (sigma1_sq < 131072) {
    add64 (acc[2], uint (sigma2_sq));
    add64 (acc[3], 1u);
    return;
  }
  add64 (acc[1], log2_fixed (uint (sigma1_sq) + 131072u, 0u) - 2048u * 17u);
  if (sigma12 > 0 && sigma2_sq > 0) {
    uint term;
    if (!EXACT_ONLY && num_log_fast (uint (sigma1_sq), uint (sigma2_sq), uint (sigma12), lim, term)) {
      add64 (acc[0], term);
    } else if (TAIL) {
      add64 (acc[0], num_log_exact (uint (sigma1_sq), uint (sigma2_sq), uint (sigma12), lim));
    } else {
      const uint e = atomicAdd (exact_n, 1u);
      if (e < WG_LIST) {
        exact_list[3u * e] = uint (sigma1_sq);
        exact_list[3u * e + 1u] = uint (sigma2_sq);
        exact_list[3u * e + 2u] = uint (sigma12);
      }
    }
  }
}

// The input at row ty and column col of the tile at (x0, y0) with its halo
// (row and column 0 are y0 - R and x0 - R), both pictures in one word.
uint fetch_input (int x0, int y0, int ty, int col, int w, int h)
{
  const uint gy = uint (mirror (y0 + ty - R, h));
  const uint gx = uint (mirror (x0 + col - R, w));
  if (SCALE == 0)
    return uint (ref_fetch (pc.ref_offset + gy * pc.ref_stride, gx)) |
        (uint (dist_fetch (pc.dist_offset + gy * pc.dist_stride, gx)) << 16);
  return ref_words[gy * pc.ref_stride + gx];
}

// Rows `first` .. TH - 1 and columns col0 .. col0 + cols - 1 of the tile
// at (x0, y0) with its halo into tile[][0 .. cols - 1].
void load_input (int x0, int y0, int first, int col0, int cols, int w, int h)
{
  const int t = int (gl_LocalInvocationIndex);
  for (int i = t; i < (TH - first) * cols; i += NTHREADS) {
    const int ty = first + i / cols, tx = i % cols;
    tile[ty][tx] = fetch_input (x0, y0, ty, col0 + tx, w, h);
  }
}

// Along a row at scale 0, a tile's new columns (load_input (x0, y0, 0, 2R,
// TILE_W, ...)) are fetched into registers before the horizontal filter of
// the tile before and stored after it (the vertical filter has read the
// tile by then), the first tile's while its left halo is loaded and
// filtered: the loads' latency hides behind that work. On an H200, scale 0
// of a 2160p 10-bit frame took 333.7-334.0 us against 348.7-348.8 with the
// loads after each slide, and 338.1-338.7 with the next tile's fetched
// behind the vertical filter instead. Scale 1 has a quarter of the
// samples; fetching ahead there made it 0.7-1 us slower, so it loads after
// each slide.
const bool PREFETCH_ALONG = SCALE == 0;
const int PREFETCH = (TH * TILE_W + NTHREADS - 1) / NTHREADS;

// name (x0, y0, w, h, pre): the block of the tile at (x0, y0) (as
// fetch_input counts rows and columns) that starts at row ROW0 and column
// COL0, COLS wide and ROWS high, into registers: sample i of the block
// (row-major) in pre[k] of invocation i - k NTHREADS. COUNT is the
// registers an invocation needs, a constant so that the loop unrolls.
#define FETCH_AHEAD(name, COUNT, ROW0, COL0, COLS, ROWS)                        \
  void name (int x0, int y0, int w, int h, out uint pre[COUNT])                \
  {                                                                            \
    const int t = int (gl_LocalInvocationIndex);                               \
    [[unroll]] for (int k = 0; k < COUNT; k++) {                               \
      const int i = t + k * NTHREADS;                                          \
      pre[k] = i < (ROWS) * (COLS)                                             \
          ? fetch_input (x0, y0, ROW0 + i / (COLS), COL0 + i % (COLS), w, h) : 0u; \
    }                                                                          \
  }

// Most tiles need no reflected sample: their new columns are then fetched
// four at a time from whole words (luma fetch4), with no reflection per
// sample, into four registers per group of four (GROUPS4 groups a tile);
// the others sample by sample. The registers of a tile hold one layout or
// the other (`inside`). On an H200, scale 0 of a 2160p 10-bit frame took
// 313 us against 335 with every sample fetched and reflected alone.
const bool FETCH_GROUPS = SCALE == 0 && TILE_W % 4 == 0;
const int GROUPS4 = TH * (TILE_W / 4);
const int PREFETCH4 = (GROUPS4 + NTHREADS - 1) / NTHREADS;
const int PRE_REGS = PREFETCH > 4 * PREFETCH4 ? PREFETCH : 4 * PREFETCH4;

// Whether the new columns of the tile at (x0, y0), with its rows' halo,
// lie inside the picture (R is a multiple of 4 at scale 0).
bool inside (int x0, int y0, int w, int h)
{
  return FETCH_GROUPS && y0 >= R && y0 + TILE_H + R <= h && x0 + R + TILE_W <= w;
}

FETCH_AHEAD (prefetch_samples, PRE_REGS, 0, 2 * R, TILE_W, TH)

void prefetch_input (int x0, int y0, int w, int h, bool inner, out uint pre[PRE_REGS])
{
  if (!inner) {
    prefetch_samples (x0, y0, w, h, pre);
    return;
  }
  const int t = int (gl_LocalInvocationIndex);
  [[unroll]] for (int k = 0; k < PREFETCH4; k++) {
    const int g = t + k * NTHREADS;
    ivec4 r = ivec4 (0), d = ivec4 (0);
    if (g < GROUPS4) {
      const uint gy = uint (y0 + g / (TILE_W / 4) - R);
      const uint gx = uint (x0 + R + (g % (TILE_W / 4)) * 4);
      r = ref_fetch4 (pc.ref_offset + gy * pc.ref_stride, gx);
      d = dist_fetch4 (pc.dist_offset + gy * pc.dist_stride, gx);
    }
    [[unroll]] for (int j = 0; j < 4; j++)
      pre[4 * k + j] = uint (r[j]) | (uint (d[j]) << 16);
  }
}

void store_prefetched (bool inner, uint pre[PRE_REGS])
{
  const int t = int (gl_LocalInvocationIndex);
  if (inner) {
    [[unroll]] for (int k = 0; k < PREFETCH4; k++) {
      const int g = t + k * NTHREADS;
      if (g < GROUPS4) {
        const int ty = g / (TILE_W / 4), tx = (g % (TILE_W / 4)) * 4;
        [[unroll]] for (int j = 0; j < 4; j++)
          tile[ty][tx + j] = pre[4 * k + j];
      }
    }
    return;
  }
  [[unroll]] for (int k = 0; k < PRE_REGS; k++) {
    const int i = t + k * NTHREADS;
    if (i < TH * TILE_W)
      tile[i / TILE_W][i % TILE_W] = pre[k];
  }
}

// Down a column, where the rows kept (2R) are no more than the new ones
// (by default scales 2 and 3 go down, with 4 and 2 kept of 8), the next
// tile's new rows are fetched into registers before the horizontal filter
// and stored once the tile has been read, the kept rows moved by the same
// invocations (slide_down_prefetched). On an H200 VIF scales 2 and 3 of a
// 2160p 10-bit frame took 23.9-24.0 and 15.5-15.7 us against 24.2 and
// 17.0-17.1, the frame 0.586 against 0.588-0.589 ms.
const bool PREFETCH_DOWN = TILE_H >= 2 * R;
const int PREFETCH_D = (TILE_H * TW + NTHREADS - 1) / NTHREADS;

FETCH_AHEAD (prefetch_rows, PREFETCH_D, TH - TILE_H, 0, TW, TILE_H)

// The window moved down: rows TILE_H .. TH - 1 move up by TILE_H and the
// fetched rows take their place. Each invocation moves the samples it
// overwrites, so nothing is overwritten before it is read.
void slide_down_prefetched (uint pre[PREFETCH_D])
{
  const int t = int (gl_LocalInvocationIndex);
  [[unroll]] for (int k = 0; k < PREFETCH_D; k++) {
    const int i = t + k * NTHREADS;
    if (i < TILE_H * TW) {
      const int r = TH - TILE_H + i / TW, col = i % TW;
      const uint old = tile[r][col];
      tile[r][col] = pre[k];
      if (r >= TILE_H)
        tile[r - TILE_H][col] = old;
    }
  }
}

// The window moved down TILE_H rows, to the tile at (x0, y0): the rows the
// tiles share move up (in steps no longer than the move, so that no row is
// overwritten before it is read), then the new rows are loaded.
void slide_down (int x0, int y0, int w, int h)
{
  const int t = int (gl_LocalInvocationIndex);
  const int KEEP = TH - TILE_H;
  for (int p = 0; p < KEEP; p += TILE_H) {
    const int n = min (TILE_H, KEEP - p) * TW;
    for (int i = t; i < n; i += NTHREADS)
      tile[p + i / TW][i % TW] = tile[p + TILE_H + i / TW][i % TW];
    barrier ();
  }
  load_input (x0, y0, KEEP, 0, TW, w, h);
}

// The window moved right TILE_W columns: the vertical results of the 2R
// columns the tiles share move left (in steps no longer than the move, as
// in slide_down), with the decimation's.
void slide_along ()
{
  const int t = int (gl_LocalInvocationIndex);
  const int KEEP = 2 * R;
  for (int p = 0; p < KEEP; p += TILE_W) {
    const int n = min (TILE_W, KEEP - p);
    for (int i = t; i < TILE_H * n; i += NTHREADS)
      vres[i / n][p + i % n] = vres[i / n][p + TILE_W + i % n];
    if (SCALE < 3) {
      for (int i = t; i < DEC_H * n; i += NTHREADS)
        dres[i / n][p + i % n] = dres[i / n][p + TILE_W + i % n];
    }
    if (p + TILE_W < KEEP)
      barrier ();
  }
}

// Scale 0 brings means from bpc to 16 bits and moments from 2 bpc to 32
// (8-bit moments fit as they are); coarser scales drop 16 bits from both.
const uint MEAN_SHIFT = SCALE == 0 ? BPC : 16u;
const uint MOM_SHIFT = SCALE == 0 ? 2u * (BPC - 8u) : 16u;

// A vertical input's terms: m1, m2, then per moment xx, yy, xy its high
// part and, with WRAP bit 0, the term itself (for wrap_round's wrapped full
// sum), else its low part.
void vterms (uint v, out uint t[8])
{
  const uint x = v & 0xffffu, y = v >> 16;
  const uint xx = x * x, yy = y * y, xy = x * y;
  const uint m = (WRAP & 1u) != 0u ? ~0u : (1u << MOM_SHIFT) - 1u;
  t = uint[8] (x, y, xx >> MOM_SHIFT, xx & m, yy >> MOM_SHIFT, yy & m, xy >> MOM_SHIFT, xy & m);
}

// The same for a horizontal input (a vertical result).
void hterms (uvec4 v, out uint t[8])
{
  const uint m = (WRAP & 2u) != 0u ? ~0u : 0xffffu;
  t = uint[8] (v.x & 0xffffu, v.x >> 16, v.y >> 16, v.y & m, v.z >> 16, v.z & m, v.w >> 16,
      v.w & m);
}

// A moment from its two sums (vterms, hterms).
uint moment (uint a, uint b, uint s, uint wrap_bit)
{
  return (WRAP & wrap_bit) != 0u ? wrap_round (a, b, s) : split_round (a, b, s);
}

// Two vertical sums of means (reference, distorted) rounded to 16 bits and
// packed as the tile: the vertical filter's and the decimation's.
uint mean_pair (uint a1, uint a2)
{
  const uint mr = 1u << (MEAN_SHIFT - 1u);
  return ((a1 + mr) >> MEAN_SHIFT) | (((a2 + mr) >> MEAN_SHIFT) << 16);
}

uvec4 vertical_result (uint s[8])
{
  return uvec4 (mean_pair (s[0], s[1]),
      moment (s[2], s[3], MOM_SHIFT, 1u), moment (s[4], s[5], MOM_SHIFT, 1u),
      moment (s[6], s[7], MOM_SHIFT, 1u));
}

// The filters are symmetric: with SYM and one output per invocation, the
// terms of inputs k and 2R - k are added before their one multiply (the
// sums stay exact: the pair's sum is no larger than the total).
void vertical_sym (int r0, int ci, int c)
{
  uint sums[8] = uint[8] (0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
  [[unroll]] for (int k = 0; k <= R; k++) {
    uint ta[8], tb[8];
    vterms (tile[r0 + k][ci], ta);
    if (k < R) {
      vterms (tile[r0 + 2 * R - k][ci], tb);
      [[unroll]] for (int q = 0; q < 8; q++)
        ta[q] += tb[q];
    }
    const uint f = coef (SCALE, k);
    [[unroll]] for (int q = 0; q < 8; q++)
      sums[q] += f * ta[q];
  }
  vres[r0][c] = vertical_result (sums);
}

// Two outputs down a column (KV = 2) in the symmetric form: from the
// centre out, step d adds the pairs (R - d, R + d) of the first output and
// (R + 1 - d, R + 1 + d) of the second, so that each input's terms are
// formed once and held for two steps only. With `dec` (along a row), the
// first output's row being even, the next scale's filter (radius RD) takes
// the first RD pairs of means too: the decimation's vertical result of that
// row, from sums already formed (dec_vertical's, without its loads).
void vertical_sym2 (int r0, int ci, int c, bool dec)
{
  uint s0[8], s1[8], pl[8], pr[8], nl[8], nr[8];
  vterms (tile[r0 + R][ci], pl);
  vterms (tile[r0 + R + 1][ci], pr);
  const uint fc = coef (SCALE, R);
  [[unroll]] for (int q = 0; q < 8; q++) {
    s0[q] = fc * pl[q];
    s1[q] = fc * pr[q];
  }
  const bool with_dec = ALONG_ROWS && SCALE < 3 && dec;
  const uint fd = SCALE < 3 ? coef (SCALE + 1, RD) : 0u;
  uint d1 = fd * pl[0], d2 = fd * pl[1];
  [[unroll]] for (int d = 1; d <= R; d++) {
    vterms (tile[r0 + R - d][ci], nl);
    vterms (tile[r0 + R + 1 + d][ci], nr);
    const uint f = coef (SCALE, R - d);
    uint p[8];
    [[unroll]] for (int q = 0; q < 8; q++) {
      p[q] = nl[q] + pr[q];
      s0[q] += f * p[q];
      s1[q] += f * (pl[q] + nr[q]);
    }
    if (with_dec && d <= RD) {
      const uint g = coef (SCALE + 1, RD - d);
      d1 += g * p[0];
      d2 += g * p[1];
    }
    pl = nl;
    pr = nr;
  }
  vres[r0][c] = vertical_result (s0);
  vres[r0 + 1][c] = vertical_result (s1);
  if (with_dec)
    dres[r0 / 2][c] = mean_pair (d1, d2);
}

// The next scale's filter down input column ci, at the tile's row 2 r:
// both means, packed as the tile.
uint dec_vertical (int r, int ci)
{
  uint a1 = 0u, a2 = 0u;
  [[unroll]] for (int k = 0; k <= 2 * RD; k++) {
    const uint f = coef (SCALE + 1, k);
    const uint v = tile[2 * r + R - RD + k][ci];
    a1 += f * (v & 0xffffu);
    a2 += f * (v >> 16);
  }
  return mean_pair (a1, a2);
}

// Vertical pass of the tile's `rows` first rows from the `cols` input
// columns held into vres columns col0 .., and with `dec` (along a row) the
// decimation's into dres.
void vertical_pass (int rows, int col0, int cols, bool dec)
{
  const int t = int (gl_LocalInvocationIndex);
  for (int i = t; i < (TILE_H / KV) * cols; i += NTHREADS) {
    const int ci = i % cols, c = col0 + ci, r0 = (i / cols) * KV;
    if (r0 >= rows)
      continue;
    if (SYM && KV == 1) {
      vertical_sym (r0, ci, c);
      continue;
    }
    if (SYM && KV == 2) {
      vertical_sym2 (r0, ci, c, dec);
      continue;
    }
    // Per output row, the sums of the terms (vterms).
    uint sums[8][KV];
    [[unroll]] for (int q = 0; q < 8; q++)
      [[unroll]] for (int o = 0; o < KV; o++)
        sums[q][o] = 0u;
    [[unroll]] for (int j = 0; j < KV + 2 * R; j++) {
      uint term[8];
      vterms (tile[r0 + j][ci], term);
      [[unroll]] for (int o = 0; o < KV; o++) {
        const int k = j - o;
        if (k < 0 || k > 2 * R)
          continue;
        const uint f = coef (SCALE, k);
        [[unroll]] for (int q = 0; q < 8; q++)
          sums[q][o] += f * term[q];
      }
    }
    [[unroll]] for (int o = 0; o < KV; o++) {
      uint s8[8];
      [[unroll]] for (int q = 0; q < 8; q++)
        s8[q] = sums[q][o];
      vres[r0 + o][c] = vertical_result (s8);
    }
  }
  // The decimation's, unless vertical_sym2 has formed them.
  if (ALONG_ROWS && SCALE < 3 && dec && !(SYM && KV == 2)) {
    for (int i = t; i < DEC_H * cols; i += NTHREADS) {
      const int ci = i % cols, r = i / cols;
      if (2 * r < rows)
        dres[r][col0 + ci] = dec_vertical (r, ci);
    }
  }
}

// The horizontal sums of the output at (r, c) (hterms), pairing
// symmetric taps as vertical_sym does.
void horizontal_sym (int r, int c, out uint sums[8])
{
  sums = uint[8] (0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
  [[unroll]] for (int k = 0; k <= R; k++) {
    uint ta[8], tb[8];
    hterms (vres[r][c + k], ta);
    if (k < R) {
      hterms (vres[r][c + 2 * R - k], tb);
      [[unroll]] for (int q = 0; q < 8; q++)
        ta[q] += tb[q];
    }
    const uint f = coef (SCALE, k);
    [[unroll]] for (int q = 0; q < 8; q++)
      sums[q] += f * ta[q];
  }
}

// Two outputs along a row (KH = 2), as vertical_sym2.
void horizontal_sym2 (int r, int c, out uint s0[8], out uint s1[8])
{
  uint pl[8], pr[8], nl[8], nr[8];
  hterms (vres[r][c + R], pl);
  hterms (vres[r][c + R + 1], pr);
  const uint fc = coef (SCALE, R);
  [[unroll]] for (int q = 0; q < 8; q++) {
    s0[q] = fc * pl[q];
    s1[q] = fc * pr[q];
  }
  [[unroll]] for (int d = 1; d <= R; d++) {
    hterms (vres[r][c + R - d], nl);
    hterms (vres[r][c + R + 1 + d], nr);
    const uint f = coef (SCALE, R - d);
    [[unroll]] for (int q = 0; q < 8; q++) {
      s0[q] += f * (nl[q] + pr[q]);
      s1[q] += f * (pl[q] + nr[q]);
    }
    pl = nl;
    pr = nr;
  }
}

// Horizontal pass and the per-pixel statistics of the tile's rows x cols.
void horizontal_pass (int rows, int cols, VifLimit lim, inout uvec2 acc[4])
{
  const int t = int (gl_LocalInvocationIndex);
  for (int i = t; i < rows * (TILE_W / KH); i += NTHREADS) {
    const int r = i / (TILE_W / KH), c0 = (i % (TILE_W / KH)) * KH;
    if (c0 >= cols)
      continue;
    uint sums[8][KH];
    if (SYM && KH == 1) {
      uint s8[8];
      horizontal_sym (r, c0, s8);
      [[unroll]] for (int q = 0; q < 8; q++)
        sums[q][0] = s8[q];
    } else if (SYM && KH == 2) {
      uint s0[8], s1[8];
      horizontal_sym2 (r, c0, s0, s1);
      [[unroll]] for (int q = 0; q < 8; q++) {
        sums[q][0] = s0[q];
        sums[q][KH - 1] = s1[q];
      }
    } else {
      [[unroll]] for (int q = 0; q < 8; q++)
        [[unroll]] for (int o = 0; o < KH; o++)
          sums[q][o] = 0u;
      [[unroll]] for (int j = 0; j < KH + 2 * R; j++) {
        uint term[8];
        hterms (vres[r][c0 + j], term);
        [[unroll]] for (int o = 0; o < KH; o++) {
          const int k = j - o;
          if (k < 0 || k > 2 * R)
            continue;
          const uint f = coef (SCALE, k);
          [[unroll]] for (int q = 0; q < 8; q++)
            sums[q][o] += f * term[q];
        }
      }
    }
    [[unroll]] for (int o = 0; o < KH; o++) {
      if (c0 + o < cols)
        pixel (sums[0][o], sums[1][o], moment (sums[2][o], sums[3][o], 16u, 2u),
            moment (sums[4][o], sums[5][o], 16u, 2u), moment (sums[6][o], sums[7][o], 16u, 2u),
            lim, acc);
    }
  }
}

// The next scale's pictures from the tile at (x0, y0): its even rows and
// columns, low-passed with the next filter, horizontally from the vertical
// results (dres along a row, else vres[].x).
void decimate_rows (int x0, int y0, int w, int h)
{
  const int t = int (gl_LocalInvocationIndex);
  const int dec_rows = TILE_H / 2;
  const int nw = w / 2, nh = h / 2;
  const int dec_cols = TILE_W / 2;
  for (int i = t; i < dec_rows * dec_cols; i += NTHREADS) {
    const int r = i / dec_cols, c = i % dec_cols;
    const int oy = y0 / 2 + r, ox = x0 / 2 + c;
    if (oy >= nh || ox >= nw)
      continue;
    uint a1 = 0u, a2 = 0u;
    [[unroll]] for (int k = 0; k <= 2 * RD; k++) {
      const uint f = coef (SCALE + 1, k);
      const int col = 2 * c + R - RD + k;
      const uint v = ALONG_ROWS ? dres[r][col] : vres[r][col].x;
      a1 += f * (v & 0xffffu);
      a2 += f * (v >> 16);
    }
    next_words[uint (oy * nw + ox)] =
        ((a1 + 32768u) >> 16) | (((a2 + 32768u) >> 16) << 16);
  }
}

// Down the scale, the decimation's vertical results replace vres[].x once
// the tile's pixels are done.
void decimate_vertical (int rows)
{
  const int t = int (gl_LocalInvocationIndex);
  for (int i = t; i < (TILE_H / 2) * TW; i += NTHREADS) {
    const int r = i / TW, c = i % TW;
    if (2 * r < rows)
      vres[r][c].x = dec_vertical (r, c);
  }
}

// The invocations' sums, then the frame's: 64-bit from 32-bit atomics, the
// one that wraps a low word carries into the high word. Every invocation
// calls it (barriers inside).
void add_sums (uvec2 acc[4])
{
  const uint t = gl_LocalInvocationIndex;
  barrier ();
  if (t < 8u)
    tile_sums[t] = 0u;
  barrier ();
  [[unroll]] for (int k = 0; k < 4; k++) {
    if (acc[k] == uvec2 (0u))
      continue;
    const uint old = atomicAdd (tile_sums[2 * k], acc[k].x);
    const uint hi = acc[k].y + (old + acc[k].x < old ? 1u : 0u);
    if (hi != 0u)
      atomicAdd (tile_sums[2 * k + 1], hi);
  }
  barrier ();
  if (t < 4u) {
    const uvec2 s = uvec2 (tile_sums[2 * t], tile_sums[2 * t + 1]);
    const uint base = 2u * t;
    if (s != uvec2 (0u)) {
      const uint old = atomicAdd (result[base], s.x);
      const uint hi = s.y + (old + s.x < old ? 1u : 0u);
      if (hi != 0u)
        atomicAdd (result[base + 1u], hi);
    }
  }
}

VifLimit push_limit ()
{
  return vif_limit (pc.limit_lo, pc.limit_hi, pc.limit_int, pc.limit_f, pc.limit_sq_int,
      pc.limit_sq_lo, pc.limit_sq_hi);
}

shared uint list_base;
shared bool list_fits;

// The strip of STRIP tiles down from (x0, ys): every pixel's terms into
// acc, and with `dec` the next scale's pictures. Every invocation calls it.
void filter_down (int x0, int ys, int w, int h, VifLimit lim, const bool dec,
    inout uvec2 acc[4])
{
  const int cols = min (TILE_W, w - x0);
  for (int c = 0; c < STRIP; c++) {
    const int y0 = ys + c * TILE_H;
    if (y0 >= h)
      break;
    const int rows = min (TILE_H, h - y0);
    if (c == 0)
      load_input (x0, y0, 0, 0, TW, w, h);
    else if (TILE_H < 2 * R) // !PREFETCH_DOWN, which glslang 12 emits before its operand
      slide_down (x0, y0, w, h);
    barrier ();
    vertical_pass (rows, 0, TW, false);
    barrier ();
    const bool next = PREFETCH_DOWN && c + 1 < STRIP && y0 + TILE_H < h;
    uint pre[PREFETCH_D];
    if (next)
      prefetch_rows (x0, y0 + TILE_H, w, h, pre);
    horizontal_pass (rows, cols, lim, acc);
    if (dec && SCALE < 3) {
      barrier ();
      decimate_vertical (rows);
      barrier ();
      if (next)
        slide_down_prefetched (pre);
      decimate_rows (x0, y0, w, h);
    } else if (next) {
      slide_down_prefetched (pre);
    }
    barrier ();
  }
}

// The same for the strip of STRIP tiles along a row from (xs, y0).
void filter_along (int xs, int y0, int w, int h, VifLimit lim, const bool dec,
    inout uvec2 acc[4])
{
  const int rows = min (TILE_H, h - y0);
  const bool d = dec && SCALE < 3;
  for (int c = 0; c < STRIP; c++) {
    const int x0 = xs + c * TILE_W;
    if (x0 >= w)
      break;
    if (c == 0) {
      uint first[PRE_REGS];
      const bool inner = inside (x0, y0, w, h);
      if (PREFETCH_ALONG)
        prefetch_input (x0, y0, w, h, inner, first);
      load_input (x0, y0, 0, 0, 2 * R, w, h);
      barrier ();
      vertical_pass (rows, 0, 2 * R, d);
      barrier ();
      if (PREFETCH_ALONG)
        store_prefetched (inner, first);
    } else {
      slide_along ();
    }
    if (!PREFETCH_ALONG)
      load_input (x0, y0, 0, 2 * R, TILE_W, w, h);
    barrier ();
    vertical_pass (rows, 2 * R, TILE_W, d);
    barrier ();
    const bool next = PREFETCH_ALONG && c + 1 < STRIP && x0 + TILE_W < w;
    const bool inner = inside (x0 + TILE_W, y0, w, h);
    uint pre[PRE_REGS];
    if (next)
      prefetch_input (x0 + TILE_W, y0, w, h, inner, pre);
    horizontal_pass (rows, min (TILE_W, w - x0), lim, acc);
    if (next)
      store_prefetched (inner, pre);
    if (d)
      decimate_rows (x0, y0, w, h);
    barrier ();
  }
}

// Strip (gx, gy) of the scale, from its first tile.
void filter_strip (uint gx, uint gy, int w, int h, VifLimit lim, const bool dec,
    inout uvec2 acc[4])
{
  if (ALONG_ROWS)
    filter_along (int (gx) * TILE_W * STRIP, int (gy) * TILE_H, w, h, lim, dec, acc);
  else
    filter_down (int (gx) * TILE_W, int (gy) * TILE_H * STRIP, w, h, lim, dec, acc);
}

void main_pass ()
{
  const int t = int (gl_LocalInvocationIndex);
  const int w = int (pc.width), h = int (pc.height);

  if (t == 0)
    exact_n = 0u;
  uvec2 acc[4] = uvec2[4] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u));
  filter_strip (gl_WorkGroupID.x, gl_WorkGroupID.y, w, h, push_limit (), true, acc);

  // The listed pixels into the scale's list, or the strip into its queue.
  const uint n = exact_n;
  if (t == 0) {
    // A base at the capacity writes nothing.
    uint base = pc.list_cap;
    bool fits = n <= WG_LIST;
    if (fits && n != 0u) {
      base = atomicAdd (exact[0], n);
      fits = base <= pc.list_cap && n <= pc.list_cap - base;
    }
    list_base = base;
    list_fits = fits;
    if (!fits)
      exact[pc.queue_offset + atomicAdd (exact[1], 1u)] =
          gl_WorkGroupID.y * pc.tiles_x + gl_WorkGroupID.x;
  }
  barrier ();
  const uint base = list_base;
  const bool fits = list_fits;
  for (uint e = uint (t); e < n && base + e < pc.list_cap; e += uint (NTHREADS)) {
    const uint o = LIST_AT + 3u * (base + e);
    exact[o] = fits ? exact_list[3u * e] : 0u;
    exact[o + 1u] = fits ? exact_list[3u * e + 1u] : 0u;
    exact[o + 2u] = fits ? exact_list[3u * e + 2u] : 0u;
  }
  if (!fits)
    acc = uvec2[4] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u));
  add_sums (acc);
}

void tail_pass ()
{
  const uint t = gl_LocalInvocationIndex, g = gl_WorkGroupID.x;
  const VifLimit lim = push_limit ();
  const int w = int (pc.width), h = int (pc.height);

  // The listed pixels.
  uvec2 acc[4] = uvec2[4] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u));
  const uint n = min (exact[0], pc.list_cap);
  for (uint e = g * uint (NTHREADS) + t; e < n; e += TAIL_GROUPS * uint (NTHREADS)) {
    const uint o = LIST_AT + 3u * e;
    if (exact[o + 2u] != 0u)
      add64 (acc[0], num_log_exact (exact[o], exact[o + 1u], exact[o + 2u], lim));
  }
  add_sums (acc);

  // The queued strips, whole.
  const uint queued = exact[1];
  for (uint q = g; q < queued; q += TAIL_GROUPS) {
    const uint id = exact[pc.queue_offset + q];
    acc = uvec2[4] (uvec2 (0u), uvec2 (0u), uvec2 (0u), uvec2 (0u));
    filter_strip (id % pc.tiles_x, id / pc.tiles_x, w, h, lim, false, acc);
    add_sums (acc);
  }
}

void main ()
{
  if (TAIL)
    tail_pass ();
  else
    main_pass ();
}
