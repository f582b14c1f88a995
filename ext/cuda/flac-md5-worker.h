/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Computes the STREAMINFO MD5 of the decoded output on a thread of its own.
 * MD5 is sequential, decoding is not: hashing batch N while batch N+1 is
 * decoded keeps the check off the critical path. Buffers are referenced
 * (read-only) until hashed; the queue is bounded so memory stays flat.
 */
#pragma once

#include <gst/gst.h>
#include <stddef.h>
#include <stdint.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "flac-md5.h"

namespace gpc {
namespace flac {

class Md5Worker {
 public:
  Md5Worker ();
  ~Md5Worker ();

  /* Queues buf (a ref is taken) holding samples of container_bytes each,
   * shifted left by shift from their bps-bit values. With channel_map (of
   * `channels` entries), FLAC channel i of each interleaved sample frame is
   * at position channel_map[i] of buf; without it buf is in FLAC order. */
  void push (GstBuffer *buf, unsigned container_bytes, unsigned shift, unsigned bps,
      unsigned channels = 0, const int *channel_map = nullptr);
  /* Waits for every queued buffer, then returns the digest and restarts. */
  void finish (uint8_t digest[16]);
  /* Drops the queue and restarts. */
  void reset ();

 private:
  struct Item {
    GstBuffer *buf;
    unsigned cb, shift, bps;
    size_t size;
    unsigned channels; /* 0: buf is in FLAC order */
    uint8_t map[8];
  };
  void run ();
  void hash (const Item &it, const uint8_t *data, size_t size);

  Md5 md5_;
  std::deque<Item> queue_;
  size_t queued_bytes_ = 0;
  std::mutex mutex_;
  std::condition_variable cv_, idle_cv_;
  bool busy_ = false;
  bool quit_ = false;
  std::thread thread_;
};

} // namespace flac
} // namespace gpc
