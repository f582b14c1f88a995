/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The pictures a Vulkan transform element (vkvvcalf, vkrgbaconvert) keeps
 * in flight: submitted with a fence, output once the fence has signalled or
 * the window is full, in order; serialized events drain them, flushes drop
 * them.
 */
#pragma once

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <deque>

#include "gpcvk.h"
#include "gpcvkexec.h"

namespace gpc {

struct PendingFrame {
  GstBuffer *out = nullptr;      /* GPU output, or NULL */
  GstBuffer *staging = nullptr;  /* host-visible output to copy into system memory, or NULL */
  GstBuffer *in = nullptr;       /* timestamps and flags of a system-memory output */
  GstVulkanFence *fence = nullptr;

  void clear ();
};

class PendingFrames {
 public:
  /* doing / done: what the GPU does to a picture, for messages
   * ("filtering" / "filtered"). */
  PendingFrames (GstBaseTransform *element, const char *doing, const char *done)
      : element_ (element), doing_ (doing), done_ (done) {}
  ~PendingFrames () { for (PendingFrame &f : q_) f.clear (); }

  void push_back (const PendingFrame &f) { q_.push_back (f); }
  bool empty () const { return q_.empty (); }

  /* GstBaseTransform::generate_output: the oldest picture once its fence
   * has signalled, or once more than `in_flight` are pending. A
   * system-memory output of `system_size` bytes is copied out of staging. */
  GstFlowReturn generate_output (VkExec &exec, guint in_flight, gsize system_size, GstBuffer **outbuf);
  /* Pushes every pending picture downstream, in order. */
  GstFlowReturn drain (VkExec &exec, gsize system_size);
  /* Drops every pending picture (flush): waits for the GPU, pushes nothing. */
  void discard (VkExec &exec);
  /* Before the base class sees a sink event: a flush drops the pictures,
   * serialized events (EOS, caps, segments) push them first so that they do
   * not overtake them. exec: NULL before start. */
  void before_sink_event (VkExec *exec, GstEvent *event, gsize system_size);

 private:
  GstBuffer *complete_oldest (VkExec &exec, gsize system_size, GstFlowReturn *ret);

  std::deque<PendingFrame> q_;
  GstBaseTransform *element_;
  const char *doing_, *done_;
};

} // namespace gpc
