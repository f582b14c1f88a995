/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain data types of the FLAC format (RFC 9639) shared by the host parsers,
 * the CPU decoder and the CUDA kernels. No C++ library: nvcc compiles this.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "gpc-hd.h"

namespace gpc {
namespace flac {

constexpr unsigned kMaxChannels = 8;
constexpr unsigned kMaxBlockSize = 65535;
constexpr unsigned kMaxLpcOrder = 32;
/* Largest possible frame: 8 verbatim 32-bit subframes of 65535 samples plus
 * headers; bounds every search for a frame's end. */
constexpr size_t kMaxFrameBytes = 16 + 8 * (size_t) (1 + 1 + 4 * kMaxBlockSize) + 2;

enum Status : int {
  kOk = 0,
  kNeedMore,        /* data ends before the structure does */
  kBadSync,         /* no frame sync code here */
  kBadHeader,       /* reserved / invalid value in the frame header */
  kBadCrc8,         /* frame header checksum mismatch */
  kParamMismatch,   /* header contradicts the stream parameters */
  kBadSubframe,     /* reserved subframe type, bad predictor, ... */
  kBadResidual,     /* bad partition layout or residual out of range */
  kBadCrc16,        /* frame checksum mismatch */
  kBadMetadata,     /* metadata block malformed */
};

GPC_HD const char *status_name (int s)
{
  switch (s) {
    case kOk: return "ok";
    case kNeedMore: return "truncated";
    case kBadSync: return "no sync code";
    case kBadHeader: return "invalid frame header";
    case kBadCrc8: return "frame header CRC-8 mismatch";
    case kParamMismatch: return "frame header does not match stream parameters";
    case kBadSubframe: return "invalid subframe";
    case kBadResidual: return "invalid residual";
    case kBadCrc16: return "frame CRC-16 mismatch";
    case kBadMetadata: return "invalid metadata";
    default: return "unknown error";
  }
}

/* STREAMINFO (RFC 9639 8.2). Zero means unknown where the format allows it. */
struct StreamInfo {
  uint32_t min_blocksize = 0;
  uint32_t max_blocksize = 0;
  uint32_t min_framesize = 0;
  uint32_t max_framesize = 0;
  uint32_t sample_rate = 0;
  uint32_t channels = 0;
  uint32_t bps = 0;
  uint64_t total_samples = 0;
  uint8_t md5[16] = {};
  bool valid = false;

  GPC_HD bool md5_known () const {
    for (int i = 0; i < 16; i++)
      if (md5[i])
        return true;
    return false;
  }
};

/* What a frame header may leave to STREAMINFO ("get from STREAMINFO" codes). */
struct StreamDefaults {
  uint32_t sample_rate = 0;
  uint32_t bps = 0;
  /* Streams written before FLAC 1.2.0 signalled variable block sizes only
   * by STREAMINFO min != max blocksize; their frames carry sample numbers
   * with the "fixed" blocking bit. */
  bool legacy_variable = false;
};

enum ChannelAssignment : uint8_t {
  kIndependent = 0,
  kLeftSide = 8,
  kSideRight = 9,
  kMidSide = 10,
};

struct FrameHeader {
  uint32_t blocksize = 0;
  uint32_t sample_rate = 0;
  uint8_t channels = 0;
  uint8_t assignment = 0; /* raw 4-bit code: 0..7 independent, 8..10 stereo modes */
  uint8_t bps = 0;
  uint8_t variable = 0;   /* blocking strategy: 1 = coded number is a sample number */
  uint64_t number = 0;    /* frame number (fixed) or first sample number (variable) */
  uint32_t header_bytes = 0;
};

/* Output sample formats, as flacdec: S8, S16LE, S24_32LE, S32LE. Samples of
 * other depths are shifted left to the container's depth. */
enum OutFormat : uint8_t { kS8 = 0, kS16, kS24_32, kS32 };

GPC_HD OutFormat out_format_for_bps (unsigned bps)
{
  return bps <= 8 ? kS8 : bps <= 16 ? kS16 : bps <= 24 ? kS24_32 : kS32;
}
GPC_HD unsigned out_format_bytes (OutFormat f)
{
  return f == kS8 ? 1 : f == kS16 ? 2 : 4;
}
GPC_HD unsigned out_format_depth (OutFormat f)
{
  return f == kS8 ? 8 : f == kS16 ? 16 : f == kS24_32 ? 24 : 32;
}

} // namespace flac
} // namespace gpc
