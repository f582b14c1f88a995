/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes dequantisation and 8x8 inverse DCT with exactly the integer
 * arithmetic of FFmpeg's prores decoder (proresdsp: the "simple" IDCT, in its
 * 10-bit variant with two extra row bits, and its 12-bit variant), so that the
 * output is bit-exact with Debian's ffmpeg. Written from the arithmetic, not
 * from FFmpeg's code.
 *
 * Everything here is 32-bit integer arithmetic that GLSL has:
 *  - sums and products wrap modulo 2^32 (GLSL int does; here uint32_t),
 *  - right shifts of negative values are arithmetic (GLSL int >> is),
 *  - every value FFmpeg keeps in an int16_t is truncated to 16 bits and sign
 *    extended again (sext16), which is what the C conversion does.
 * No allocation, fixed-size arrays: a GLSL port is a transliteration.
 *
 * Scaling: coefficients arrive at "12-bit pixel" scale (a DC of 8*v gives
 * pixels of about v in 12-bit units before the bias). The 12-bit path keeps
 * that scale, the 10-bit path divides it by 4. See docs/prores-reference.md.
 *
 * Two flavours of the 10-bit transform exist in FFmpeg and give different
 * results when intermediates leave the int16 range (never with real encoders,
 * easily with crafted streams):
 *  - IdctFlavor::kC, FFmpeg's C code (ARM and other platforms without SIMD):
 *    int16 truncation between and after the passes, a DC-only row shortcut;
 *  - IdctFlavor::kX86, the SSE2/AVX code that Debian's amd64 ffmpeg runs:
 *    the row rounding folded into an int16 "+1" on the DC input, the column
 *    bias and rounding (8192 + 8) folded into one int16 addition, and
 *    saturation (packssdw) instead of truncation after each pass.
 * The 12-bit transform has only the C flavour in FFmpeg 5.1.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace gpc {
namespace prores {

/* Truncate to 16 bits and sign-extend (C conversion of an int to int16_t).
 * GLSL: (v << 16) >> 16. */
static inline int32_t sext16 (int32_t v)
{
  return (int32_t) ((uint32_t) v << 16) >> 16;
}

enum class IdctFlavor : int32_t { kC = 0, kX86 = 1 };

/* Saturation to int16 (SSE2 packssdw). GLSL: clamp(v, -32768, 32767). */
static inline int32_t sat16 (int32_t v)
{
  return v < -32768 ? -32768 : v > 32767 ? 32767 : v;
}

/* Weights: round(cos(k*pi/16) * sqrt(2) * 2^14) for the 10-bit transform
 * (W4 rounded up to 2^14) and about twice that (2^15 - 1 for W4) for the
 * 12-bit one. These are the constants of FFmpeg's simple IDCT. */
struct IdctParams {
  int32_t w1, w2, w3, w4, w5, w6, w7;
  int32_t row_shift; /* total shift of the row pass */
  int32_t col_shift;
  int32_t col_round; /* added to the DC row before W4: (1 << (col_shift - 1)) / W4 */
  int32_t x86;       /* 1: the x86 SIMD flavour (10-bit only) */
};

static inline IdctParams idct_params (int bit_depth, IdctFlavor flavor = IdctFlavor::kC)
{
  if (bit_depth == 12)
    return IdctParams { 45451, 42813, 38531, 32767, 25746, 17734, 9041, 16, 17, 2, 0 };
  /* 10-bit: ROW_SHIFT 13 plus the "extra shift" of 2 that FFmpeg's prores path
   * uses, COL_SHIFT 18; (1 << 17) / 16384 = 8. */
  return IdctParams { 22725, 21407, 19265, 16384, 12873, 8867, 4520, 15, 18, 8,
    flavor == IdctFlavor::kX86 ? 1 : 0 };
}

/* Stores a pass result the way the flavour does: int16 truncation (C) or
 * saturation (x86). */
static inline int32_t store16 (int32_t v, const IdctParams &p)
{
  return p.x86 ? sat16 (v) : sext16 (v);
}

/* One row (8 values at in[0..7]), in place. All inputs are int16 values. */
static inline void idct_row (int32_t *r, const IdctParams &p)
{
  /* A row with only a DC term takes a shortcut in FFmpeg's C code that is not
   * always equal to the general formula (it is for 10-bit, not for 12-bit
   * where W4 = 2^15 - 1): (dc + 1) >> 1 copied to all 8 outputs. */
  if (!p.x86 && (r[1] | r[2] | r[3] | r[4] | r[5] | r[6] | r[7]) == 0) {
    int32_t v = sext16 ((r[0] + 1) >> 1);
    for (int i = 0; i < 8; i++)
      r[i] = v;
    return;
  }
  /* x86: the rounding constant 2^14 = W4 * 1 is an int16 "+1" on the input. */
  const uint32_t x0 = (uint32_t) (p.x86 ? sext16 (r[0] + 1) : r[0]), x1 = (uint32_t) r[1],
      x2 = (uint32_t) r[2],
      x3 = (uint32_t) r[3], x4 = (uint32_t) r[4], x5 = (uint32_t) r[5],
      x6 = (uint32_t) r[6], x7 = (uint32_t) r[7];
  const uint32_t w1 = p.w1, w2 = p.w2, w3 = p.w3, w4 = p.w4, w5 = p.w5, w6 = p.w6, w7 = p.w7;

  /* Even part (wrapping 32-bit sums). */
  uint32_t e = w4 * x0 + (p.x86 ? 0u : 1u << (p.row_shift - 1));
  uint32_t a0 = e + w2 * x2 + w4 * x4 + w6 * x6;
  uint32_t a1 = e + w6 * x2 - w4 * x4 - w2 * x6;
  uint32_t a2 = e - w6 * x2 - w4 * x4 + w2 * x6;
  uint32_t a3 = e - w2 * x2 + w4 * x4 - w6 * x6;
  /* Odd part. */
  uint32_t b0 = w1 * x1 + w3 * x3 + w5 * x5 + w7 * x7;
  uint32_t b1 = w3 * x1 - w7 * x3 - w1 * x5 - w5 * x7;
  uint32_t b2 = w5 * x1 - w1 * x3 + w7 * x5 + w3 * x7;
  uint32_t b3 = w7 * x1 - w5 * x3 + w3 * x5 - w1 * x7;

  const int32_t s = p.row_shift;
  r[0] = store16 ((int32_t) (a0 + b0) >> s, p);
  r[7] = store16 ((int32_t) (a0 - b0) >> s, p);
  r[1] = store16 ((int32_t) (a1 + b1) >> s, p);
  r[6] = store16 ((int32_t) (a1 - b1) >> s, p);
  r[2] = store16 ((int32_t) (a2 + b2) >> s, p);
  r[5] = store16 ((int32_t) (a2 - b2) >> s, p);
  r[3] = store16 ((int32_t) (a3 + b3) >> s, p);
  r[4] = store16 ((int32_t) (a3 - b3) >> s, p);
}

/* One column (c[0], c[8], ... c[56]), in place; results are int16 values.
 * The C flavour adds col_round here; the x86 one already added it with the
 * bias (idct_8x8). */
static inline void idct_col (int32_t *c, const IdctParams &p)
{
  const uint32_t x0 = (uint32_t) (c[0] + (p.x86 ? 0 : p.col_round)), x1 = (uint32_t) c[8],
      x2 = (uint32_t) c[16], x3 = (uint32_t) c[24], x4 = (uint32_t) c[32],
      x5 = (uint32_t) c[40], x6 = (uint32_t) c[48], x7 = (uint32_t) c[56];
  const uint32_t w1 = p.w1, w2 = p.w2, w3 = p.w3, w4 = p.w4, w5 = p.w5, w6 = p.w6, w7 = p.w7;

  uint32_t e = w4 * x0;
  uint32_t a0 = e + w2 * x2 + w4 * x4 + w6 * x6;
  uint32_t a1 = e + w6 * x2 - w4 * x4 - w2 * x6;
  uint32_t a2 = e - w6 * x2 - w4 * x4 + w2 * x6;
  uint32_t a3 = e - w2 * x2 + w4 * x4 - w6 * x6;
  uint32_t b0 = w1 * x1 + w3 * x3 + w5 * x5 + w7 * x7;
  uint32_t b1 = w3 * x1 - w7 * x3 - w1 * x5 - w5 * x7;
  uint32_t b2 = w5 * x1 - w1 * x3 + w7 * x5 + w3 * x7;
  uint32_t b3 = w7 * x1 - w5 * x3 + w3 * x5 - w1 * x7;

  const int32_t s = p.col_shift;
  c[0] = store16 ((int32_t) (a0 + b0) >> s, p);
  c[8] = store16 ((int32_t) (a1 + b1) >> s, p);
  c[16] = store16 ((int32_t) (a2 + b2) >> s, p);
  c[24] = store16 ((int32_t) (a3 + b3) >> s, p);
  c[32] = store16 ((int32_t) (a3 - b3) >> s, p);
  c[40] = store16 ((int32_t) (a2 - b2) >> s, p);
  c[48] = store16 ((int32_t) (a1 - b1) >> s, p);
  c[56] = store16 ((int32_t) (a0 - b0) >> s, p);
}

/* The transform proper on int16-valued coefficients, raster order, in place.
 * Output: signed samples plus the bias (2^(bit_depth-1)), not yet clipped. */
static inline void idct_8x8 (int32_t blk[64], int bit_depth,
    IdctFlavor flavor = IdctFlavor::kC)
{
  const IdctParams p = idct_params (bit_depth, flavor);
  for (int y = 0; y < 8; y++)
    idct_row (blk + 8 * y, p);
  /* The bias: 8192 on the DC row between the passes (an int16 addition),
   * which the column pass scales to 512 (10-bit) or ~2048 (12-bit). The x86
   * flavour adds 8192 + 8 (its column rounding) in one int16 addition. */
  for (int x = 0; x < 8; x++)
    blk[x] = sext16 (blk[x] + 8192 + (p.x86 ? p.col_round : 0));
  for (int x = 0; x < 8; x++)
    idct_col (blk + x, p);
}

/* Scaled quantisation matrix entry as FFmpeg keeps it: an int16 product. */
static inline int32_t scaled_qmat (uint32_t qmat_entry, int32_t qscale)
{
  return sext16 ((int32_t) qmat_entry * qscale);
}

/* Dequantise (int16 product), transform, clip to [4, 2^bd - 5] and store
 * 8x8 samples at dst with a stride in samples. blk is clobbered. */
static inline void dequant_idct_put (int32_t blk[64], const int32_t qmat_scaled[64],
    int bit_depth, IdctFlavor flavor, uint16_t *dst, ptrdiff_t stride)
{
  for (int i = 0; i < 64; i++)
    blk[i] = sext16 (blk[i] * qmat_scaled[i]);
  idct_8x8 (blk, bit_depth, flavor);
  const int32_t hi = (1 << bit_depth) - 5;
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++) {
      int32_t v = blk[8 * y + x];
      dst[y * stride + x] = (uint16_t) (v < 4 ? 4 : v > hi ? hi : v);
    }
}

} // namespace prores
} // namespace gpc
