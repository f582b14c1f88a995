/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkvmaf-engine.h"

#include <algorithm>

namespace gpc {

VmafEngine::~VmafEngine ()
{
  stop ();
}

bool
VmafEngine::start (GstVulkanQueue *queue, VmafScorer *scorer, GError **error)
{
  scorer_ = scorer;
  exec_ = VkExec::create (queue, error);
  if (!exec_)
    return false;
  GstVulkanDevice *device = queue->device;
  if (!vmaf_extractors (device, scorer->needs (), VifKernelOptions (), &extractors_, error))
    return false;
  io_.reset (new VkFrameIO (device));
  submitted_ = frames_ = 0;
  return true;
}

bool
VmafEngine::stop ()
{
  bool ok = true;
  for (Pending &p : pending_)
    gst_vulkan_fence_unref (p.fence);
  pending_.clear ();
  times_.clear ();
  if (exec_)
    ok = exec_->wait_idle (exec_->hang_limit_ns ());
  /* Extractors first: their result memories and history hold GPU buffers. */
  extractors_.clear ();
  io_.reset ();
  delete exec_;
  exec_ = nullptr;
  return ok;
}

void
VmafEngine::configure (const GstVideoInfo *ref, const GstVideoInfo *dist, const LumaLayout &layout)
{
  const bool changed = submitted_ > 0 && (GST_VIDEO_INFO_WIDTH (ref) != GST_VIDEO_INFO_WIDTH (&ref_info_)
      || GST_VIDEO_INFO_HEIGHT (ref) != GST_VIDEO_INFO_HEIGHT (&ref_info_));
  ref_info_ = *ref;
  dist_info_ = *dist;
  layout_ = layout;
  if (changed) {
    /* The caller completed every pending frame: start a new history. */
    std::vector<VmafScored> none;
    finish (none);
    io_->trim ();
  }
}

bool
VmafEngine::submit (GstBuffer *ref, GstBuffer *dist, const VmafFrameTime &time, GError **error)
{
  const MotionOptions &mo = scorer_->needs ().motion_options;
  /* The scorer has seen the frames completed so far; the ones in flight
   * come after them. */
  const uint64_t index = scorer_->frames_seen () + pending_.size ();
  const uint64_t in_history = submitted_;
  VmafFrameWork work;
  work.sad = scorer_->needs ().motion && !mo.force_zero && in_history >= mo.min_index ();
  work.sad_distance = mo.five_frame_window ? 2 : 1;
  work.spatial = index % scorer_->subsample () == 0;
  const uint32_t slot = (uint32_t) (index % kVmafSlots);

  VmafPair pair;
  pair.layout = layout_;
  pair.width = GST_VIDEO_INFO_WIDTH (&ref_info_);
  pair.height = GST_VIDEO_INFO_HEIGHT (&ref_info_);
  exec_->collect ();
  if (!exec_->begin (error))
    return false;
  const PlaneSpec ref_spec = luma_plane_spec (layout_, &ref_info_);
  const PlaneSpec dist_spec = luma_plane_spec (layout_, &dist_info_);
  bool ok = io_->import (exec_, ref, &ref_info_, &ref_spec, 1, &pair.ref, error)
      && io_->import (exec_, dist, &dist_info_, &dist_spec, 1, &pair.dist, error);
  ok = ok && vmaf_record_frame (exec_, extractors_, pair, work, slot, error);
  /* A failed recording is submitted empty-handed, so that what it kept is
   * released with its fence. */
  GstVulkanFence *fence = exec_->submit (ok ? error : NULL);
  pair.ref.clear ();
  pair.dist.clear ();
  if (!ok || !fence) {
    if (fence)
      gst_vulkan_fence_unref (fence);
    return false;
  }
  pending_.push_back ({ fence, slot, work, time });
  submitted_++;
  return true;
}

void
VmafEngine::deliver (std::vector<VmafFrameResult> &done, std::vector<VmafScored> &out)
{
  for (VmafFrameResult &r : done) {
    VmafFrameTime t = { GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE,
      GST_CLOCK_TIME_NONE };
    while (!times_.empty () && times_.front ().first <= r.index) {
      if (times_.front ().first == r.index)
        t = times_.front ().second;
      times_.pop_front ();
    }
    out.push_back ({ std::move (r), t });
  }
  done.clear ();
}

bool
VmafEngine::complete (guint in_flight, std::vector<VmafScored> &out, GError **error)
{
  std::vector<VmafFrameResult> done;
  while (!pending_.empty ()) {
    Pending &p = pending_.front ();
    if (pending_.size () <= in_flight && !gst_vulkan_fence_is_signaled (p.fence))
      break;
    const bool ok = exec_->wait (p.fence, exec_->hang_limit_ns (), error);
    gst_vulkan_fence_unref (p.fence);
    if (!ok) {
      pending_.pop_front ();
      return false;
    }
    uint64_t sad = 0;
    VmafSpatial spatial;
    for (auto &e : extractors_)
      e->collect (p.slot, p.work, &sad, &spatial);
    times_.emplace_back (scorer_->frames_seen (), p.time);
    scorer_->add_frame (sad, spatial, GST_VIDEO_INFO_WIDTH (&ref_info_),
        GST_VIDEO_INFO_HEIGHT (&ref_info_), done);
    frames_++;
    pending_.pop_front ();
    deliver (done, out);
  }
  return true;
}

void
VmafEngine::finish (std::vector<VmafScored> &out)
{
  std::vector<VmafFrameResult> done;
  scorer_->finish (done);
  deliver (done, out);
  times_.clear ();
  for (auto &e : extractors_)
    e->reset ();
  submitted_ = 0;
}

void
VmafEngine::discard ()
{
  for (Pending &p : pending_) {
    exec_->wait (p.fence, exec_->hang_limit_ns (), NULL);
    gst_vulkan_fence_unref (p.fence);
  }
  pending_.clear ();
  std::vector<VmafScored> dropped;
  finish (dropped);
}

} // namespace gpc
