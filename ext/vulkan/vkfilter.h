/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the Vulkan filters (vkvmafmotion, vkvvcalf, vkrgbaconvert) share
 * beyond their pending-frame queue: the state that crosses threads
 * (negotiated caps, frames in flight, liveness), the GPU time-out and how
 * a fence that fails becomes an element error.
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include "gpcvk.h"
#include "gpcvkexec.h"

namespace gpc {

/* Waits for `fence` at most exec.hang_limit_ns(). A failure posts a
 * GST_ELEMENT_ERROR on `element` that says whether the device timed out
 * or failed while `doing` (e.g. "filtering"), and returns false. */
bool wait_fence_or_error (GstElement *element, VkExec &exec, GstVulkanFence *fence,
    const char *doing);

/* GstBaseTransform::stop: waits for every submission of `exec` at most
 * exec.hang_limit_ns(); a device that does not finish posts GST_ELEMENT_ERROR. */
void wait_idle_or_error (GstElement *element, VkExec &exec);

/* State of a filter that the streaming thread writes (set_caps, stop) or
 * an application thread writes (the frames-in-flight property) and other
 * threads read (LATENCY queries, the streaming thread): every access goes
 * through its own lock, which nests inside the element's object lock
 * (set_property holds that one) and never takes it. */
class FilterState {
 public:
  /* frames-in-flight's default: kLiveFrames where upstream is live (each
   * picture held adds latency), kThroughputFrames otherwise (the GPU works
   * on one picture while the next is recorded). */
  static constexpr gint kAutoFrames = -1;
  static constexpr guint kLiveFrames = 1;
  static constexpr guint kThroughputFrames = 2;
  static constexpr guint kMaxFrames = 16;

  FilterState () { g_mutex_init (&lock_); gst_video_info_init (&info_); }
  ~FilterState () { g_mutex_clear (&lock_); }
  FilterState (const FilterState &) = delete;
  FilterState &operator= (const FilterState &) = delete;

  /* Installs the frames-in-flight property (`what`, `one`: "Pictures",
   * "picture" or "Frames", "frame"). */
  static void install_property (GObjectClass *klass, guint prop_id, const char *what,
      const char *one);
  void set_property (const GValue *value);
  void get_property (GValue *value) const;

  /* How many pictures may be pending: the property, or its default for
   * the liveness the last LATENCY query found. */
  guint frames_in_flight () const;

  /* set_caps: the negotiated input; stop: NULL (none, and not live). */
  void set_caps (const GstVideoInfo *info);
  /* A copy of the negotiated input; false before caps. */
  bool negotiated (GstVideoInfo *info) const;

  /* GstBaseTransform::query for a LATENCY query on the source pad, after
   * upstream answered it: records whether upstream is live and adds the
   * time of the frames kept in flight (nothing without a frame rate). */
  void answer_latency (GstQuery *query);

 private:
  mutable GMutex lock_;
  guint frames_locked () const;

  gint property_ = kAutoFrames;
  bool live_ = false;
  bool have_info_ = false;
  GstVideoInfo info_;
};

/* GstBaseTransform::start, after the exec was made: false, with `error`
 * set, where a test asked for a start failure at this point
 * (g_object_set_data (element, "gpc-fail-start", GINT_TO_POINTER (1))).
 * A working device never fails there, and the clean-up of what start has
 * made so far needs a test. */
bool start_fault_injected (GstElement *element, GError **error);

} // namespace gpc
