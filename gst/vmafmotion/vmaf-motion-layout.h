/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Where and how the luma samples of a GStreamer video format are stored, for
 * every planar / semi-planar YUV and GRAY format of 8 to 16 bits (tiled
 * formats excluded). The GPU shader reads the same packings
 * (shaders/motion_luma_fetch.glsl); luma_fetch() is its CPU twin.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

#include <gst/video/video.h>

namespace gpc {

/* Values shared with shaders/motion_luma_fetch.glsl. */
enum LumaPacking : uint32_t {
  LUMA_U8 = 0,
  LUMA_U16LE = 1,
  LUMA_U16BE = 2,
  LUMA_10LE32 = 3,
  LUMA_10LE40 = 4,
};

struct LumaLayout {
  LumaPacking packing;
  unsigned bpc;   /* bits of the sample value (8..16) */
  unsigned shift; /* right shift inside a 16-bit container */
  unsigned plane; /* plane index of the luma component */
};

/* False for formats the motion feature does not take. */
bool luma_layout_for_format (GstVideoFormat format, LumaLayout *layout);

/* Bytes one row of `width` luma samples occupies. */
size_t luma_row_bytes (const LumaLayout &layout, unsigned width);

/* Every format luma_layout_for_format() accepts, as caps format names. */
std::vector<std::string> luma_supported_formats ();

/* Sample x of the row starting at `row` (CPU twin of the shader's fetch). */
uint16_t luma_fetch (const uint8_t *row, const LumaLayout &layout, unsigned x);

/* Writes sample value v at x of `row` (for tests and benchmarks). */
void luma_store (uint8_t *row, const LumaLayout &layout, unsigned x, uint16_t v);

/* Unpacks a whole plane into one uint16 per sample (stride = width). */
std::vector<uint16_t> luma_unpack (const uint8_t *plane, size_t stride,
    const LumaLayout &layout, unsigned width, unsigned height);

} // namespace gpc
