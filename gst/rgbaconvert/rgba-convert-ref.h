/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Y'CbCr / grey to 8-bit R'G'B'A in integer fixed point: the CPU reference of
 * shaders/yuv_to_rgba.comp. Coefficients are computed once per stream on the
 * CPU (rgba_coeffs) and handed to the shader unchanged, so that the
 * per-pixel arithmetic below, in 32-bit integers only, is all the two sides
 * share and the GPU output equals this one bit for bit.
 *
 *   v = (c_y * (Y - y_off) + c_cr * (Cr - c_off) + ... + 2^(F-1)) >> F
 *   R, G, B = clamp (v, 0, 255)
 *   A = (a * 255 + max / 2) / max      (max = 2^depth - 1), or 255
 *
 * F = 20 fraction bits: every coefficient is (255 / sample scale) * Kx *
 * 2^20, so each product stays below 2^29 for any depth from 8 to 16 bits
 * (the sample's size and the coefficient's scale cancel) and the sum of
 * three below 2^31 (checked exhaustively over the extremes by the test).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace gpc {

/* Fraction bits of the coefficients. */
constexpr int kRgbaFracBits = 20;

/* Luma weights of a Y'CbCr matrix (Kr, Kb; Kg = 1 - Kr - Kb). */
struct RgbaMatrix {
  double kr, kb;
};
constexpr RgbaMatrix kRgbaBt601 = { 0.299, 0.114 };   /* ITU-R BT.601 */
constexpr RgbaMatrix kRgbaBt709 = { 0.2126, 0.0722 }; /* ITU-R BT.709 */
constexpr RgbaMatrix kRgbaBt2020 = { 0.2627, 0.0593 }; /* ITU-R BT.2020 (non-constant luminance) */

/* Per-stream integer parameters (the shader's push constants). */
struct RgbaCoeffs {
  int32_t y;              /* per luma step above y_off */
  int32_t r_cr;           /* R from Cr */
  int32_t g_cb, g_cr;     /* G from Cb and Cr (negative) */
  int32_t b_cb;           /* B from Cb */
  int32_t y_off, c_off;   /* black level and zero chroma */
  uint32_t max;           /* 2^depth - 1: sample mask and alpha scale */
};

/* Coefficients for `matrix`, limited ("studio", 16..235 / 16..240 scaled to
 * the depth) or full range, and a sample depth of 8 to 16 bits. Grey uses
 * y and y_off only. */
RgbaCoeffs rgba_coeffs (const RgbaMatrix &matrix, bool full_range, unsigned depth);

/* Sample arrangements the converter reads. */
enum class RgbaLayout : uint32_t {
  Gray = 0,        /* one plane of Y */
  Planar = 1,      /* Y, Cb, Cr planes; chroma subsampled by sub_x / sub_y */
  PlanarAlpha = 2, /* ... and an A plane at full size */
  Ayuv64 = 3,      /* one plane of A, Y, U, V 16-bit little-endian words */
};

/* A picture as the converter reads it: samples of `bytes` bytes (1, or 2
 * little-endian), only the low `depth` bits of each used. */
struct RgbaSource {
  RgbaLayout layout;
  unsigned bytes;        /* 1 or 2 */
  unsigned sub_x, sub_y; /* log2 of the chroma subsampling */
  unsigned width, height;
  const uint8_t *plane[4]; /* Y, Cb, Cr, A (Ayuv64 / Gray: plane[0] only) */
  size_t stride[4];
};

static inline uint8_t
rgba_clamp (int32_t acc)
{
  /* >> of a negative int is arithmetic with GCC / Clang, as in GLSL. */
  int32_t v = (acc + (1 << (kRgbaFracBits - 1))) >> kRgbaFracBits;
  return (uint8_t) (v < 0 ? 0 : v > 255 ? 255 : v);
}

/* One pixel; y, cb, cr already masked to the depth. */
static inline void
rgba_pixel (const RgbaCoeffs &c, uint32_t y, uint32_t cb, uint32_t cr, uint8_t out[3])
{
  const int32_t ly = c.y * ((int32_t) y - c.y_off);
  const int32_t u = (int32_t) cb - c.c_off, v = (int32_t) cr - c.c_off;
  out[0] = rgba_clamp (ly + c.r_cr * v);
  out[1] = rgba_clamp (ly + c.g_cb * u + c.g_cr * v);
  out[2] = rgba_clamp (ly + c.b_cb * u);
}

static inline uint8_t
rgba_gray (const RgbaCoeffs &c, uint32_t y)
{
  return rgba_clamp (c.y * ((int32_t) y - c.y_off));
}

/* Alpha of `depth` bits (max = 2^depth - 1) to 8 bits, rounded. */
static inline uint8_t
rgba_alpha (uint32_t a, uint32_t max)
{
  return (uint8_t) ((a * 255u + (max >> 1)) / max);
}

/* Converts `src` into `dst` (width * 4 bytes a row, R, G, B, A). Chroma is
 * upsampled by repetition: pixel (x, y) takes chroma sample
 * (x >> sub_x, y >> sub_y). */
void rgba_convert_ref (const RgbaSource &src, const RgbaCoeffs &c, uint8_t *dst,
    size_t dst_stride);

} // namespace gpc
