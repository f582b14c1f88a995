/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkproresdec's frames on their way through the GPU: each frame's upload
 * and output planes prepared, frames recorded and submitted in batches
 * (one command buffer, their decoding overlapping on the GPU), a window of
 * frames in flight, and frames finished in order with their status slot
 * (how many slices failed). GStreamer's decoder logic stays in the element:
 * a frame is an opaque pointer here.
 */
#pragma once

#include <deque>
#include <functional>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "gpc-parallel-copy.h"
#include "vkproreskernel.h"
#include "vkproresoutput.h"

namespace gpc {

/* How many frames are in flight and how many go in one submission. What
 * the properties left at kAuto mean: upstream not live, throughput, as
 * measured on the H100 (docs/performance.md): 16-frame batches let the
 * split path's serial first passes of many frames run at once (2160p HQ:
 * 789 fps with batches of 1, 2211 with 16). Upstream live: the fewest
 * frames that keep the GPU busy, one frame a submission and two in flight
 * (one decoding while the next is uploaded). The element reports
 * in_flight frames of latency. */
struct ProResPacing {
  static const int kAuto = -1;
  static const uint32_t kMaxInFlight = 32;
  static const uint32_t kThroughputInFlight = 32, kThroughputBatch = 16;
  static const uint32_t kLiveInFlight = 2, kLiveBatch = 1;

  uint32_t in_flight = kThroughputInFlight;
  uint32_t batch = kThroughputBatch;

  /* From the properties (kAuto or a count) and upstream's liveness. */
  static ProResPacing choose (bool live, int in_flight_prop, int batch_prop);
  bool operator!= (const ProResPacing &o) const {
    return in_flight != o.in_flight || batch != o.batch;
  }
};

/* Where a system-memory frame is downloaded: plane by plane into
 * host-visible Vulkan buffer memories of the decoder's device that
 * transfers may write, at byte offsets into their VkBuffers, with their
 * strides. `buffer` holds them; it is given back with the finished frame. */
struct ProResDownload {
  GstBuffer *buffer = nullptr;
  GstVulkanBufferMemory *mem[GST_VIDEO_MAX_PLANES] = {};
  gsize offset[GST_VIDEO_MAX_PLANES] = {};
  gsize stride[GST_VIDEO_MAX_PLANES] = {};
};

/* `buffer`'s one memory in the host layout of `c` (prores_host_layout). */
ProResDownload prores_host_download (GstBuffer *buffer, const ProResOutConfig &c);

class ProResScheduler {
 public:
  /* A frame the scheduler gives back: finished, or dropped by drop(). */
  using DropFn = std::function<void (void *frame)>;
  struct Done {
    void *frame;
    GstBuffer *download;        /* its download's buffer (a reference) when queued with one */
    uint32_t slices;            /* of both fields */
    uint32_t failed;            /* slices that failed to decode */
    uint32_t first_failed;      /* the first of them */
    uint32_t code;              /* its status (shaders/prores_io.glsl) */
  };

  static ProResScheduler *create (GstVulkanDevice *device, GstVulkanQueue *queue,
      ParallelCopy *copier, GError **error);
  /* Waits for the GPU; frames still queued must have been discarded. */
  ~ProResScheduler ();

  /* Frames in flight (the window; 0: wait for each) and per submission. */
  void set_pacing (const ProResPacing &pacing);

  /* Prepares `frame`'s GPU work as `c` lays it out: decoding into the
   * planes of `vk_out` (memory:VulkanBuffer output, prores_vk_output_layout),
   * or, with `download`, into device memory in the host layout and then
   * transfers there. False (error set): not queued. */
  bool queue (void *frame, const uint8_t *data, size_t size, const prores::Frame &parsed,
      const ProResOutConfig &c, prores::IdctFlavor idct, GstBuffer *vk_out,
      const ProResDownload *download, GError **error);
  /* Records and submits the frames queued since the last submission, all
   * of them or (full_only) once they make a batch. False (error set): those
   * frames were given to drop. */
  bool submit (bool full_only, const DropFn &drop, GError **error);

  bool empty () const { return pending_.empty (); }
  /* Whether the oldest frame is due: the window is full, or it is done. */
  bool oldest_due () const;
  /* Waits for the oldest frame (submitting its batch first) and gives it
   * back. False (error set): the device failed; the frames concerned were
   * given to drop. */
  bool complete_oldest (Done *done, const DropFn &drop, GError **error);
  /* Gives every frame to drop once the GPU is done with it (flush, stop). */
  void discard (const DropFn &drop);
  /* Drops free buffers (after a size change). */
  void trim ();

 private:
  struct Job;
  struct Pending {
    void *frame;
    GstVulkanFence *fence;      /* NULL until its batch is submitted */
    uint32_t slot;
    uint32_t num_slices;
    ProResDownload download;    /* its buffer a reference, or NULL */
    Job *job;                   /* until submitted */
  };
  ProResScheduler () {}
  static void free_job (Job *job);
  static void release (Pending &p);

  VkExec *exec_ = nullptr;
  VkProResKernel *kernel_ = nullptr;
  VkBufferCache *device_cache_ = nullptr;
  VkBufferCache *staging_cache_ = nullptr;
  ParallelCopy *copier_ = nullptr;
  GstMemory *status_ = nullptr;  /* kSlots x 4 words, host-visible, mapped */
  GstMapInfo status_map_ = {};
  uint64_t submitted_ = 0;
  uint32_t in_flight_ = 32, batch_ = 16;
  uint32_t unsubmitted_ = 0;     /* the newest frames, in no submission yet */
  ProResOutConfig config_;       /* of the frames queued (a change drains them first) */
  std::deque<Pending> pending_;
};

} // namespace gpc
