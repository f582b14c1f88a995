/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's comparison, GStreamer-pad-free: frame pairs submitted to the GPU
 * (luma imported once, every extractor's kernels in one submission), kept
 * in flight, completed in order into the scorer, which names and scores
 * each frame once its motion2 is known.
 */
#pragma once

#include <deque>
#include <memory>
#include <vector>

#include "compute/gpcvk.h"
#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "vkframeio.h"
#include "vkvmaf-extractor.h"
#include "vmaf-scorer.h"

namespace gpc {

/* Where a frame sits in time, for its messages. */
struct VmafFrameTime {
  GstClockTime pts, stream_time, running_time, duration;
};

/* A scored frame with its time. */
struct VmafScored {
  VmafFrameResult result;
  VmafFrameTime time;
};

class VmafEngine {
 public:
  ~VmafEngine ();

  /* Kernels for what `scorer` needs; false with `error` set. */
  bool start (GstVulkanQueue *queue, VmafScorer *scorer, GError **error);
  /* Waits for the GPU (at most its hang limit) and drops everything; false
   * when the device did not finish. */
  bool stop ();

  /* The inputs' size and luma layout (the same for both); a change ends
   * the motion history (after complete (0, ...)). */
  void configure (const GstVideoInfo *ref, const GstVideoInfo *dist, const LumaLayout &layout);

  /* Records and submits one frame pair; the buffers are only read. */
  bool submit (GstBuffer *ref, GstBuffer *dist, const VmafFrameTime &time, GError **error);

  /* Completes frames, oldest first, while more than `in_flight` are pending
   * or the oldest's fence signalled; scored frames go to `out`. False with
   * `error` (GPU failure, or a frame not done within the device's hang
   * limit). */
  bool complete (guint in_flight, std::vector<VmafScored> &out, GError **error);

  /* Ends the motion history: frames waiting for a successor are scored. */
  void finish (std::vector<VmafScored> &out);

  /* Flush: waits for and drops every pending frame, ends the history. */
  void discard ();

  size_t pending () const { return pending_.size (); }
  uint64_t frames () const { return frames_; }

 private:
  struct Pending {
    GstVulkanFence *fence;
    uint32_t slot;
    VmafFrameWork work;
    VmafFrameTime time;
  };
  void deliver (std::vector<VmafFrameResult> &done, std::vector<VmafScored> &out);

  VmafScorer *scorer_ = nullptr;
  VkExec *exec_ = nullptr;
  std::unique_ptr<VkFrameIO> io_; /* the luma planes the kernels read */
  VmafExtractors extractors_;
  GstVideoInfo ref_info_, dist_info_;
  LumaLayout layout_ = {};
  std::deque<Pending> pending_;
  /* Times of frames completed but not scored yet (motion2 waits for the
   * next frame), by index. */
  std::deque<std::pair<uint64_t, VmafFrameTime>> times_;
  uint64_t submitted_ = 0;  /* frames submitted in this motion history */
  uint64_t frames_ = 0;     /* frames completed in all */
};

} // namespace gpc
