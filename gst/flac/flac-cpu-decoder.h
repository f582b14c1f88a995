/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Multi-threaded CPU backend: decodes a batch of frames in parallel (one
 * frame per task, all cores) into one interleaved output buffer, running the
 * same per-frame code as the CUDA kernels (flac-frame.h).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <memory>
#include <vector>

#include "flac-format.h"
#include "gpc-threadpool.h"

namespace gpc {
namespace flac {

struct FrameJob {
  const uint8_t *data = nullptr; /* frame start */
  size_t size = 0;               /* bytes available from data (frame or more) */
  size_t out_sample = 0;         /* first output sample (per channel) in the batch */
  uint32_t samples = 0;          /* duration the frame must fill */
  bool silence = false;          /* known-corrupt: only write `samples` of silence */
  bool crc_checked = false;      /* data[0..size) is exactly one frame whose CRC-16 the
                                    locator verified: not computed twice */
  /* results */
  int status = kOk;              /* on error the frame's duration is silence */
  size_t frame_bytes = 0;
};

/* What every frame of one batch must agree with. */
struct BatchFormat {
  StreamDefaults defaults;
  unsigned channels = 0;
  unsigned bps = 0;
  OutFormat format = kS16;
};

class CpuDecoder {
 public:
  /* threads = 0: one per core */
  explicit CpuDecoder (unsigned threads = 0);
  ~CpuDecoder ();

  ThreadPool &pool () { return *pool_; }
  unsigned threads () const { return pool_->size (); }

  /* Decodes jobs[0..n) into out (interleaved samples of fmt.format). Frames
   * that fail (status != kOk) are replaced by silence of `samples`. */
  void decode (FrameJob *jobs, size_t n, const BatchFormat &fmt, uint8_t *out);

 private:
  struct Scratch {
    std::vector<int32_t> planes;
    std::vector<int64_t> side;
  };
  std::unique_ptr<ThreadPool> pool_;
  std::vector<Scratch> scratch_;
};

/* Decodes one frame job with the given scratch (host), used by the batch
 * decoder and by single-threaded callers. */
void decode_job (FrameJob &job, const BatchFormat &fmt, int32_t *planes, int64_t *side,
    uint8_t *out);

} // namespace flac
} // namespace gpc
