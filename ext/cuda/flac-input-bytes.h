/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The unframed input of cudaflacdec that waits to be located and decoded.
 * It lives in host memory while the CPU decodes; once CUDA decodes, it is
 * gathered straight into the pinned input of the CUDA slot that will decode
 * it, so that each byte is copied once on its way from upstream's buffer to
 * the GPU (twice before: into a host vector, then into pinned memory, about
 * 0.13 s of the streaming thread for the 400 MB benchmark file on the H100
 * host). Copies of large buffers are spread over the decoder's threads.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <memory>

#include "flac-cuda-decoder.h"
#include "gpc-threadpool.h"

namespace gpc {
namespace flac {

class InputBytes {
 public:
  InputBytes (CudaDecoder *cuda, ThreadPool *pool) : cuda_ (cuda), pool_ (pool) {}

  uint8_t *data () { return base_; }
  size_t size () const { return size_; }
  bool empty () const { return size_ == 0; }
  /* The CUDA slot whose pinned input holds the bytes, or -1 (host memory). */
  int slot () const { return slot_; }

  /* Appends n bytes; false when pinned memory cannot grow. */
  bool append (const uint8_t *src, size_t n);

  /* Moves the bytes from `consumed` on to the start of `slot`'s pinned
   * input (slot -1: host memory), with room for `reserve` bytes in all. The
   * slot's previous batch must be collected. */
  bool carry_to (int slot, size_t consumed, size_t reserve);

  /* Drops the first n bytes, where they are. */
  void drop_front (size_t n);
  void clear () { size_ = 0; }
  /* Back to host memory, empty (flush, stop). */
  void reset ();

 private:
  bool grow (size_t need);

  CudaDecoder *cuda_;
  ThreadPool *pool_;
  std::unique_ptr<uint8_t[]> host_;
  size_t host_cap_ = 0;
  uint8_t *base_ = nullptr;
  size_t size_ = 0, cap_ = 0;
  int slot_ = -1;
};

} // namespace flac
} // namespace gpc
