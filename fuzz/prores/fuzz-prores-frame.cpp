/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libFuzzer target for the ProRes frame, picture and slice header parsers and
 * the slice decoder behind them: any input must end in a status, never a
 * crash, an out-of-bounds access, undefined behaviour or a hang.
 *
 * Corpus: the frames of the vectors in tests/media/prores, extracted by
 * fuzz/prores/make-corpus.sh.
 */
#include <stddef.h>
#include <stdint.h>

#include <string>

#include "prores-decoder.h"

using namespace gpc::prores;

extern "C" int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  std::string err;
  ProbeInfo info;
  if (probe (data, size, &info, &err) != Status::kOk)
    return 0;

  Frame frame;
  if (parse_frame (data, size, &frame, &err) != Status::kOk)
    return 0;

  /* Slice geometry must tile every picture exactly. */
  const FrameHeader &h = frame.header;
  for (uint32_t p = 0; p < frame.num_pictures; p++) {
    const Picture &pic = frame.picture[p];
    uint32_t covered = 0;
    for (uint32_t i = 0; i < pic.slice_count; i++) {
      SlicePos sp = slice_position (i, h.mb_width (), pic.log2_slice_mb_width);
      if (sp.mb_count == 0 || sp.mb_x + sp.mb_count > h.mb_width () ||
          sp.mb_y >= h.picture_mb_height ())
        __builtin_trap ();
      covered += sp.mb_count;
      SliceHeader sh;
      parse_slice_header (data + pic.slice_offset[i], pic.slice_size[i], &sh);
    }
    if (covered != h.mb_width () * h.picture_mb_height ())
      __builtin_trap ();
  }

  /* Full decode of reasonably sized frames (both output depths, both IDCT
   * flavours). */
  if ((uint64_t) h.width * h.height <= (1u << 22)) {
    DecodeOptions opts;
    DecodedFrame out;
    decode_frame (data, size, opts, &out, &err);
    opts.bit_depth = h.is_444 () ? 10 : 12;
    opts.idct_flavor = IdctFlavor::kC;
    decode_frame (data, size, opts, &out, &err);
  }
  return 0;
}
