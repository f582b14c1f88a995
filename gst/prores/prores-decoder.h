/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU reference decoder of whole ProRes frames: parses the frame, decodes
 * every slice of every picture (field) with prores-slice.h and returns the
 * planes cropped and laid out as FFmpeg outputs them: Y, Cb, Cr (and A when
 * the frame has alpha), one uint16_t per sample holding a 10- or 12-bit value
 * (written little-endian these are yuv422p10le, yuv444p10le, yuv444p12le,
 * yuva444p12le... exactly as "ffmpeg -c:v prores -f rawvideo" writes them).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "prores-frame.h"
#include "prores-slice.h"

namespace gpc {
namespace prores {

struct DecodeOptions {
  /* Output depth: 10 or 12, or 0 to pick FFmpeg's default for the frame
   * (12 for 4:4:4, 10 for 4:2:2). FFmpeg chooses by the container's FourCC:
   * 12 for ap4h/ap4x (4444, 4444 XQ), 10 otherwise; pass that when known
   * (bit_depth_for_fourcc / bit_depth_for_variant). */
  uint32_t bit_depth = 0;
  bool skip_alpha = false;
  /* FFmpeg's two 10-bit IDCT arithmetics differ only when intermediates
   * overflow int16 (crafted streams). Debian's amd64 ffmpeg runs the x86
   * SIMD one, its builds without SIMD (e.g. arm64) the C one. */
  IdctFlavor idct_flavor = IdctFlavor::kX86;
};

struct DecodedFrame {
  uint32_t width = 0, height = 0, bit_depth = 0, num_planes = 0;
  bool chroma_444 = false, interlaced = false, top_field_first = false;
  uint32_t alpha_bits = 0;
  uint32_t plane_width[4] = {}, plane_height[4] = {};
  std::vector<uint16_t> plane[4]; /* cropped, rows of plane_width samples */
  uint32_t slices_total = 0, slices_failed = 0;
  /* Pictures decoded: 1 progressive, 2 interlaced; 1 for an interlaced frame
   * whose second field is absent (its rows stay 0; FFmpeg leaves them
   * undefined and does not report it). */
  uint32_t pictures = 0;

  /* FFmpeg's name of the layout, e.g. "yuv422p10le", "yuva444p12le". */
  std::string pix_fmt () const;
};

/* Decodes one frame. Returns kOk, or an error with a message. When some
 * slices fail (kBadSlice) the others are still decoded and the frame is
 * filled (as FFmpeg does), the failed ones stay zero. */
Status decode_frame (const uint8_t *data, size_t size, const DecodeOptions &opts,
    DecodedFrame *out, std::string *error);

} // namespace prores
} // namespace gpc
