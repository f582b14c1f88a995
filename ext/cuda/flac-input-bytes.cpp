/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-input-bytes.h"

#include <string.h>

#include "gpc-parallel-copy.h"

namespace gpc {
namespace flac {

/* Upstream's buffers are often 1 MiB (filesrc blocksize=1048576) and the
 * copy of each is on the streaming thread's critical path. */
static void copy (ThreadPool *pool, uint8_t *dst, const uint8_t *src, size_t n)
{
  if (n >= 512 * 1024)
    ParallelCopy (pool).copy (dst, src, n);
  else
    memcpy (dst, src, n);
}

bool InputBytes::grow (size_t need)
{
  if (need <= cap_)
    return true;
  size_t want = need + need / 2;
  if (slot_ >= 0) {
    uint8_t *p = cuda_->reserve_input (slot_, want, size_);
    if (!p)
      return false;
    base_ = p;
    cap_ = want;
    return true;
  }
  std::unique_ptr<uint8_t[]> n (new uint8_t[want]); /* not zeroed: it is written before it is read */
  if (size_)
    copy (pool_, n.get (), base_, size_);
  host_ = std::move (n);
  host_cap_ = cap_ = want;
  base_ = host_.get ();
  return true;
}

bool InputBytes::append (const uint8_t *src, size_t n)
{
  if (!grow (size_ + n))
    return false;
  copy (pool_, base_ + size_, src, n);
  size_ += n;
  return true;
}

bool InputBytes::carry_to (int slot, size_t consumed, size_t reserve)
{
  if (consumed > size_)
    consumed = size_;
  size_t left = size_ - consumed;
  if (reserve < left)
    reserve = left;
  if (slot == slot_) {
    drop_front (consumed);
    return grow (reserve);
  }
  uint8_t *dst;
  if (slot >= 0) {
    dst = cuda_->reserve_input (slot, reserve, 0);
    if (!dst)
      return false;
  } else {
    if (host_cap_ < reserve) {
      host_.reset (new uint8_t[reserve]);
      host_cap_ = reserve;
    }
    dst = host_.get ();
  }
  /* never the same memory: slots differ, or host and pinned */
  if (left)
    copy (pool_, dst, base_ + consumed, left);
  base_ = dst;
  size_ = left;
  cap_ = slot >= 0 ? reserve : host_cap_;
  slot_ = slot;
  return true;
}

void InputBytes::drop_front (size_t n)
{
  if (n >= size_) {
    size_ = 0;
    return;
  }
  memmove (base_, base_ + n, size_ - n);
  size_ -= n;
}

void InputBytes::reset ()
{
  slot_ = -1;
  size_ = 0;
  base_ = host_.get ();
  cap_ = host_cap_;
}

} // namespace flac
} // namespace gpc
