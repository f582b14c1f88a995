/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GStreamer video formats and colorimetry as the RGBA converter sees them:
 * shared by vkrgbaconvert (push constants) and the tests (CPU reference on
 * mapped frames), so both read a format the same way.
 */
#pragma once

#include <gst/video/video.h>

#include "rgba-convert-ref.h"

namespace gpc {

/* The formats vkrgbaconvert takes (every output format of vkproresdec and
 * vkvvcalf), as a caps list, and those 1.22 can carry in Vulkan images. */
#define GPC_RGBA_INPUT_FORMATS "GRAY8, I420, I420_10LE, I420_12LE, Y42B, I422_10LE, " \
    "I422_12LE, Y444, Y444_10LE, Y444_12LE, A422_10LE, A444_10LE, AYUV64"
#define GPC_RGBA_INPUT_FORMATS_8BIT "GRAY8, I420, Y42B, Y444"

/* How a format's samples are arranged: FALSE for a format the converter
 * does not take. */
struct RgbaFormat {
  RgbaLayout layout;
  unsigned depth;        /* bits per sample */
  unsigned bytes;        /* bytes per sample (Ayuv64: per component) */
  unsigned sub_x, sub_y; /* chroma subsampling, log2 */
};
bool rgba_format_of (GstVideoFormat format, RgbaFormat *out);

/* Matrix and range of `info`'s colorimetry, with GStreamer 1.22's defaults
 * where it leaves them unknown (or says RGB): BT.709 above 576 lines, else
 * BT.601; limited range for Y'CbCr, full for grey. */
RgbaMatrix rgba_matrix_of (const GstVideoInfo *info);
bool rgba_full_range_of (const GstVideoInfo *info);

/* The coefficients for `info` (a format rgba_format_of takes). */
RgbaCoeffs rgba_coeffs_of (const GstVideoInfo *info);

/* A mapped frame as the reference reads it. */
RgbaSource rgba_source_of (const GstVideoFrame *frame);

} // namespace gpc
