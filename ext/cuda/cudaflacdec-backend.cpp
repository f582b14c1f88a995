/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * cudaflacdec's choice of backend (cudaflacdec-batch-backend.h): the CPU, or
 * CUDA, or for backend=auto the CPU first and CUDA once it is started on a
 * thread of its own, where it pays. Batches go to the backend that decodes.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaflacdec-private.h"
#include "flac-cuda-policy.h"

#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

namespace gpc {
namespace cudaflacdec {

/* Runs a batch on the backend that decodes. */
GstFlowReturn run_batch_now (GstCudaFlacDec *self, std::unique_ptr<Batch> b)
{
  DecState *st = self->st;
  if (!st->use_cuda && st->cuda_state.load () == DecState::kCudaStarting)
    st->cpu_batches_while_starting++;
  return st->active ()->decode (std::move (b));
}

/* Pushes the batch still being decoded. */
GstFlowReturn finish_in_flight (GstCudaFlacDec *self)
{
  return self->st->active ()->finish ();
}

/* Where a batch's frame bytes go: the backend's. */
uint8_t *batch_input (GstCudaFlacDec *self, Batch &b, size_t bytes, GstFlowReturn *ret)
{
  return self->st->active ()->input (b, bytes, ret);
}

void join_cuda_init (DecState *st)
{
  std::lock_guard<std::mutex> g (st->cuda_init_lock);
  if (st->cuda_init.joinable ())
    st->cuda_init.join ();
}

static void use_cuda_now (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  st->use_cuda = true;
  GST_INFO_OBJECT (self, "decoding on CUDA device %d; unframed input located on the %s", st->device_id,
      st->gpu_locate ? "GPU" : "CPU (locate-on-gpu=false)");
}

static void start_cuda_thread (GstCudaFlacDec *self, DecState *st);

/* backend=auto without a CUDA context at hand: starts CUDA once the CPU's
 * measured rate shows that the GPU would win back its start-up over the
 * rest of the stream (flac-cuda-policy.h); otherwise settles on the CPU. */
static void maybe_start_cuda (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  /* the CPU's share of what the GPU would take over: decoding, and
   * locating the frames of unframed input */
  const double cpu_s = st->stage_s[kStageSubmit] + st->stage_s[kStageLocate];
  const uint64_t total = st->have_info ? st->info.total_samples : 0;
  const double pcm_bytes = st->have_info ?
      (double) st->info.channels * out_format_bytes (out_format_for_bps (st->info.bps)) : 0;
  CudaChoice c = choose_cuda (cpu_s, st->decoded, total, pcm_bytes, st->check_md5 && st->md5_valid);
  if (!c.decided)
    return;
  GST_INFO_OBJECT (self, "CPU decoded %" G_GUINT64_FORMAT " samples in %.3f s; the rest: CPU %.2f s, "
      "GPU bound %.2f s: %s", st->decoded, cpu_s, c.cpu_left_s, c.gpu_bound_s,
      c.start ? "starting CUDA" : "staying on the CPU");
  if (c.start) {
    /* from here on, batches and chunks grow to the GPU's sizes */
    resize_for (self, true);
    if (st->unframed)
      publish_cuda_sizes (self);
    start_cuda_thread (self, st);
    return;
  }
  st->cuda_state = DecState::kCudaIdle; /* and the sizes stay the CPU's */
}

/* The batch and chunk sizes of the properties, or the auto sizes for the
 * backend that decodes (gpu: CUDA, or CUDA once it is started). */
void resize_for (GstCudaFlacDec *self, bool gpu)
{
  DecState *st = self->st;
  BatchSizes s = batch_sizes (gpu, st->batch_frames_prop, st->chunk_size_prop, st->frame_bytes);
  if (s.batch_frames == st->batch_frames && s.chunk_size == st->chunk_size)
    return;
  st->batch_frames = s.batch_frames;
  st->chunk_size = s.chunk_size;
  GST_INFO_OBJECT (self, "sized for the %s: batches of up to %u frames (framed input), chunks of %u bytes "
      "(unframed input)", gpu ? "GPU" : "CPU", st->batch_frames, st->chunk_size);
  update_latency (self);
}

/* Before a batch: takes the CUDA backend once its start-up thread is done,
 * or says that it failed (backend=cuda: an error; auto: a warning, and the
 * CPU decodes on); until then, batches decode on the CPU (for backend=cuda,
 * of live input only: cuda_start_step). backend=auto without a context at
 * hand decides here whether to start CUDA at all. */
GstFlowReturn adopt_cuda_when_ready (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  int state = st->cuda_state.load (std::memory_order_acquire);
  if (state == DecState::kCudaDeferred) {
    if (!st->live)
      maybe_start_cuda (self); /* if started, its thread is then under way */
    return GST_FLOW_OK;
  }
  if (state != DecState::kCudaStarting && state != DecState::kCudaReady && state != DecState::kCudaFailed)
    return GST_FLOW_OK;
  const bool required = st->backend == GST_CUDA_FLAC_DEC_BACKEND_CUDA;
  auto startup = [] (int s) {
    return s == DecState::kCudaStarting ? CudaStartup::kUnderWay
        : s == DecState::kCudaReady ? CudaStartup::kReady : CudaStartup::kFailed;
  };
  CudaStartStep step = cuda_start_step (required, st->live, st->at_eos, startup (state));
  if (step == CudaStartStep::kWait) {
    join_cuda_init (st);
    state = st->cuda_state.load (std::memory_order_acquire);
    step = cuda_start_step (required, st->live, st->at_eos, startup (state));
  }
  if (step == CudaStartStep::kCpu)
    return GST_FLOW_OK;
  join_cuda_init (st);
  if (step == CudaStartStep::kFail) {
    /* once; the state stays failed, so that no batch decodes after it */
    if (st->cuda_error)
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("CUDA backend unavailable"), ("%s", st->cuda_error->message));
    g_clear_error (&st->cuda_error);
    return GST_FLOW_ERROR;
  }
  st->cuda_state = DecState::kCudaIdle;
  if (step == CudaStartStep::kAdopt) {
    GST_INFO_OBJECT (self, "CUDA is ready after %u batch(es) decoded on the CPU", st->cpu_batches_while_starting);
    use_cuda_now (self);
  } else {
    GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND, ("CUDA unavailable, decoding on the CPU"),
        ("%s; using %u CPU threads", st->cuda_error ? st->cuda_error->message : "?", st->cpu->threads ()));
    g_clear_error (&st->cuda_error);
    resize_for (self, false);
  }
  return GST_FLOW_OK;
}

/* Decodes and pushes all that is queued (a drain), and at EOS ends the
 * stream: skipped bytes, corrupt frames and the MD5 reported. A live
 * backend=cuda stream that ends while CUDA is still starting hears here
 * whether it could. */
GstFlowReturn drain_batches (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  GstFlowReturn ret = GST_FLOW_OK;
  if (st->backend == GST_CUDA_FLAC_DEC_BACKEND_CUDA)
    ret = adopt_cuda_when_ready (self);
  if (ret == GST_FLOW_OK)
    ret = st->unframed ? process_chunk (self, true) : flush_queued (self);
  if (ret == GST_FLOW_OK)
    ret = finish_in_flight (self);
  if (st->at_eos && st->unframed)
    ret = end_unframed (self, ret);
  if (st->at_eos) {
    report_error_summary (self);
    check_md5_at_eos (self);
  }
  return ret;
}

/* st is passed in: on backend=auto this runs on a thread of its own, and
 * stop() may already have taken self->st away while it waits for it. */
static bool open_cuda (DecState *st, GError **err)
{
  if (!st->cuda_backend) {
    g_set_error (err, GST_CORE_ERROR, GST_CORE_ERROR_NOT_IMPLEMENTED,
        "this build of cudaflacdec has no CUDA kernels (built without nvcc or gstreamer-cuda)");
    return false;
  }
  return st->cuda_backend->start (err);
}

void reset_stream_state (DecState *st)
{
  for (GstBuffer *b : st->queued)
    gst_buffer_unref (b);
  st->queued.clear ();
  st->queued_hdr.clear ();
  st->queued_samples = 0;
  st->in->reset ();
  st->pending_in = 0;
  st->trim_left = 0;
  st->ramp_frames = FIRST_BATCH_FRAMES;
  st->ramp_chunk = FIRST_CHUNK_SIZE;
  st->reseeking = false;
  st->eos_held = false;
  if (st->cuda_backend)
    st->cuda_backend->discard (); /* the batch still on the GPU */
  if (st->locator)
    st->locator->reset ();
}

/* The CUDA context made on a thread of its own while the CPU decodes. */
static void start_cuda_thread (GstCudaFlacDec *self, DecState *st)
{
  st->cuda_state = DecState::kCudaStarting;
  st->cuda_init = std::thread ([self, st] () {
    GError *err = NULL;
    bool ok = open_cuda (st, &err);
    size_t in = st->prep_in.load (std::memory_order_acquire);
    if (ok && in && !st->stopping.load ()) {
      gint64 t0 = g_get_monotonic_time ();
      bool prepared = st->cuda.prepare (in, st->prep_out.load (), st->prep_format_bytes);
      GST_INFO_OBJECT (self, "CUDA buffers for chunks of %zu bytes and %zu bytes of PCM %s in %.1f ms", in,
          st->prep_out.load (), prepared ? "allocated" : "not allocated", (g_get_monotonic_time () - t0) / 1e3);
    }
    st->cuda_error = err;
    st->cuda_state.store (ok ? DecState::kCudaReady : DecState::kCudaFailed, std::memory_order_release);
  });
  GST_INFO_OBJECT (self, "creating the CUDA context on a thread of its own");
}

/* The backend of `backend`: CUDA, its context made on a thread of its own
 * (cuda, and auto with a context at hand), later where it pays (auto), or
 * none (cpu). False, with an error posted, when backend=cuda cannot be had:
 * no CUDA driver or kernels here; a device or module that fails is told
 * before the first batch (adopt_cuda_when_ready). */
bool start_backends (GstCudaFlacDec *self, DecState *st)
{
  st->cpu_backend = make_cpu_backend (self, st);
  st->cuda_backend = make_cuda_backend (self, st);
  if (st->backend == GST_CUDA_FLAC_DEC_BACKEND_AUTO && CudaDecoder::runtime_available () &&
      CudaDecoder::kernels_built ()) {
    /* a context shared in the pipeline (another CUDA element, or this
     * element's previous stream) costs nothing more to use */
    GstContext *shared = gst_element_get_context (GST_ELEMENT (self), "gst.cuda.context");
    if (shared) {
      gst_context_unref (shared);
      start_cuda_thread (self, st);
    } else {
      st->cuda_state = DecState::kCudaDeferred;
      GST_INFO_OBJECT (self, "the CPU decodes first; CUDA is started if the stream is long enough to pay");
    }
  } else if (st->backend == GST_CUDA_FLAC_DEC_BACKEND_CUDA && st->cuda_backend &&
      CudaDecoder::runtime_available ()) {
    /* live input decodes on the CPU meanwhile (about 0.3 s on the H100
     * host), other input waits for it at its first batch */
    start_cuda_thread (self, st);
  } else if (st->backend != GST_CUDA_FLAC_DEC_BACKEND_CPU) {
    GError *err = NULL;
    if (open_cuda (st, &err)) {
      use_cuda_now (self);
    } else if (st->backend == GST_CUDA_FLAC_DEC_BACKEND_CUDA) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("CUDA backend unavailable"), ("%s", err->message));
      g_error_free (err);
      return false;
    } else {
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND, ("CUDA unavailable, decoding on the CPU"),
          ("%s; using %u CPU threads", err->message, st->cpu->threads ()));
      g_error_free (err);
    }
  }
  return true;
}

#ifndef GPC_HAVE_CUDA_KERNELS
std::unique_ptr<FlacBatchBackend> make_cuda_backend (GstCudaFlacDec *, DecState *)
{
  return nullptr;
}
#endif

} // namespace cudaflacdec
} // namespace gpc
