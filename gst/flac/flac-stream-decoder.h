/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Whole-stream CPU decoding of a FLAC file held in memory: metadata, frame
 * location, parallel decoding, STREAMINFO MD5 check. Used by the tests, the
 * benchmark and the fuzzer; the element streams chunk by chunk instead.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "flac-cpu-decoder.h"
#include "flac-metadata.h"

namespace gpc {
namespace flac {

struct FrameError {
  uint64_t frame_number; /* frame number (fixed) or sample number (variable) */
  uint64_t first_sample;
  uint32_t samples;      /* silence written in its place */
  int status;
};

struct DecodedStream {
  Metadata md;
  OutFormat format = kS16;
  std::vector<uint8_t> pcm; /* interleaved, format */
  uint64_t samples = 0;     /* per channel */
  size_t frames = 0;
  std::vector<FrameError> errors;
  bool md5_checked = false; /* STREAMINFO had a signature */
  bool md5_ok = false;
  uint8_t md5[16] = {};
};

/* Returns kOk when metadata parsed (frame errors are in out->errors). */
int decode_stream (const uint8_t *data, size_t size, CpuDecoder &dec, DecodedStream *out);

} // namespace flac
} // namespace gpc
