/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CUDA backend of cudaflacdec: decodes batches of FLAC frames on the GPU
 * with the kernels of flac-kernels.cu (embedded fatbin), through
 * gstreamer-cuda's driver API loader.
 *
 * Two slots, each with its own stream, pinned host buffers and device
 * buffers: submit() queues upload + decode + download of a batch and returns
 * at once; collect() waits for that slot only. The element keeps one batch
 * in flight while it prepares the next, so transfers, kernels and the
 * pipeline overlap without any per-frame synchronisation.
 */
#pragma once

#include <gst/gst.h>

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "flac-cpu-decoder.h"
#include "flac-locator.h"

typedef struct _GstCudaContext GstCudaContext;

namespace gpc {
namespace flac {

class CudaDecoder {
 public:
  static constexpr int kSlots = 2;

  /* Is the CUDA driver loadable (libcuda) and were the kernels built? */
  static bool runtime_available ();
  static bool kernels_built ();

  CudaDecoder ();
  ~CudaDecoder ();

  /* Loads the kernels in ctx (kept referenced). */
  bool open (GstCudaContext *ctx, GError **error);
  void close ();
  bool is_open () const { return module_ != nullptr; }

  /* Host staging buffers (pinned) of a slot, valid until the next submit
   * on that slot: the caller writes the batch's frame bytes here. */
  uint8_t *input (int slot, size_t bytes);

  /* Frame location on the GPU (steps 1 and 2 of flac-locator.h): uploads
   * input(slot)[0, bytes), which the slot's next submit() uses without a
   * second upload, and returns every frame candidate with its end. Waits
   * for this slot's stream only. False when the GPU failed, or when the
   * chunk holds more candidates than the GPU list has room for (about one
   * per 16 bytes): the caller locates on the CPU then. */
  bool locate (int slot, size_t bytes, bool final, const ScanParams &p,
      std::vector<FoundCandidate> *found);

  /* Queues the batch: jobs reference the slot's input(). out_samples is the
   * batch's total duration per channel. */
  bool submit (int slot, const FrameJob *jobs, size_t n, const BatchFormat &fmt,
      size_t out_samples);

  /* Waits for the slot; on success *pcm points at the interleaved output in
   * pinned memory (valid until the next submit on the slot) and statuses
   * of the jobs are written to jobs[i].status. */
  bool collect (int slot, FrameJob *jobs, size_t n, const uint8_t **pcm, size_t *pcm_bytes);

 private:
  struct Slot;

  GstCudaContext *ctx_ = nullptr;
  void *module_ = nullptr; /* CUmodule */
  void *k_decode_ = nullptr, *k_interleave_ = nullptr; /* CUfunction */
  void *k_scan_ = nullptr, *k_ends_ = nullptr;
  Slot *slots_ = nullptr;
};

} // namespace flac
} // namespace gpc
