/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libFuzzer target for the FLAC parsers that see untrusted bytes first:
 * the metadata parser (whole stream start and single blocks) and the frame
 * header parser, plus the frame decoder behind a header that parsed, and the
 * whole-stream path (metadata, frame locator, batch decoder, MD5). Any
 * crash, sanitizer report, hang or read outside the input is a bug.
 *
 * Input layout: byte 0 selects the target, the rest is the data.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <vector>

#include "flac-frame.h"
#include "flac-metadata.h"
#include "flac-stream-decoder.h"

using namespace gpc::flac;

extern "C" int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size < 1)
    return 0;
  uint8_t mode = data[0];
  /* an exact-size heap copy so that ASan catches any over-read */
  std::vector<uint8_t> buf (data + 1, data + size);
  const uint8_t *p = buf.data ();
  size_t n = buf.size ();
  switch (mode % 4) {
    case 0: {
      Metadata md;
      parse_metadata (p, n, &md);
      break;
    }
    case 1: {
      if (n < 1)
        break;
      Metadata md;
      parse_block (p[0] & 0x7f, p + 1, n - 1, &md);
      size_t used;
      bool last;
      parse_block_with_header (p, n, &md, &used, &last);
      break;
    }
    case 3: {
      static CpuDecoder dec (1);
      DecodedStream ds;
      decode_stream (p, n, dec, &ds);
      break;
    }
    default: {
      if (n < 2)
        break;
      /* stream defaults from the first two bytes, then a frame */
      StreamDefaults d;
      static const uint32_t rates[4] = { 0, 44100, 48000, 96000 };
      static const uint8_t depths[8] = { 0, 4, 8, 12, 16, 20, 24, 32 };
      d.sample_rate = rates[p[0] & 3];
      d.bps = depths[(p[0] >> 2) & 7];
      d.legacy_variable = p[0] & 0x20;
      std::vector<uint8_t> frame (p + 1, p + n);
      FrameHeader h;
      if (parse_frame_header (frame.data (), frame.size (), d, &h) != kOk)
        break;
      static std::vector<int32_t> planes ((size_t) kMaxChannels * kMaxBlockSize);
      static std::vector<int64_t> side (kMaxBlockSize);
      FrameBuffers fb { planes.data (), kMaxBlockSize, side.data () };
      size_t bytes;
      if (decode_frame (frame.data (), frame.size (), h, fb, &bytes) == kOk) {
        static std::vector<int32_t> out ((size_t) kMaxChannels * kMaxBlockSize);
        interleave (fb, h.channels, h.blocksize, out_format_for_bps (h.bps), h.bps, out.data ());
      }
      break;
    }
  }
  return 0;
}
