/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The pictures a Vulkan element keeps in flight: submitted with a fence,
 * output once the fence has signalled or the window is full, in order;
 * serialized events drain them, flushes drop them. A plain object: the
 * element says how a finished picture becomes its output buffer.
 */
#pragma once

#include <gst/gst.h>

#include <deque>
#include <functional>

#include "compute/gpcvk.h"
#include "compute/gpcvkexec.h"

namespace gpc {

struct PendingFrame {
  GstBuffer *out = nullptr;      /* output in GPU memory (or the input, passed through) */
  GstBuffer *staging = nullptr;  /* host-visible output for system memory, or NULL */
  GstBuffer *in = nullptr;       /* the input, for timestamps and flags, or NULL */
  GstVulkanFence *fence = nullptr;
  gint64 aux = -1;               /* the element's own per-picture value (a result slot) */
  bool discont = false;          /* the output starts a discontinuity */

  void clear ();
};

class PendingFrames {
 public:
  /* Turns a picture whose fence has signalled into its output buffer (the
   * picture's references are the callee's to take); NULL with *ret set
   * drops it. */
  using Complete = std::function<GstBuffer *(PendingFrame &f, GstFlowReturn *ret)>;

  /* Pictures of `element` go out of `src`; `doing`: what the GPU does to
   * one, for messages ("filtering"). */
  PendingFrames (GstElement *element, GstPad *src, const char *doing, Complete complete)
      : element_ (element), src_ (src), doing_ (doing), complete_ (std::move (complete)) {}
  ~PendingFrames () { for (PendingFrame &f : q_) f.clear (); }
  PendingFrames (const PendingFrames &) = delete;
  PendingFrames &operator= (const PendingFrames &) = delete;

  void push_back (const PendingFrame &f) { q_.push_back (f); }
  bool empty () const { return q_.empty (); }
  size_t size () const { return q_.size (); }

  /* GstBaseTransform::generate_output: the oldest picture once its fence
   * has signalled, or once more than `in_flight` are pending. */
  GstFlowReturn generate_output (VkExec &exec, guint in_flight, GstBuffer **outbuf);
  /* Pushes every pending picture out of the source pad, in order. */
  GstFlowReturn drain (VkExec &exec);
  /* Drops every pending picture (flush): waits for the GPU, pushes nothing. */
  void discard (VkExec &exec);
  /* Before a sink event goes on: a flush drops the pictures, serialized
   * events (EOS, caps, segments) push them first so that they do not
   * overtake them. exec: NULL before start. */
  void before_sink_event (VkExec *exec, GstEvent *event);

 private:
  GstBuffer *complete_oldest (VkExec &exec, GstFlowReturn *ret);

  std::deque<PendingFrame> q_;
  GstElement *element_;
  GstPad *src_;
  const char *doing_;
  Complete complete_;
};

} // namespace gpc
