/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * backend=auto's choice, for a stream with no CUDA context at hand: whether
 * the GPU would win back its start-up over the rest of the stream. Plain
 * host code, so that the decision is tested without a GPU
 * (tests/flac/test-flac-cuda-policy.cpp).
 */
#pragma once

#include <stdint.h>

namespace gpc {
namespace flac {

/* The CUDA backend's start-up in a fresh process (context, kernels, pinned
 * buffers, and their teardown): 0.35-0.4 s on the H100 host, with margin. */
constexpr double kCudaStartCostS = 0.5;
/* What bounds the GPU path of a one-shot decode: moving the PCM through the
 * host (H100/H200 host, unframed 16-bit stereo). */
constexpr double kGpuPcmBytesPerS = 1.2e9;
/* The MD5 check: one thread hashes all the PCM, whatever decodes it. */
constexpr double kMd5BytesPerS = 0.65e9;
/* CPU decoding time before its rate is trusted (the first batches are
 * small and leave threads idle). */
constexpr double kCpuMeasureS = 0.05;

struct CudaChoice {
  bool decided = false; /* false: measure on */
  bool start = false;
  double cpu_left_s = 0; /* estimated CPU time for the rest */
  double gpu_bound_s = 0;
};

/* cpu_s: time the CPU took for the `decoded` samples (per channel) so far;
 * total: the stream's samples (0: unknown); pcm_bytes: output bytes per
 * sample (all channels). */
inline CudaChoice choose_cuda (double cpu_s, uint64_t decoded, uint64_t total, double pcm_bytes, bool md5)
{
  CudaChoice c;
  if (decoded == 0 || cpu_s < kCpuMeasureS)
    return c;
  if (!total) {
    /* length unknown: a stream that has kept the CPU busy this long */
    c.decided = c.start = cpu_s >= 2 * kCudaStartCostS;
    return c;
  }
  const uint64_t left = total > decoded ? total - decoded : 0;
  const double pcm_left = (double) left * pcm_bytes;
  c.decided = true;
  c.cpu_left_s = cpu_s * (double) left / (double) decoded;
  c.gpu_bound_s = pcm_left / kGpuPcmBytesPerS;
  if (md5 && pcm_left / kMd5BytesPerS > c.gpu_bound_s)
    c.gpu_bound_s = pcm_left / kMd5BytesPerS;
  c.start = c.cpu_left_s - c.gpu_bound_s > kCudaStartCostS;
  return c;
}

} // namespace flac
} // namespace gpc
