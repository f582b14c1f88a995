/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * backend=auto's choice, for a stream with no CUDA context at hand: whether
 * the GPU would win back its start-up over the rest of the stream; and what
 * the streaming thread does while the CUDA start-up thread runs. Plain host
 * code, so that the decisions are tested without a GPU
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

/* The CUDA start-up thread (context, module) as the streaming thread sees
 * it before a batch. */
enum class CudaStartup { kUnderWay, kReady, kFailed };
/* What the streaming thread does about it before the batch. */
enum class CudaStartStep {
  kCpu,      /* decode this batch on the CPU */
  kWait,     /* wait for the thread, then ask again */
  kAdopt,    /* decode on CUDA from this batch on */
  kFail,     /* backend=cuda: post the error, decode nothing */
  kFallBack, /* backend=auto: warn, decode on the CPU from now on */
};

/* required: backend=cuda (auto otherwise). backend=cuda waits for CUDA
 * before the first batch, as if the context had been made in start(), but
 * for live input: there the CPU decodes while the context is made, so that
 * the first buffers leave at once, until the end of the stream, which
 * hears whether CUDA could start. A live backend=auto stays on the CPU (a
 * batch of a frame or two decodes sooner there than through the GPU). */
inline CudaStartStep cuda_start_step (bool required, bool live, bool at_eos, CudaStartup s)
{
  if (required) {
    if (s == CudaStartup::kUnderWay)
      return live && !at_eos ? CudaStartStep::kCpu : CudaStartStep::kWait;
    return s == CudaStartup::kReady ? CudaStartStep::kAdopt : CudaStartStep::kFail;
  }
  if (live || s == CudaStartup::kUnderWay)
    return CudaStartStep::kCpu;
  return s == CudaStartup::kReady ? CudaStartStep::kAdopt : CudaStartStep::kFallBack;
}

} // namespace flac
} // namespace gpc
