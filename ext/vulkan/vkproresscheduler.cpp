/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproresscheduler.h"

#include "compute/gpcvkcompat.h"
#include "compute/gpcvkcopy.h"

#include <vector>

namespace gpc {

/* Status slots: more than frames can be in flight, so that a slot is free
 * again when it comes round. */
static const uint32_t kSlots = 64;

/* What recording a frame's GPU work needs, from its upload to its
 * submission (frames are recorded in batches, see submit()). */
struct ProResScheduler::Job {
  prores::GpuFrameParams fp;
  gsize frame_size, up_size;
  GstBuffer *staging, *input;   /* the upload, host-visible, and its device copy */
  GstBuffer *scratch;           /* AYUV64: decoded planes before packing */
  GstBuffer *out;               /* Vulkan output buffer (NULL for download) */
  GstBuffer *staged_out;        /* download: device planes copied to the host after */
  ProResPlanes planes, outp;
};

/* A buffer handed out by our caches or our pool is free: every GPU access
 * of its previous use has completed, since its holders release it only
 * once their submission's fence has signalled (ours through VkExec::keep,
 * downstream Vulkan elements likewise). Its barriers then need not wait for
 * that work: forgetting the state keeps frames from serialising on the GPU
 * through recycled buffers, so a frame's slices can start while the long
 * slices of the previous frame still run. */
static void
forget_gpu_state (GstVulkanBufferMemory *m)
{
  m->barrier.parent.pipeline_stages = 0;
  m->barrier.parent.access_flags = 0;
}

/* The state of a free buffer about to be used by (stage, access): no
 * barrier needed before, the next user's barrier starts from here. */
static void
claim_gpu_state (VkExec *exec, GstVulkanBufferMemory *m, VkPipelineStageFlags stage,
    VkAccessFlags access)
{
  barrier_set (&m->barrier.parent, stage, access, exec->queue ());
}

ProResDownload prores_host_download (GstBuffer *buffer, const ProResOutConfig &c)
{
  const ProResHostLayout l = prores_host_layout (c);
  ProResDownload d;
  d.buffer = buffer;
  GstVulkanBufferMemory *m = vk_buffer_memory (buffer);
  for (uint32_t p = 0; p < c.n_planes; p++) {
    d.mem[p] = m;
    d.offset[p] = m->parent.offset + l.offset[p];
    d.stride[p] = l.stride[p];
  }
  return d;
}

ProResScheduler *ProResScheduler::create (GstVulkanDevice *device, GstVulkanQueue *queue,
    ParallelCopy *copier, GError **error)
{
  ProResScheduler *s = new ProResScheduler ();
  s->copier_ = copier;
  s->exec_ = VkExec::create (queue, error);
  if (s->exec_)
    s->kernel_ = VkProResKernel::create (device, error);
  if (s->kernel_)
    s->status_ = vk_storage_alloc (device, kSlots * 16, true, error);
  if (s->status_ && !gst_memory_map (s->status_, &s->status_map_,
          (GstMapFlags) (GST_MAP_READ | GST_MAP_WRITE))) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "could not map the status buffer");
    gst_memory_unref (s->status_);
    s->status_ = nullptr;
  }
  if (!s->status_) {
    delete s;
    return nullptr;
  }
  s->device_cache_ = new VkBufferCache (device, false);
  s->staging_cache_ = new VkBufferCache (device, true);
  return s;
}

ProResScheduler::~ProResScheduler ()
{
  if (exec_)
    exec_->wait_idle ();
  delete device_cache_;
  delete staging_cache_;
  if (status_) {
    gst_memory_unmap (status_, &status_map_);
    gst_memory_unref (status_);
  }
  delete exec_;
  delete kernel_;
}

ProResPacing ProResPacing::choose (bool live, int in_flight_prop, int batch_prop)
{
  ProResPacing p;
  p.in_flight = in_flight_prop != kAuto ? (uint32_t) in_flight_prop :
      live ? kLiveInFlight : kThroughputInFlight;
  p.batch = batch_prop != kAuto ? (uint32_t) MAX (batch_prop, 1) :
      live ? kLiveBatch : kThroughputBatch;
  return p;
}

void ProResScheduler::set_pacing (const ProResPacing &pacing)
{
  in_flight_ = pacing.in_flight;
  batch_ = MAX (pacing.batch, 1u);
}

void ProResScheduler::trim ()
{
  device_cache_->trim ();
  kernel_->trim ();
}

void ProResScheduler::free_job (Job *job)
{
  if (!job)
    return;
  gst_clear_buffer (&job->staging);
  gst_clear_buffer (&job->input);
  gst_clear_buffer (&job->scratch);
  gst_clear_buffer (&job->staged_out);
  delete job;
}

void ProResScheduler::release (Pending &p)
{
  if (p.fence)
    gst_vulkan_fence_unref (p.fence);
  p.fence = NULL;
  free_job (p.job);
  p.job = NULL;
  gst_clear_buffer (&p.download.buffer);
}

bool ProResScheduler::queue (void *frame, const uint8_t *data, size_t size,
    const prores::Frame &parsed, const ProResOutConfig &c, prores::IdctFlavor idct,
    GstBuffer *vk_out, const ProResDownload *download, GError **error)
{
  prores::GpuFrameParams fp;
  std::vector<prores::GpuSliceDesc> slices;
  prores::build_gpu_layout (parsed, c.depth, !c.alpha, idct, &fp, &slices);

  /* Where the planes go: the output buffer's storage buffers (padded
   * layout), or device memory in the cropped host layout that one transfer
   * then copies to `download`; for AYUV64 the kernel decodes into scratch
   * planes that are packed after. */
  ProResPlanes outp = { };
  ProResPlanes planes = { };
  GstBuffer *scratch = NULL, *staged_out = NULL;
  if (vk_out) {
    ProResGpuLayout l = prores_vk_output_layout (c);
    if (gst_buffer_n_memory (vk_out) < c.n_planes) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
          "output buffer has %u memories, %u planes needed", gst_buffer_n_memory (vk_out),
          c.n_planes);
      return false;
    }
    for (guint32 p = 0; p < c.n_planes; p++) {
      GstMemory *m = gst_buffer_peek_memory (vk_out, p);
      if (!vk_is_storage_buffer (m) || gst_memory_get_sizes (m, NULL, NULL) < l.size[p]
          || (m->offset % 4) != 0) {
        g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
            "output plane %u is not a large enough storage buffer", p);
        return false;
      }
      outp.mem[p] = (GstVulkanBufferMemory *) m;
      forget_gpu_state (outp.mem[p]);
      outp.offset[p] = (guint32) (m->offset / 4);
      outp.stride[p] = l.stride[p] / 4;
      outp.row_words[p] = l.stride[p] / 4;
    }
    outp.rows = l.rows;
  } else {
    /* Decoded to device memory, then one transfer to the host: 784 fps at
     * 2160p HQ on the H100 against 132 with the kernel writing host memory
     * itself (docs/performance.md). */
    const ProResHostLayout l = prores_host_layout (c);
    for (guint32 p = 0; p < c.n_planes; p++)
      forget_gpu_state (download->mem[p]);
    staged_out = device_cache_->acquire (l.size, error);
    if (!staged_out)
      return false;
    GstVulkanBufferMemory *m = vk_buffer_memory (staged_out);
    forget_gpu_state (m);
    for (guint32 p = 0; p < c.n_planes; p++) {
      outp.mem[p] = m;
      outp.offset[p] = l.offset[p] / 4;
      outp.stride[p] = l.stride[p] / 4;
      outp.row_words[p] = l.stride[p] / 4;
    }
    outp.rows = c.height;
  }
  if (c.pack_ayuv64) {
    ProResGpuLayout l = prores_gpu_layout (fp, c.decode_planes);
    gsize total = 0;
    for (guint32 p = 0; p < c.decode_planes; p++)
      total += l.size[p];
    scratch = device_cache_->acquire (total, error);
    if (!scratch) {
      gst_clear_buffer (&staged_out);
      return false;
    }
    forget_gpu_state (vk_buffer_memory (scratch));
    gsize at = 0;
    for (guint32 p = 0; p < c.decode_planes; p++) {
      planes.mem[p] = vk_buffer_memory (scratch);
      planes.offset[p] = (guint32) (at / 4);
      planes.stride[p] = planes.row_words[p] = l.stride[p] / 4;
      at += l.size[p];
    }
    planes.rows = l.rows;
  } else {
    planes = outp;
  }

  /* The one upload: params, slice records and the frame's bytes. The
   * kernel reads a device-local copy (bench-vkproresdec also times it
   * reading the host-visible upload itself). */
  const gsize up_size = VkProResKernel::upload_size (slices.size (), size);
  GstBuffer *staging = staging_cache_->acquire (up_size, error);
  GstBuffer *input = staging ? device_cache_->acquire (up_size, error) : NULL;
  GstMapInfo map;
  if (input && !gst_memory_map (gst_buffer_peek_memory (staging, 0), &map, GST_MAP_WRITE)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_WRITE,
        "could not map the upload buffer");
    gst_clear_buffer (&input);
  }
  if (!input) {
    gst_clear_buffer (&staging);
    gst_clear_buffer (&scratch);
    gst_clear_buffer (&staged_out);
    return false;
  }
  VkProResKernel::fill_upload (map.data, fp, slices, data, size, copier_);
  gst_memory_unmap (gst_buffer_peek_memory (staging, 0), &map);

  Job *job = new Job { fp, size, up_size, staging, input, scratch, vk_out, staged_out, planes,
      outp };
  const guint32 slot = (guint32) (submitted_++ % kSlots);
  config_ = c;
  ProResDownload d;
  if (download) {
    d = *download;
    gst_buffer_ref (d.buffer);
  }
  pending_.push_back ({ frame, NULL, slot, fp.num_slices, d, job });
  unsubmitted_++;
  return true;
}

/* Records the frames not yet submitted (the tail of the queue) as one
 * command buffer: every upload copy, one barrier, every frame's dispatch
 * back to back (nothing between them: they overlap on the GPU), the
 * downloads, one barrier to the host. They share its fence. */
bool ProResScheduler::submit (bool full_only, const DropFn &drop, GError **error)
{
  if (unsubmitted_ == 0 || (full_only && unsubmitted_ < batch_))
    return true;
  VkExec *exec = exec_;
  const size_t first = pending_.size () - unsubmitted_;
  const ProResOutConfig &c = config_;

  exec->collect ();
  bool ok = exec->begin (error);
  const bool begun = ok;
  for (size_t i = first; ok && i < pending_.size (); i++) {
    Job *job = pending_[i].job;
    GstVulkanBufferMemory *smem = vk_buffer_memory (job->staging);
    GstVulkanBufferMemory *dmem = vk_buffer_memory (job->input);
    /* Host writes are visible to the submission that follows them, and
     * both buffers are free (see forget_gpu_state): no barrier before. */
    claim_gpu_state (exec, smem, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    claim_gpu_state (exec, dmem, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    exec->copy (smem, 0, dmem, 0, job->up_size);
  }
  if (ok) {
    exec->global_barrier (VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    for (size_t i = first; i < pending_.size (); i++)
      claim_gpu_state (exec, vk_buffer_memory (pending_[i].job->input),
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  }
  /* Split path: the frames' first passes together, then their second
   * passes (see VkProResKernel::begin_batch); not with AYUV64, whose
   * packing reads each frame's planes right after its decoding. */
  if (!c.pack_ayuv64)
    kernel_->begin_batch ();
  for (size_t i = first; ok && i < pending_.size (); i++) {
    Pending &f = pending_[i];
    Job *job = f.job;
    ok = kernel_->record (exec, vk_buffer_memory (job->input), job->fp, job->frame_size,
        job->planes, (GstVulkanBufferMemory *) status_, f.slot, (guint32 *) status_map_.data,
        error, false);
    if (ok && job->scratch)
      ok = kernel_->record_pack_ayuv64 (exec, job->planes, job->outp.mem[0], job->outp.offset[0],
          job->outp.stride[0], c.width, c.height, error);
    exec->keep (GST_MINI_OBJECT_CAST (job->staging));
    exec->keep (GST_MINI_OBJECT_CAST (job->input));
    if (job->scratch)
      exec->keep (GST_MINI_OBJECT_CAST (job->scratch));
  }
  if (!kernel_->end_batch (exec, ok ? error : NULL))
    ok = false;
  for (size_t i = first; ok && i < pending_.size (); i++) {
    Pending &f = pending_[i];
    Job *job = f.job;
    if (job->staged_out) {
      /* The decoded planes to the host, a transfer each (one region a
       * plane where the strides agree). */
      GstVulkanBufferMemory *src = vk_buffer_memory (job->staged_out);
      const ProResHostLayout l = prores_host_layout (c);
      const ProResDownload &d = f.download;
      exec->barrier (src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      for (guint32 p = 0; p < c.n_planes; p++)
        claim_gpu_state (exec, d.mem[p], VK_PIPELINE_STAGE_TRANSFER_BIT,
            VK_ACCESS_TRANSFER_WRITE_BIT);
      for (guint32 p = 0; p < c.n_planes; p++)
        vk_copy_rows (exec, src, l.offset[p], l.stride[p], d.mem[p], d.offset[p], d.stride[p],
            c.row_bytes[p], c.height);
      exec->keep (GST_MINI_OBJECT_CAST (job->staged_out));
    }
    exec->keep (GST_MINI_OBJECT_CAST (f.download.buffer ? f.download.buffer : job->out));
  }
  if (ok) {
    /* Status slots and downloads to the host, once for the batch. */
    exec->global_barrier (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
        VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    claim_gpu_state (exec, (GstVulkanBufferMemory *) status_, VK_PIPELINE_STAGE_HOST_BIT,
        VK_ACCESS_HOST_READ_BIT);
    for (size_t i = first; i < pending_.size (); i++) {
      const ProResDownload &d = pending_[i].download;
      for (guint32 p = 0; d.buffer && p < c.n_planes; p++)
        claim_gpu_state (exec, d.mem[p], VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    }
  }
  GstVulkanFence *fence = NULL;
  if (begun)
    fence = exec->submit (ok ? error : NULL);
  if (!ok || !fence) {
    if (fence)
      gst_vulkan_fence_unref (fence);
    if (error && !*error)
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED, "submission failed");
    for (; unsubmitted_ > 0; unsubmitted_--) {
      Pending f = pending_.back ();
      pending_.pop_back ();
      release (f);
      drop (f.frame);
    }
    return false;
  }
  for (size_t i = first; i < pending_.size (); i++) {
    Pending &f = pending_[i];
    f.fence = gst_vulkan_fence_ref (fence);
    free_job (f.job);         /* its buffers are the exec's until the fence */
    f.job = NULL;
  }
  gst_vulkan_fence_unref (fence);
  unsubmitted_ = 0;
  return true;
}

bool ProResScheduler::oldest_due () const
{
  const Pending &oldest = pending_.front ();
  return pending_.size () > in_flight_ ||
      (oldest.fence && gst_vulkan_fence_is_signaled (oldest.fence));
}

bool ProResScheduler::complete_oldest (Done *done, const DropFn &drop, GError **error)
{
  if (!pending_.front ().fence && !submit (false, drop, error))
    return false;
  Pending f = pending_.front ();
  pending_.pop_front ();
  if (!exec_->wait (f.fence, exec_->hang_limit_ns (), error)) {
    release (f);
    drop (f.frame);
    return false;
  }
  /* What the finished submissions kept goes now: an output buffer the
   * base class does not hold alone is copied on the way out, which would
   * take it out of its pool. */
  exec_->collect ();
  const guint32 *s = (const guint32 *) status_map_.data + 4 * f.slot;
  *done = { f.frame, f.download.buffer, f.num_slices, s[0], s[1] ? s[1] - 1 : 0, s[2] };
  f.download.buffer = NULL;     /* handed over */
  release (f);
  return true;
}

void ProResScheduler::discard (const DropFn &drop)
{
  unsubmitted_ = 0;
  while (!pending_.empty ()) {
    Pending f = pending_.front ();
    pending_.pop_front ();
    if (f.fence)
      exec_->wait (f.fence, exec_->hang_limit_ns (), NULL);
    release (f);
    drop (f.frame);
  }
}

} // namespace gpc
