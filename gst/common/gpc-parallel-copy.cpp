/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-parallel-copy.h"

#include <string.h>

#include <algorithm>

namespace gpc {

ParallelCopy::ParallelCopy (unsigned extra)
    : own_ (new ThreadPool (extra + 1)), pool_ (own_.get ())
{
}

unsigned ParallelCopy::default_workers ()
{
  /* A quarter of the cores, at most 3 helpers: memory bandwidth, not cores,
   * is what a copy needs, and the machine has other work. */
  const unsigned n = std::thread::hardware_concurrency ();
  return std::min (3u, n / 4);
}

void ParallelCopy::copy (void *dst, const void *src, size_t size, size_t min_chunk)
{
  const size_t parts = std::max<size_t> (1, std::min<size_t> (pool_->size (),
          size / std::max<size_t> (min_chunk, 1)));
  if (parts == 1) {
    memcpy (dst, src, size);
    return;
  }
  /* Chunks of whole cache lines. */
  const size_t chunk = ((size + parts - 1) / parts + 63) & ~(size_t) 63;
  pool_->parallel_for (parts, [&] (size_t i, unsigned) {
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
  const unsigned parts = (unsigned) std::max<size_t> (1, std::min<size_t> (pool_->size (),
          total / (512 * 1024)));
  const unsigned per = (rows + parts - 1) / parts;
  pool_->parallel_for (parts, [&] (size_t i, unsigned) {
    for (unsigned y = (unsigned) i * per; y < rows && y < ((unsigned) i + 1) * per; y++)
      memcpy ((char *) dst + y * dst_stride, (const char *) src + y * src_stride, row_bytes);
  });
}

} // namespace gpc
