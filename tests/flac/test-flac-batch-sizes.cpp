/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * cudaflacdec's batch and chunk sizes (flac-batch-sizes.h): the properties
 * win; otherwise backend=cpu's sizes wherever the CPU decodes (backend=auto
 * before its decision included), and the GPU's sizes from the stream's
 * largest frame within their bounds.
 */
#include <stdio.h>

#include "flac-batch-sizes.h"
#include "flac-test-util.h"

using namespace gpc::flac;

int main ()
{
  const unsigned MiB = 1024 * 1024;
  /* the CPU: the same sizes whatever the stream's frames */
  const uint64_t frames[] = { 0, 1, 4096, 14000, 45000, 1u << 20 };
  for (uint64_t f : frames) {
    BatchSizes s = batch_sizes (false, 0, 0, f);
    CHECK (s.batch_frames == 256 && s.chunk_size == 8 * MiB, "CPU, frames of %llu bytes: %u frames, %u bytes",
        (unsigned long long) f, s.batch_frames, s.chunk_size);
  }
  /* the GPU: 3072 frames, the chunk 3072 of the largest frame within 16..64 MiB */
  BatchSizes s = batch_sizes (true, 0, 0, 0);
  CHECK (s.batch_frames == 3072 && s.chunk_size == 16 * MiB, "GPU, frame size unknown: %u, %u", s.batch_frames,
      s.chunk_size);
  s = batch_sizes (true, 0, 0, 4096); /* 16-bit stereo, 12 MiB of frames */
  CHECK (s.chunk_size == 16 * MiB, "GPU, 4 KiB frames: %u", s.chunk_size);
  s = batch_sizes (true, 0, 0, 14000); /* between the bounds */
  CHECK (s.chunk_size == 14000u * 3072, "GPU, 14000-byte frames: %u", s.chunk_size);
  s = batch_sizes (true, 0, 0, 45000); /* 24-bit 6 channels: the upper bound */
  CHECK (s.chunk_size == 64 * MiB, "GPU, 45000-byte frames: %u", s.chunk_size);
  s = batch_sizes (true, 0, 0, 1ull << 40); /* no overflow on an absurd STREAMINFO */
  CHECK (s.chunk_size == 64 * MiB, "GPU, 1 TiB frames: %u", s.chunk_size);
  /* the properties, on either backend */
  for (int gpu = 0; gpu < 2; gpu++) {
    s = batch_sizes (gpu, 100, 0, 45000);
    CHECK (s.batch_frames == 100 && s.chunk_size == (gpu ? 64 * MiB : 8 * MiB), "batch-frames=100, gpu %d", gpu);
    s = batch_sizes (gpu, 0, 1 * MiB, 45000);
    CHECK (s.batch_frames == (gpu ? 3072u : 256u) && s.chunk_size == MiB, "chunk-size=1 MiB, gpu %d", gpu);
  }
  printf ("batch and chunk sizes: as expected\n");
  return 0;
}
