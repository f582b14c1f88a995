/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The two parallel steps of frame location (see flac-locator.h), as
 * per-position and per-candidate functions that the CPU locator and the CUDA
 * kernels (ext/cuda/flac-kernels.cu) both run, so that a candidate and its
 * end are the same whichever backend finds them.
 *
 * On the GPU the candidates are not a sorted list while their ends are
 * searched: the scan marks every candidate position in a bitmap (bit i of
 * word i/32), and each candidate walks its CRC-16 forward byte by byte,
 * testing the bitmap at every position. The CPU locator walks its sorted
 * candidate list instead; both give the first later candidate at which the
 * running CRC-16 is zero.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "flac-crc.h"
#include "flac-format.h"
#include "flac-frame.h"
#include "gpc-hd.h"

namespace gpc {
namespace flac {

/* What a candidate header must agree with (StreamParams, flattened). */
struct ScanParams {
  StreamDefaults defaults;
  uint32_t sample_rate = 0; /* 0 = unknown */
  uint32_t channels = 0;
  uint32_t bps = 0;
  uint32_t max_blocksize = 0;
  uint64_t frame_bound = 0; /* most bytes a frame can span */
};

GPC_HD bool scan_matches (const ScanParams &p, const FrameHeader &h)
{
  if (p.channels && h.channels != p.channels)
    return false;
  if (p.bps && h.bps != p.bps)
    return false;
  if (p.sample_rate && h.sample_rate != p.sample_rate)
    return false;
  if (p.max_blocksize && h.blocksize > p.max_blocksize)
    return false;
  return true;
}

/* Candidates are looked for at positions below this: all but the last byte
 * of the final chunk; otherwise only where a whole header fits. */
GPC_HD size_t scan_limit (size_t size, bool final)
{
  if (size < 2)
    return 0;
  return final ? size - 1 : (size > kMaxHeaderBytes ? size - kMaxHeaderBytes : 0);
}

/* Is position i (< scan_limit) a candidate: a sync code whose header parses,
 * passes CRC-8 and matches the stream? */
GPC_HD bool candidate_at (const uint8_t *data, size_t size, size_t i, const ScanParams &p,
    FrameHeader *h)
{
  if (data[i] != 0xff || (data[i + 1] & 0xfe) != 0xf8)
    return false;
  return parse_frame_header (data + i, size - i, p.defaults, h) == kOk && scan_matches (p, *h);
}

GPC_HD bool bitmap_test (const uint32_t *bitmap, size_t i)
{
  return (bitmap[i >> 5] >> (i & 31)) & 1u;
}

/* End of the candidate at `offset` whose header is `header_bytes` long: the
 * first later candidate position at which the CRC-16 of the bytes from
 * `offset` is zero, no further than frame_bound; `size` when the final
 * chunk's data ends the frame that way; -1 when neither. Positions of the
 * bitmap are those below scan_limit (size, final). */
GPC_HD int64_t walk_end (const uint8_t *data, size_t size, bool final, const uint32_t *bitmap,
    size_t offset, uint32_t header_bytes, uint64_t frame_bound)
{
  size_t limit = scan_limit (size, final);
  size_t min_end = offset + header_bytes + 3;
  uint16_t crc = 0;
  size_t stop = offset + frame_bound < limit ? offset + frame_bound + 1 : limit;
  for (size_t o = offset + 1; o < stop; o++) {
    crc = crc16_byte (crc, data[o - 1]);
    if (crc == 0 && o >= min_end && bitmap_test (bitmap, o))
      return (int64_t) o;
  }
  if (!final || size - offset > frame_bound || size < min_end)
    return -1;
  /* past the last candidate: the CRC of everything to the end */
  for (size_t o = stop > offset + 1 ? stop : offset + 1; o <= size; o++)
    crc = crc16_byte (crc, data[o - 1]);
  return crc == 0 ? (int64_t) size : -1;
}

} // namespace flac
} // namespace gpc
