/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Large memcpy()s split over the threads of a gpc::ThreadPool. One core
 * copies about 10 GB/s from DRAM, less into freshly allocated pages (page
 * faults): a 4 MB ProRes 2160p HQ frame into the upload buffer would take
 * most of the 0.5 ms a frame may cost at 2000 fps, a 33 MB decoded frame out
 * of the download buffer 3 ms, and cudaflacdec's 887 MB of PCM for 4620 s
 * of audio 0.6 s on one core (measured on the H100 host). The calling
 * thread takes a share itself.
 */
#pragma once

#include <stddef.h>

#include <memory>

#include "gpc-threadpool.h"

namespace gpc {

class ParallelCopy {
 public:
  /* Its own pool of `extra` worker threads besides the caller (0: every
   * copy inline). Elements pass default_workers(); benchmarks and tests
   * choose their own count. */
  explicit ParallelCopy (unsigned extra);
  /* Copies on an existing pool (not owned; must outlive this). */
  explicit ParallelCopy (ThreadPool *pool) : pool_ (pool) {}

  /* A sensible number of extra workers for a copy-only pool on this
   * machine: a quarter of its cores, at most 3. */
  static unsigned default_workers ();

  /* memcpy of `size` bytes, in chunks of at least `min_chunk`. */
  void copy (void *dst, const void *src, size_t size, size_t min_chunk = 256 * 1024);

  /* `rows` rows of `row_bytes` between two strides. */
  void copy_rows (void *dst, size_t dst_stride, const void *src, size_t src_stride,
      size_t row_bytes, unsigned rows);

 private:
  std::unique_ptr<ThreadPool> own_;
  ThreadPool *pool_;
};

} // namespace gpc
