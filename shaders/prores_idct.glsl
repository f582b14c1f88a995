/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes dequantisation, FFmpeg-exact integer IDCT (rows, bias, columns,
 * clip) and plane stores of one slice by one workgroup, shared by the fused
 * decoder (prores_decode.comp) and the split path's second pass
 * (prores_idct.comp). A transliteration of gst/prores/prores-idct.h.
 *
 * The includer declares, before including: the spec constants DEPTH12,
 * IDCT_X86, WG and C444, prores_slice.glsl (or BITS and sext16), the
 * buffers out_y[], out_u[], out_v[] and the push constants `pc` (rows,
 * plane_off / plane_stride / plane_words). This file declares the slice's
 * coefficient store s_coef (int16 pairs in natural order: Y in blocks
 * 0..31, then Cb and Cr with CHROMA_BLOCKS blocks each) and the scaled
 * matrices s_qmat.
 */

/* 4:4:4 (else 4:2:2) sizes the store (12 or 8 KiB), so that more 4:2:2
 * workgroups fit an SM's shared memory. */
const uint CHROMA_BLOCKS = C444 != 0u ? 32u : 16u;
const uint COEF_BLOCKS = 32u + 2u * CHROMA_BLOCKS;
shared uint s_coef[COEF_BLOCKS * 32u];
shared int s_qmat[2][64];

/* The matrices scaled by the slice's qscale (a barrier must follow). */
void load_qmat (uint tid, uint qscale)
{
  for (uint i = tid; i < 128u; i += WG) {
    uint q = i >> 6, j = i & 63u;
    uint m = q != 0u ? FP_QMAT_CHROMA : FP_QMAT_LUMA;
    uint byte = (in_words[m + (j >> 2)] >> (8u * (j & 3u))) & 0xffu;
    s_qmat[q][j] = sext16 (int (byte * qscale));
  }
}

const int W1 = DEPTH12 != 0u ? 45451 : 22725;
const int W2 = DEPTH12 != 0u ? 42813 : 21407;
const int W3 = DEPTH12 != 0u ? 38531 : 19265;
const int W4 = DEPTH12 != 0u ? 32767 : 16384;
const int W5 = DEPTH12 != 0u ? 25746 : 12873;
const int W6 = DEPTH12 != 0u ? 17734 : 8867;
const int W7 = DEPTH12 != 0u ? 9041 : 4520;
const int ROW_SHIFT = DEPTH12 != 0u ? 16 : 15;
const int COL_SHIFT = DEPTH12 != 0u ? 17 : 18;
const int COL_ROUND = DEPTH12 != 0u ? 2 : 8;
const bool X86 = IDCT_X86 != 0u && DEPTH12 == 0u;

int store16 (int v)
{
  return X86 ? clamp (v, -32768, 32767) : sext16 (v);
}

/* The butterflies of idct_row / idct_col; e is W4 * x0 plus the rounding.
 * int arithmetic wraps modulo 2^32 in SPIR-V, as FFmpeg's unsigned sums. */
void butterflies (int e, int x1, int x2, int x3, int x4, int x5, int x6, int x7, int s,
    out int y[8])
{
  int a0 = e + W2 * x2 + W4 * x4 + W6 * x6;
  int a1 = e + W6 * x2 - W4 * x4 - W2 * x6;
  int a2 = e - W6 * x2 - W4 * x4 + W2 * x6;
  int a3 = e - W2 * x2 + W4 * x4 - W6 * x6;
  int b0 = W1 * x1 + W3 * x3 + W5 * x5 + W7 * x7;
  int b1 = W3 * x1 - W7 * x3 - W1 * x5 - W5 * x7;
  int b2 = W5 * x1 - W1 * x3 + W7 * x5 + W3 * x7;
  int b3 = W7 * x1 - W5 * x3 + W3 * x5 - W1 * x7;
  y[0] = store16 ((a0 + b0) >> s);
  y[1] = store16 ((a1 + b1) >> s);
  y[2] = store16 ((a2 + b2) >> s);
  y[3] = store16 ((a3 + b3) >> s);
  y[4] = store16 ((a3 - b3) >> s);
  y[5] = store16 ((a2 - b2) >> s);
  y[6] = store16 ((a1 - b1) >> s);
  y[7] = store16 ((a0 - b0) >> s);
}

/* Which component a block of the slice belongs to, and its place. */
struct BlockRef {
  uint comp;   /* 0 Y, 1 Cb, 2 Cr */
  uint block;  /* index of the block in its component */
  uint index;  /* first coefficient in s_coef */
  uint x, y;   /* sample position of the block's top left in the slice's field rows */
};

BlockRef block_ref (uint b, uint luma_log2, uint chroma_log2, uint mb_x, bool c444)
{
  BlockRef r;
  uint nl = 1u << luma_log2, nc = 1u << chroma_log2;
  if (b < nl) {
    r.comp = 0u;
    r.block = b;
    r.index = b * 64u;
    uint mb = b >> 2, sub = b & 3u;
    r.x = mb_x * 16u + mb * 16u + (sub & 1u) * 8u;
    r.y = (sub >> 1) * 8u;
  } else {
    b -= nl;
    r.comp = 1u + (b >> chroma_log2);
    b &= nc - 1u;
    r.block = b;
    r.index = (32u + (r.comp - 1u) * CHROMA_BLOCKS + b) * 64u;
    if (c444) {
      uint mb = b >> 2, sub = b & 3u;
      r.x = mb_x * 16u + mb * 16u + (sub >> 1) * 8u;
      r.y = (sub & 1u) * 8u;
    } else {
      uint mb = b >> 1, sub = b & 1u;
      r.x = mb_x * 8u + mb * 8u;
      r.y = sub * 8u;
    }
  }
  return r;
}

/* Blocks of a slice: Y, then Cb and Cr unless the slice codes no chroma. */
uint slice_blocks (uint luma_log2, uint chroma_log2, bool no_chroma)
{
  return (1u << luma_log2) + (no_chroma ? 0u : 2u << chroma_log2);
}

/* The row pass of one row: x holds the raw coefficients (natural order)
 * of row r of a block of component `comp`; dequantises, transforms and
 * writes the row's results to s_coef at coefficient `base` (even). */
void idct_row (uint comp, uint r, int x[8], uint base)
{
  uint q = comp == 0u ? 0u : 1u;
  for (uint i = 0u; i < 8u; i++)
    x[i] = sext16 (x[i] * s_qmat[q][r * 8u + i]);
  int y[8];
  if (!X86 && (x[1] | x[2] | x[3] | x[4] | x[5] | x[6] | x[7]) == 0) {
    int v = sext16 ((x[0] + 1) >> 1);
    for (uint i = 0u; i < 8u; i++)
      y[i] = v;
  } else {
    int x0 = X86 ? sext16 (x[0] + 1) : x[0];
    int e = W4 * x0 + (X86 ? 0 : 1 << (ROW_SHIFT - 1));
    butterflies (e, x[1], x[2], x[3], x[4], x[5], x[6], x[7], ROW_SHIFT, y);
  }
  /* Row pass results are in natural order y0..y7 = a0+b0, a1+b1, ... */
  for (uint i = 0u; i < 4u; i++)
    s_coef[(base >> 1) + i] = (uint (y[2u * i]) & 0xffffu) | (uint (y[2u * i + 1u]) << 16);
}

/* Columns: task = block * 4 + column pair (a word holds two columns, so
 * one invocation owns both); bias on row 0, clip, back in place. Between
 * barriers: every row of every block done before, stores after. */
void idct_columns (uint tid, uint n_blocks, uint luma_log2, uint chroma_log2, uint mb_x,
    bool c444)
{
  const int hi = (1 << BITS) - 5;
  for (uint t = tid; t < n_blocks * 4u; t += WG) {
    BlockRef br = block_ref (t >> 2, luma_log2, chroma_log2, mb_x, c444);
    uint wbase = (br.index >> 1) + (t & 3u);
    uint words[8];
    for (uint i = 0u; i < 8u; i++)
      words[i] = s_coef[wbase + i * 4u];
    int res[2][8];
    for (uint h = 0u; h < 2u; h++) {
      uint sh = h * 16u;
      int c[8];
      for (uint i = 0u; i < 8u; i++)
        c[i] = sext16u (words[i] >> sh);
      int c0 = sext16 (c[0] + 8192 + (X86 ? COL_ROUND : 0));
      int e = W4 * (c0 + (X86 ? 0 : COL_ROUND));
      butterflies (e, c[1], c[2], c[3], c[4], c[5], c[6], c[7], COL_SHIFT, res[h]);
    }
    for (uint i = 0u; i < 8u; i++)
      s_coef[wbase + i * 4u] = uint (clamp (res[0][i], 4, hi)) | (uint (clamp (res[1][i], 4, hi)) << 16);
  }
}

void store_row (uint comp, uint row, uint xw, uint v[4])
{
  if (row >= pc.rows)
    return;
  for (uint i = 0u; i < 4u; i++) {
    if (xw + i >= pc.plane_words[comp])
      return;
    uint at = pc.plane_off[comp] + row * pc.plane_stride[comp] + xw + i;
    if (comp == 0u)
      out_y[at] = v[i];
    else if (comp == 1u)
      out_u[at] = v[i];
    else
      out_v[at] = v[i];
  }
}

/* Stores of the transformed blocks, one 8-sample row (4 words) per task,
 * and the grey chroma of a slice that codes none (511 scaled to the depth,
 * as FFmpeg). Every store is bounded by the planes' limits. */
void store_slice (uint tid, uint n_blocks, uint luma_log2, uint chroma_log2, uint mb_x,
    uint mb_y, uint mb_count, uint fields, uint bottom, bool c444, bool no_chroma)
{
  for (uint t = tid; t < n_blocks * 8u; t += WG) {
    BlockRef br = block_ref (t >> 3, luma_log2, chroma_log2, mb_x, c444);
    uint r = t & 7u;
    uint v[4];
    for (uint i = 0u; i < 4u; i++)
      v[i] = s_coef[(br.index >> 1) + r * 4u + i];
    uint row = (mb_y * 16u + br.y + r) * fields + bottom;
    store_row (br.comp, row, br.x >> 1, v);
  }
  if (no_chroma) {
    uint grey = 511u << (BITS - 10u);
    uint cw = c444 ? 16u : 8u;
    uint words = (mb_count * cw) >> 1;
    uint v = grey | grey << 16;
    for (uint t = tid; t < 2u * 16u * words; t += WG) {
      uint comp = 1u + t / (16u * words);
      uint k = t % (16u * words);
      uint row = (mb_y * 16u + k / words) * fields + bottom;
      uint xw = ((mb_x * cw) >> 1) + k % words;
      if (row < pc.rows && xw < pc.plane_words[comp]) {
        uint at = pc.plane_off[comp] + row * pc.plane_stride[comp] + xw;
        if (comp == 1u)
          out_u[at] = v;
        else
          out_v[at] = v;
      }
    }
  }
}
