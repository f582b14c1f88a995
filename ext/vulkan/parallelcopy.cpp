/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "parallelcopy.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>

namespace gpc {

ParallelCopy::ParallelCopy (unsigned extra)
{
  for (unsigned i = 0; i < extra; i++)
    workers_.emplace_back ([this] { work (); });
}

ParallelCopy::~ParallelCopy ()
{
  {
    std::lock_guard<std::mutex> g (lock_);
    quit_ = true;
  }
  wake_.notify_all ();
  for (std::thread &t : workers_)
    t.join ();
}

unsigned ParallelCopy::default_workers ()
{
  /* Override (tests, tuning): GPC_COPY_THREADS helper threads. */
  if (const char *env = getenv ("GPC_COPY_THREADS"))
    return std::min (16u, (unsigned) atoi (env));
  /* A quarter of the cores, at most 3 helpers: memory bandwidth, not cores,
   * is what a copy needs, and the machine has other work. */
  const unsigned n = std::thread::hardware_concurrency ();
  return std::min (3u, n / 4);
}

/* Runs jobs until none is left; called with the lock held. */
void ParallelCopy::drain_jobs (std::unique_lock<std::mutex> &lock)
{
  while (job_ && next_ < count_) {
    const unsigned i = next_++;
    const std::function<void (unsigned)> *job = job_;
    lock.unlock ();
    (*job) (i);
    lock.lock ();
    if (--pending_ == 0)
      done_.notify_all ();
  }
}

void ParallelCopy::work ()
{
  std::unique_lock<std::mutex> lock (lock_);
  unsigned long seen = generation_;
  for (;;) {
    wake_.wait (lock, [&] { return quit_ || generation_ != seen; });
    if (quit_)
      return;
    seen = generation_;
    drain_jobs (lock);
  }
}

void ParallelCopy::run (unsigned n, const std::function<void (unsigned)> &fn)
{
  if (n == 0)
    return;
  if (workers_.empty () || n == 1) {
    for (unsigned i = 0; i < n; i++)
      fn (i);
    return;
  }
  std::unique_lock<std::mutex> lock (lock_);
  job_ = &fn;
  next_ = 0;
  count_ = n;
  pending_ = n;
  generation_++;
  wake_.notify_all ();
  drain_jobs (lock);
  done_.wait (lock, [&] { return pending_ == 0; });
  job_ = nullptr;
}

void ParallelCopy::copy (void *dst, const void *src, size_t size, size_t min_chunk)
{
  const size_t parts = std::max<size_t> (1, std::min<size_t> (workers_.size () + 1,
          size / std::max<size_t> (min_chunk, 1)));
  if (parts == 1) {
    memcpy (dst, src, size);
    return;
  }
  /* Chunks of whole cache lines. */
  const size_t chunk = ((size + parts - 1) / parts + 63) & ~(size_t) 63;
  run ((unsigned) parts, [&] (unsigned i) {
    const size_t at = i * chunk;
    if (at < size)
      memcpy ((char *) dst + at, (const char *) src + at, std::min (chunk, size - at));
  });
}

void ParallelCopy::copy_rows (void *dst, size_t dst_stride, const void *src, size_t src_stride,
    size_t row_bytes, unsigned rows)
{
  if (dst_stride == src_stride && row_bytes == src_stride) {
    copy (dst, src, row_bytes * rows);
    return;
  }
  const size_t total = row_bytes * rows;
  const unsigned parts = (unsigned) std::max<size_t> (1, std::min<size_t> (workers_.size () + 1,
          total / (512 * 1024)));
  const unsigned per = (rows + parts - 1) / parts;
  run (parts, [&] (unsigned i) {
    for (unsigned y = i * per; y < rows && y < (i + 1) * per; y++)
      memcpy ((char *) dst + y * dst_stride, (const char *) src + y * src_stride, row_bytes);
  });
}

} // namespace gpc
