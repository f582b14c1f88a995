/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-cpu-decoder.h"

#include <string.h>

#include "flac-frame.h"

namespace gpc {
namespace flac {

void decode_job (FrameJob &job, const BatchFormat &fmt, int32_t *planes, int64_t *side,
    uint8_t *out)
{
  unsigned bytes = out_format_bytes (fmt.format);
  uint8_t *dst = out + job.out_sample * fmt.channels * bytes;
  if (!job.silence) {
    FrameHeader h;
    int r = parse_frame_header (job.data, job.size, fmt.defaults, &h);
    if (r == kOk && (h.channels != fmt.channels || h.bps != fmt.bps || h.blocksize != job.samples))
      r = kParamMismatch;
    if (r == kOk) {
      FrameBuffers fb { planes, kMaxBlockSize, side };
      r = decode_frame (job.data, job.size, h, fb, &job.frame_bytes, job.crc_checked);
      if (r == kOk) {
        interleave (fb, fmt.channels, h.blocksize, fmt.format, fmt.bps, dst);
        job.status = kOk;
        return;
      }
    }
    job.status = r;
  }
  memset (dst, 0, (size_t) job.samples * fmt.channels * bytes);
}

CpuDecoder::CpuDecoder (unsigned threads) : pool_ (new ThreadPool (threads))
{
  scratch_.resize (pool_->size ());
}

CpuDecoder::~CpuDecoder () = default;

void CpuDecoder::decode (FrameJob *jobs, size_t n, const BatchFormat &fmt, uint8_t *out)
{
  pool_->parallel_for (n, [&] (size_t i, unsigned w) {
    Scratch &s = scratch_[w];
    if (s.planes.empty ()) {
      s.planes.resize ((size_t) kMaxChannels * kMaxBlockSize);
      s.side.resize (kMaxBlockSize);
    }
    decode_job (jobs[i], fmt, s.planes.data (), s.side.data (), out);
  });
}

} // namespace flac
} // namespace gpc
