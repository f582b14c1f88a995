/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-motion-layout.h"

namespace gpc {

bool luma_layout_for_format (GstVideoFormat format, LumaLayout *layout)
{
  const GstVideoFormatInfo *info = gst_video_format_get_info (format);
  if (!info || GST_VIDEO_FORMAT_INFO_IS_TILED (info) || GST_VIDEO_FORMAT_INFO_IS_RGB (info))
    return false;
  if (!GST_VIDEO_FORMAT_INFO_IS_YUV (info) && !GST_VIDEO_FORMAT_INFO_IS_GRAY (info))
    return false;
  /* Packed YUV (YUY2, v210, AYUV...) keeps luma interleaved with chroma. */
  if (GST_VIDEO_FORMAT_INFO_IS_YUV (info) && GST_VIDEO_FORMAT_INFO_N_PLANES (info) < 2)
    return false;

  LumaLayout l;
  l.plane = GST_VIDEO_FORMAT_INFO_PLANE (info, 0);
  l.bpc = GST_VIDEO_FORMAT_INFO_DEPTH (info, 0);
  l.shift = GST_VIDEO_FORMAT_INFO_SHIFT (info, 0);
  if (l.bpc < 8 || l.bpc > 16)
    return false;

  switch (format) {
    case GST_VIDEO_FORMAT_GRAY10_LE32:
    case GST_VIDEO_FORMAT_NV12_10LE32:
    case GST_VIDEO_FORMAT_NV16_10LE32:
      l.packing = LUMA_10LE32;
      l.shift = 0;
      break;
    case GST_VIDEO_FORMAT_NV12_10LE40:
      l.packing = LUMA_10LE40;
      l.shift = 0;
      break;
    default:
      /* Other formats that need custom unpacking are not planar samples. */
      if (GST_VIDEO_FORMAT_INFO_FLAGS (info) & GST_VIDEO_FORMAT_FLAG_COMPLEX)
        return false;
      if (GST_VIDEO_FORMAT_INFO_PSTRIDE (info, 0) == 1 && l.bpc == 8)
        l.packing = LUMA_U8;
      else if (GST_VIDEO_FORMAT_INFO_PSTRIDE (info, 0) == 2)
        l.packing = GST_VIDEO_FORMAT_INFO_IS_LE (info) ? LUMA_U16LE : LUMA_U16BE;
      else
        return false;
      break;
  }
  *layout = l;
  return true;
}

size_t luma_row_bytes (const LumaLayout &l, unsigned width)
{
  switch (l.packing) {
    case LUMA_U8:
      return width;
    case LUMA_U16LE:
    case LUMA_U16BE:
      return 2 * (size_t) width;
    case LUMA_10LE32:
      return 4 * (((size_t) width + 2) / 3);
    case LUMA_10LE40:
      return 5 * (((size_t) width + 3) / 4);
  }
  return 0;
}

std::vector<std::string> luma_supported_formats ()
{
  std::vector<std::string> out;
  guint n = 0;
  const GstVideoFormat *all = gst_video_formats_raw (&n);
  LumaLayout l;
  for (guint i = 0; i < n; i++)
    if (luma_layout_for_format (all[i], &l))
      out.push_back (gst_video_format_to_string (all[i]));
  return out;
}

uint16_t luma_fetch (const uint8_t *row, const LumaLayout &l, unsigned x)
{
  switch (l.packing) {
    case LUMA_U8:
      return row[x];
    case LUMA_U16LE:
      return (uint16_t) ((row[2 * x] | (row[2 * x + 1] << 8)) >> l.shift);
    case LUMA_U16BE:
      return (uint16_t) (((row[2 * x] << 8) | row[2 * x + 1]) >> l.shift);
    case LUMA_10LE32: {
      const uint8_t *p = row + (x / 3) * 4;
      uint32_t w = p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t) p[3] << 24);
      return (uint16_t) ((w >> ((x % 3) * 10)) & 0x3ff);
    }
    case LUMA_10LE40: {
      unsigned bit = (x & 3) * 10;
      const uint8_t *p = row + (x >> 2) * 5 + (bit >> 3);
      return (uint16_t) (((p[0] | (p[1] << 8)) >> (bit & 7)) & 0x3ff);
    }
  }
  return 0;
}

void luma_store (uint8_t *row, const LumaLayout &l, unsigned x, uint16_t v)
{
  switch (l.packing) {
    case LUMA_U8:
      row[x] = (uint8_t) v;
      break;
    case LUMA_U16LE: {
      uint16_t c = (uint16_t) (v << l.shift);
      row[2 * x] = c & 0xff;
      row[2 * x + 1] = c >> 8;
      break;
    }
    case LUMA_U16BE: {
      uint16_t c = (uint16_t) (v << l.shift);
      row[2 * x] = c >> 8;
      row[2 * x + 1] = c & 0xff;
      break;
    }
    case LUMA_10LE32: {
      uint8_t *p = row + (x / 3) * 4;
      uint32_t w = p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t) p[3] << 24);
      unsigned s = (x % 3) * 10;
      w = (w & ~(0x3ffu << s)) | ((uint32_t) (v & 0x3ff) << s);
      for (int i = 0; i < 4; i++)
        p[i] = (uint8_t) (w >> (8 * i));
      break;
    }
    case LUMA_10LE40: {
      unsigned bit = (x & 3) * 10;
      uint8_t *p = row + (x >> 2) * 5 + (bit >> 3);
      unsigned s = bit & 7;
      uint32_t w = p[0] | (p[1] << 8);
      w = (w & ~(0x3ffu << s)) | ((uint32_t) (v & 0x3ff) << s);
      p[0] = (uint8_t) w;
      p[1] = (uint8_t) (w >> 8);
      break;
    }
  }
}

std::vector<uint16_t> luma_unpack (const uint8_t *plane, size_t stride,
    const LumaLayout &l, unsigned width, unsigned height)
{
  std::vector<uint16_t> out ((size_t) width * height);
  for (unsigned y = 0; y < height; y++)
    for (unsigned x = 0; x < width; x++)
      out[(size_t) y * width + x] = luma_fetch (plane + y * stride, l, x);
  return out;
}

} // namespace gpc
