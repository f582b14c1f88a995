/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-md5-worker.h"

#include <string.h>

namespace gpc {
namespace flac {

/* The MD5 is the slower side of a verified decode: what waits for it is
 * bounded (by bytes: a CUDA batch is tens of MB) so that memory stays a few
 * batches deep instead of growing toward the whole stream's PCM. */
static const size_t kMaxQueued = 64;
static const size_t kMaxQueuedBytes = 128u << 20;

Md5Worker::Md5Worker () : thread_ ([this] { run (); }) {}

Md5Worker::~Md5Worker ()
{
  {
    std::lock_guard<std::mutex> lk (mutex_);
    quit_ = true;
  }
  cv_.notify_all ();
  thread_.join ();
  for (Item &it : queue_)
    gst_buffer_unref (it.buf);
}

void Md5Worker::run ()
{
  std::unique_lock<std::mutex> lk (mutex_);
  for (;;) {
    cv_.wait (lk, [&] { return quit_ || !queue_.empty (); });
    if (quit_)
      return;
    Item it = queue_.front ();
    queue_.pop_front ();
    queued_bytes_ -= it.size;
    busy_ = true;
    idle_cv_.notify_all (); /* room in the queue */
    lk.unlock ();
    GstMapInfo map;
    if (gst_buffer_map (it.buf, &map, GST_MAP_READ)) {
      hash (it, map.data, map.size);
      gst_buffer_unmap (it.buf, &map);
    }
    gst_buffer_unref (it.buf);
    lk.lock ();
    busy_ = false;
    idle_cv_.notify_all ();
  }
}

/* Runs on the worker thread, without the lock. */
void Md5Worker::hash (const Item &it, const uint8_t *data, size_t size)
{
  if (!it.channels) {
    md5_.update_samples (data, size / it.cb, it.cb, it.shift, it.bps);
    return;
  }
  /* back to FLAC order, a few thousand sample frames at a time */
  const size_t frame = (size_t) it.channels * it.cb;
  uint8_t tmp[16384];
  const size_t per_chunk = sizeof (tmp) / frame;
  const size_t frames = size / frame;
  for (size_t f = 0; f < frames;) {
    size_t n = MIN (per_chunk, frames - f);
    for (size_t k = 0; k < n; k++) {
      const uint8_t *src = data + (f + k) * frame;
      uint8_t *dst = tmp + k * frame;
      for (unsigned c = 0; c < it.channels; c++)
        memcpy (dst + c * it.cb, src + it.map[c] * it.cb, it.cb);
    }
    md5_.update_samples (tmp, n * it.channels, it.cb, it.shift, it.bps);
    f += n;
  }
}

void Md5Worker::push (GstBuffer *buf, unsigned container_bytes, unsigned shift, unsigned bps,
    unsigned channels, const int *channel_map)
{
  std::unique_lock<std::mutex> lk (mutex_);
  idle_cv_.wait (lk, [&] {
    return queue_.empty () || (queue_.size () < kMaxQueued && queued_bytes_ < kMaxQueuedBytes);
  });
  size_t size = gst_buffer_get_size (buf);
  queued_bytes_ += size;
  Item it { gst_buffer_ref (buf), container_bytes, shift, bps, size, 0, {} };
  if (channel_map && channels <= G_N_ELEMENTS (it.map)) {
    it.channels = channels;
    for (unsigned c = 0; c < channels; c++)
      it.map[c] = (uint8_t) channel_map[c];
  }
  queue_.push_back (it);
  cv_.notify_one ();
}

void Md5Worker::finish (uint8_t digest[16])
{
  std::unique_lock<std::mutex> lk (mutex_);
  idle_cv_.wait (lk, [&] { return queue_.empty () && !busy_; });
  md5_.finish (digest);
}

void Md5Worker::reset ()
{
  std::unique_lock<std::mutex> lk (mutex_);
  for (Item &it : queue_)
    gst_buffer_unref (it.buf);
  queue_.clear ();
  queued_bytes_ = 0;
  idle_cv_.wait (lk, [&] { return !busy_; });
  md5_.reset ();
}

} // namespace flac
} // namespace gpc
