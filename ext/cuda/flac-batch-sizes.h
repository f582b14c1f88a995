/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * How much cudaflacdec decodes at once: the batch-frames and chunk-size
 * properties where set, else sizes for the backend that decodes. Plain host
 * code, tested without a GPU (tests/flac/test-flac-batch-sizes.cpp).
 *
 * backend=auto sizes for the GPU only while CUDA decodes or is being
 * started: until it decides to start CUDA, and after it decides to stay on
 * the CPU, it decodes exactly as backend=cpu does.
 */
#pragma once

#include <stdint.h>

namespace gpc {
namespace flac {

/* A GPU needs thousands of frames in flight to be busy (one thread decodes
 * one frame, and those threads wait on memory); the CPU backend only needs
 * a few per core. A CUDA chunk holds about kAutoBatchFramesCuda frames of
 * the stream (STREAMINFO's largest frame), within 16..64 MiB. On the H100
 * host, 4620 s of 16-bit stereo without MD5, best of three (first play of
 * a pipeline / second play): 16 MiB chunks 0.45 / 0.27 s, 24 MiB 0.44 /
 * 0.20 s, 32 MiB 0.49 / 0.20 s, 48 MiB 0.52 / 0.20 s: small batches leave
 * the GPU waiting on memory, large ones cost more pinned memory to set up
 * and a longer fill and drain. 6-channel 24-bit frames are 40 KB and more. */
constexpr unsigned kAutoBatchFramesCuda = 3072;
constexpr unsigned kAutoBatchFramesCpu = 256;
constexpr unsigned kAutoChunkSizeCudaMin = 16u * 1024 * 1024;
constexpr unsigned kAutoChunkSizeCudaMax = 64u * 1024 * 1024;
constexpr unsigned kAutoChunkSizeCpu = 8u * 1024 * 1024;

struct BatchSizes {
  unsigned batch_frames = 0; /* framed input: frames per batch */
  unsigned chunk_size = 0;   /* unframed input: bytes per chunk */
};

/* gpu: batches go (or are about to go) to CUDA; batch_frames_prop,
 * chunk_size_prop: the properties (0 = auto); frame_bytes: the stream's
 * largest frame (0: not known). */
inline BatchSizes batch_sizes (bool gpu, unsigned batch_frames_prop, unsigned chunk_size_prop, uint64_t frame_bytes)
{
  BatchSizes s;
  s.batch_frames = batch_frames_prop ? batch_frames_prop : gpu ? kAutoBatchFramesCuda : kAutoBatchFramesCpu;
  if (chunk_size_prop) {
    s.chunk_size = chunk_size_prop;
  } else if (!gpu) {
    s.chunk_size = kAutoChunkSizeCpu;
  } else {
    /* room for a GPU's worth of the stream's frames */
    uint64_t c = frame_bytes * kAutoBatchFramesCuda;
    s.chunk_size = (unsigned) (c < kAutoChunkSizeCudaMin ? kAutoChunkSizeCudaMin
        : c > kAutoChunkSizeCudaMax ? kAutoChunkSizeCudaMax : c);
  }
  return s;
}

} // namespace flac
} // namespace gpc
