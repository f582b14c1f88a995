/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "rgba-convert-video.h"

namespace gpc {

bool rgba_format_of (GstVideoFormat format, RgbaFormat *out)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8: *out = { RgbaLayout::Gray, 8, 1, 0, 0 }; return true;
    case GST_VIDEO_FORMAT_I420: *out = { RgbaLayout::Planar, 8, 1, 1, 1 }; return true;
    case GST_VIDEO_FORMAT_I420_10LE: *out = { RgbaLayout::Planar, 10, 2, 1, 1 }; return true;
    case GST_VIDEO_FORMAT_I420_12LE: *out = { RgbaLayout::Planar, 12, 2, 1, 1 }; return true;
    case GST_VIDEO_FORMAT_Y42B: *out = { RgbaLayout::Planar, 8, 1, 1, 0 }; return true;
    case GST_VIDEO_FORMAT_I422_10LE: *out = { RgbaLayout::Planar, 10, 2, 1, 0 }; return true;
    case GST_VIDEO_FORMAT_I422_12LE: *out = { RgbaLayout::Planar, 12, 2, 1, 0 }; return true;
    case GST_VIDEO_FORMAT_Y444: *out = { RgbaLayout::Planar, 8, 1, 0, 0 }; return true;
    case GST_VIDEO_FORMAT_Y444_10LE: *out = { RgbaLayout::Planar, 10, 2, 0, 0 }; return true;
    case GST_VIDEO_FORMAT_Y444_12LE: *out = { RgbaLayout::Planar, 12, 2, 0, 0 }; return true;
    case GST_VIDEO_FORMAT_A422_10LE: *out = { RgbaLayout::PlanarAlpha, 10, 2, 1, 0 }; return true;
    case GST_VIDEO_FORMAT_A444_10LE: *out = { RgbaLayout::PlanarAlpha, 10, 2, 0, 0 }; return true;
    case GST_VIDEO_FORMAT_AYUV64: *out = { RgbaLayout::Ayuv64, 16, 2, 0, 0 }; return true;
    default: return false;
  }
}

RgbaMatrix rgba_matrix_of (const GstVideoInfo *info)
{
  GstVideoColorMatrix m = info->colorimetry.matrix;
  if (m == GST_VIDEO_COLOR_MATRIX_UNKNOWN || m == GST_VIDEO_COLOR_MATRIX_RGB) {
    /* As gst_video_info_from_caps() defaults Y'CbCr caps without
     * colorimetry in 1.22 (2160 lines and more included). */
    m = GST_VIDEO_INFO_HEIGHT (info) > 576 ? GST_VIDEO_COLOR_MATRIX_BT709 :
        GST_VIDEO_COLOR_MATRIX_BT601;
  }
  switch (m) {
    case GST_VIDEO_COLOR_MATRIX_BT709: return kRgbaBt709;
    case GST_VIDEO_COLOR_MATRIX_BT2020: return kRgbaBt2020;
    case GST_VIDEO_COLOR_MATRIX_BT601: return kRgbaBt601;
    default: {
      /* FCC, SMPTE 240M: GStreamer knows their weights. */
      gdouble kr = 0, kb = 0;
      if (gst_video_color_matrix_get_Kr_Kb (m, &kr, &kb))
        return { kr, kb };
      return kRgbaBt601;
    }
  }
}

bool rgba_full_range_of (const GstVideoInfo *info)
{
  switch (info->colorimetry.range) {
    case GST_VIDEO_COLOR_RANGE_0_255: return true;
    case GST_VIDEO_COLOR_RANGE_16_235: return false;
    default: return GST_VIDEO_INFO_IS_GRAY (info);
  }
}

RgbaCoeffs rgba_coeffs_of (const GstVideoInfo *info)
{
  RgbaFormat f;
  if (!rgba_format_of (GST_VIDEO_INFO_FORMAT (info), &f))
    f.depth = 8;
  return rgba_coeffs (rgba_matrix_of (info), rgba_full_range_of (info), f.depth);
}

RgbaSource rgba_source_of (const GstVideoFrame *frame)
{
  RgbaFormat f = {};
  rgba_format_of (GST_VIDEO_FRAME_FORMAT (frame), &f);
  RgbaSource s = {};
  s.layout = f.layout;
  s.bytes = f.bytes;
  s.sub_x = f.sub_x;
  s.sub_y = f.sub_y;
  s.width = GST_VIDEO_FRAME_WIDTH (frame);
  s.height = GST_VIDEO_FRAME_HEIGHT (frame);
  for (guint p = 0; p < 4; p++) {
    const guint q = p < GST_VIDEO_FRAME_N_PLANES (frame) ? p : 0;
    s.plane[p] = (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (frame, q);
    s.stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (frame, q);
  }
  return s;
}

} // namespace gpc
