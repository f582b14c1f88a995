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
 *
 * Kernels, streams and buffers (for the benchmark's 16-bit stereo stream
 * 250-420 MB of pinned memory in the slots' inputs and two to four output
 * buffers kept for reuse, and about as much on the device) outlive the
 * decoder: close()
 * leaves them with the CUDA context, and the next decoder that opens on the
 * same context takes them instead of allocating and pinning again (pinning
 * costs about 0.5 ms per MiB on the H100 host). They are freed when the
 * context goes. A pipeline keeps its context from one stream to the next,
 * and applications may share one between pipelines.
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

struct CudaResources;

class CudaDecoder {
 public:
  static constexpr int kSlots = 2;

  /* Is the CUDA driver loadable (libcuda) and were the kernels built? */
  static bool runtime_available ();
  static bool kernels_built ();

  CudaDecoder ();
  ~CudaDecoder ();

  /* Loads the kernels in ctx (kept referenced), or takes the resources a
   * closed decoder left with ctx. */
  bool open (GstCudaContext *ctx, GError **error);
  void close ();
  bool is_open () const { return res_ != nullptr; }

  /* Sizes every slot's large buffers for chunks of in_bytes that decode to
   * out_bytes of PCM (out_format_bytes per sample), ahead of the first
   * batch: backend=auto does it on its start-up thread, so that pinning
   * (about 0.5 ms per MiB) does not hold up the streaming thread. */
  bool prepare (size_t in_bytes, size_t out_bytes, unsigned out_format_bytes);

  /* Host staging buffers (pinned) of a slot, valid until the next submit
   * on that slot: the caller writes the batch's frame bytes here. */
  uint8_t *input (int slot, size_t bytes) { return reserve_input (slot, bytes, 0); }
  /* The same, keeping the first `keep` bytes when the buffer must grow. */
  uint8_t *reserve_input (int slot, size_t bytes, size_t keep);

  /* Frame location on the GPU (steps 1 and 2 of flac-locator.h): uploads
   * input(slot)[0, bytes), which the slot's next submit() uses without a
   * second upload, and returns every frame candidate with its end. Waits
   * for this slot's stream only. False when the GPU failed, or when the
   * chunk holds more candidates than the GPU list has room for (about one
   * per 16 bytes): the caller locates on the CPU then. */
  bool locate (int slot, size_t bytes, bool final, const ScanParams &p,
      std::vector<FoundCandidate> *found);

  /* A buffer of `bytes` in pinned memory, for a batch's PCM to go
   * downstream as the GPU wrote it, without a copy; *data is where submit()
   * writes. Null when kMaxOutputBlocks of them are still held downstream
   * (or by the MD5 check): submit() then downloads into the slot's own
   * staging buffer and the caller copies. The buffer keeps the CUDA context
   * alive until it is freed. */
  static constexpr int kMaxOutputBlocks = 4;
  GstBuffer *output_buffer (size_t bytes, uint8_t **data);

  /* Queues the batch: jobs reference the slot's input(). out_samples is the
   * batch's total duration per channel; the PCM goes to out_host (from
   * output_buffer()) or, if null, to the slot's staging buffer. */
  bool submit (int slot, const FrameJob *jobs, size_t n, const BatchFormat &fmt,
      size_t out_samples, uint8_t *out_host = nullptr);

  /* Waits for the slot; on success *pcm points at the interleaved output in
   * pinned memory (submit's out_host, or the staging buffer, valid until
   * the next submit on the slot) and statuses of the jobs are written to
   * jobs[i].status. */
  bool collect (int slot, FrameJob *jobs, size_t n, const uint8_t **pcm, size_t *pcm_bytes);

 private:
  GstCudaContext *ctx_ = nullptr;
  CudaResources *res_ = nullptr;
};

} // namespace flac
} // namespace gpc
