/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Large memcpy()s split over a few threads. One core copies about 10 GB/s
 * from DRAM: a 4 MB ProRes 2160p HQ frame into the upload buffer would take
 * most of the 0.5 ms a frame may cost at 2000 fps, and a 33 MB decoded frame
 * out of the download buffer 3 ms. The streaming thread takes a share itself.
 */
#pragma once

#include <stddef.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpc {

class ParallelCopy {
 public:
  /* `extra` worker threads besides the caller (0: everything inline). */
  explicit ParallelCopy (unsigned extra);
  ~ParallelCopy ();

  /* A sensible number of workers for this machine (GPC_COPY_THREADS
   * overrides). */
  static unsigned default_workers ();

  /* Runs fn (0 .. n-1), spread over the workers and the caller; returns when
   * all are done. Not reentrant: one caller at a time. */
  void run (unsigned n, const std::function<void (unsigned)> &fn);

  /* memcpy of `size` bytes, in chunks of at least `min_chunk`. */
  void copy (void *dst, const void *src, size_t size, size_t min_chunk = 256 * 1024);

  /* `rows` rows of `row_bytes` between two strides. */
  void copy_rows (void *dst, size_t dst_stride, const void *src, size_t src_stride,
      size_t row_bytes, unsigned rows);

 private:
  void work ();
  void drain_jobs (std::unique_lock<std::mutex> &lock);

  std::vector<std::thread> workers_;
  std::mutex lock_;
  std::condition_variable wake_, done_;
  const std::function<void (unsigned)> *job_ = nullptr;
  unsigned next_ = 0, count_ = 0, pending_ = 0;
  unsigned long generation_ = 0;
  bool quit_ = false;
};

} // namespace gpc
