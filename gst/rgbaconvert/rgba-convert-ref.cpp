/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "rgba-convert-ref.h"

#include <math.h>

namespace gpc {

static int32_t
fixed (double v)
{
  return (int32_t) lround (v * (double) (1 << kRgbaFracBits));
}

RgbaCoeffs rgba_coeffs (const RgbaMatrix &m, bool full_range, unsigned depth)
{
  /* Black level, zero chroma and the spans of Y' (0..1) and of Cb / Cr
   * (-0.5..0.5) in samples, as H.273 / BT.601 / BT.709 / BT.2020 quantise
   * them (and as GStreamer's gst_video_color_range_offsets() states). */
  const double max = (double) ((1u << depth) - 1);
  const int shift = (int) depth - 8;
  const double y_span = full_range ? max : 219.0 * (1 << shift);
  const double c_span = full_range ? max : 224.0 * (1 << shift);
  const double kg = 1.0 - m.kr - m.kb;
  RgbaCoeffs c;
  c.y = fixed (255.0 / y_span);
  c.r_cr = fixed (255.0 * 2.0 * (1.0 - m.kr) / c_span);
  c.g_cb = -fixed (255.0 * 2.0 * (1.0 - m.kb) * m.kb / kg / c_span);
  c.g_cr = -fixed (255.0 * 2.0 * (1.0 - m.kr) * m.kr / kg / c_span);
  c.b_cb = fixed (255.0 * 2.0 * (1.0 - m.kb) / c_span);
  c.y_off = full_range ? 0 : 16 << shift;
  c.c_off = 1 << (depth - 1);
  c.max = (1u << depth) - 1;
  return c;
}

static inline uint32_t
sample (const uint8_t *row, unsigned x, unsigned bytes)
{
  return bytes == 1 ? row[x] : (uint32_t) row[2 * x] | (uint32_t) row[2 * x + 1] << 8;
}

void rgba_convert_ref (const RgbaSource &s, const RgbaCoeffs &c, uint8_t *dst,
    size_t dst_stride)
{
  for (unsigned y = 0; y < s.height; y++) {
    uint8_t *out = dst + y * dst_stride;
    const uint8_t *ry = s.plane[0] + y * s.stride[0];
    for (unsigned x = 0; x < s.width; x++, out += 4) {
      switch (s.layout) {
        case RgbaLayout::Gray:
          out[0] = out[1] = out[2] = rgba_gray (c, sample (ry, x, s.bytes) & c.max);
          out[3] = 255;
          break;
        case RgbaLayout::Ayuv64: {
          const uint8_t *p = ry + 8 * x;
          rgba_pixel (c, sample (p, 1, 2) & c.max, sample (p, 2, 2) & c.max,
              sample (p, 3, 2) & c.max, out);
          out[3] = rgba_alpha (sample (p, 0, 2) & c.max, c.max);
          break;
        }
        default: {
          const unsigned cx = x >> s.sub_x, cy = y >> s.sub_y;
          rgba_pixel (c, sample (ry, x, s.bytes) & c.max,
              sample (s.plane[1] + cy * s.stride[1], cx, s.bytes) & c.max,
              sample (s.plane[2] + cy * s.stride[2], cx, s.bytes) & c.max, out);
          out[3] = s.layout == RgbaLayout::PlanarAlpha ?
              rgba_alpha (sample (s.plane[3] + y * s.stride[3], x, s.bytes) & c.max, c.max) : 255;
          break;
        }
      }
    }
  }
}

} // namespace gpc
