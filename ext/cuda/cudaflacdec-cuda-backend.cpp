/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * cudaflacdec's CUDA backend, built with the CUDA kernels only: batches are
 * uploaded, decoded and downloaded on the GPU through the two slots of
 * CudaDecoder, with one batch in flight while the next is prepared.
 * Unframed chunks are gathered straight into a slot's pinned input, where
 * the GPU locates their frames and decodes them from the same upload.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaflacdec-private.h"

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

namespace gpc {
namespace cudaflacdec {

namespace {

class CudaBatchBackend final : public FlacBatchBackend {
 public:
  using FlacBatchBackend::FlacBatchBackend;

  const char *name () const override { return "CUDA"; }

  bool start (GError **err) override
  {
    if (!CudaDecoder::runtime_available ()) {
      g_set_error (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
          "the CUDA driver library (libcuda.so.1) cannot be loaded");
      return false;
    }
    /* The fixed cost of the CUDA backend, logged because it shows in short files. */
    gint64 t0 = g_get_monotonic_time ();
    if (!gst_cuda_ensure_element_context (GST_ELEMENT (self_), st_->device_id, &self_->cuda_ctx)) {
      g_set_error (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
          "no usable CUDA device %d", st_->device_id);
      return false;
    }
    gint64 t1 = g_get_monotonic_time ();
    bool ok = st_->cuda.open (self_->cuda_ctx, err);
    GST_INFO_OBJECT (self_, "CUDA context %.1f ms, kernels loaded %.1f ms", (t1 - t0) / 1e3,
        (g_get_monotonic_time () - t1) / 1e3);
    return ok;
  }

  void stop () override { st_->cuda.close (); }

  uint8_t *input (Batch &b, size_t bytes, GstFlowReturn *ret) override
  {
    *ret = take_slot (&b.slot);
    return *ret == GST_FLOW_OK ? st_->cuda.input (b.slot, MAX (bytes, 1)) : nullptr;
  }

  GstFlowReturn take_chunk () override
  {
    if (st_->in->slot () >= 0)
      return GST_FLOW_OK;
    /* the first chunk since CUDA took over (backend=auto) is in host memory */
    int to;
    GstFlowReturn taken = take_slot (&to);
    if (taken != GST_FLOW_OK)
      return taken;
    StageTimer timer (&st_->stage_s[kStageStage]);
    if (!st_->in->carry_to (to, 0, st_->in->size ())) {
      GST_ELEMENT_ERROR (self_, RESOURCE, FAILED, ("CUDA decoding failed"), ("no pinned memory"));
      return GST_FLOW_ERROR;
    }
    return GST_FLOW_OK;
  }

  bool locate (bool final, LocateResult *lr) override
  {
    if (!st_->gpu_locate)
      return false;
    const size_t size = st_->in->size ();
    if (!st_->cuda.locate (st_->in->slot (), size, final, st_->locator->params ().scan_params (), &st_->found)) {
      GST_DEBUG_OBJECT (self_, "GPU frame location gave up on this chunk: locating on the CPU");
      return false;
    }
    st_->locator->locate_found (st_->in->data (), size, final, st_->found.data (), st_->found.size (), lr);
    return true;
  }

  GstFlowReturn decode (std::unique_ptr<Batch> b) override
  {
    size_t pcm_bytes = b->samples * b->fmt.channels * out_format_bytes (b->fmt.format);
    bool submitted;
    {
      StageTimer timer (&st_->stage_s[kStageSubmit]);
      /* straight into a pinned buffer that goes downstream, where one is free */
      uint8_t *direct = nullptr;
      b->out = st_->cuda.output_buffer (pcm_bytes, &direct);
      submitted = st_->cuda.submit (b->slot, b->jobs.data (), b->jobs.size (), b->fmt, b->samples, direct);
    }
    if (!submitted) {
      GST_ELEMENT_ERROR (self_, RESOURCE, FAILED, ("CUDA decoding failed"), ("submitting a batch failed"));
      return GST_FLOW_ERROR;
    }
    std::unique_ptr<Batch> prev = std::move (in_flight_);
    in_flight_ = std::move (b);
    GstFlowReturn ret = collect_and_push (std::move (prev));
    /* live input: nothing stays on the GPU until the next batch, which may
     * be a frame's duration away */
    if (ret == GST_FLOW_OK && st_->live)
      ret = finish ();
    return ret;
  }

  GstFlowReturn finish () override { return collect_and_push (std::move (in_flight_)); }

  void discard () override
  {
    if (!in_flight_)
      return;
    /* wait for its slot, drop the result */
    const uint8_t *pcm;
    size_t n;
    st_->cuda.collect (in_flight_->slot, in_flight_->jobs.data (), in_flight_->jobs.size (), &pcm, &n);
    in_flight_.reset ();
  }

  GstFlowReturn release_chunk (size_t consumed) override
  {
    if (!in_flight_ || in_flight_->slot != st_->in->slot ()) {
      st_->in->drop_front (consumed);
      return GST_FLOW_OK;
    }
    /* this slot is in flight: the rest gathers the next chunk in the next */
    int next;
    GstFlowReturn ret = take_slot (&next);
    if (ret == GST_FLOW_OK && !st_->in->carry_to (next, consumed, st_->chunk_size + kChunkSlack)) {
      GST_ELEMENT_ERROR (self_, RESOURCE, FAILED, ("CUDA decoding failed"), ("no pinned memory"));
      ret = GST_FLOW_ERROR;
    }
    return ret;
  }

 private:
  /* Waits for a batch on the GPU (if any) and pushes it. */
  GstFlowReturn collect_and_push (std::unique_ptr<Batch> prev)
  {
    if (!prev)
      return GST_FLOW_OK;
    const uint8_t *pcm;
    size_t n;
    bool collected;
    {
      StageTimer timer (&st_->stage_s[kStageWait]);
      collected = st_->cuda.collect (prev->slot, prev->jobs.data (), prev->jobs.size (), &pcm, &n);
    }
    if (!collected) {
      GST_ELEMENT_ERROR (self_, RESOURCE, FAILED, ("CUDA decoding failed"), ("waiting for a batch failed"));
      return GST_FLOW_ERROR;
    }
    return push_batch (self_, *prev, prev->out ? nullptr : pcm, n);
  }

  /* The next slot to fill, once the batch still in flight there (if any)
   * is pushed: its output must not be overwritten. */
  GstFlowReturn take_slot (int *slot)
  {
    *slot = next_slot_;
    next_slot_ = (next_slot_ + 1) % CudaDecoder::kSlots;
    if (in_flight_ && in_flight_->slot == *slot)
      return finish ();
    return GST_FLOW_OK;
  }

  std::unique_ptr<Batch> in_flight_; /* submitted, not yet pushed */
  int next_slot_ = 0;
};

} // namespace

std::unique_ptr<FlacBatchBackend> make_cuda_backend (GstCudaFlacDec *self, DecState *st)
{
  return std::unique_ptr<FlacBatchBackend> (new CudaBatchBackend (self, st));
}

} // namespace cudaflacdec
} // namespace gpc
