/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "pendingframes.h"

#include "pushpending.h"
#include "vkfilter.h"

namespace gpc {

void PendingFrame::clear ()
{
  gst_clear_buffer (&out);
  gst_clear_buffer (&staging);
  gst_clear_buffer (&in);
  if (fence)
    gst_vulkan_fence_unref (fence);
  fence = nullptr;
}

/* Waits for the oldest picture and returns its output buffer; NULL with an
 * element error posted when the GPU failed. */
GstBuffer *PendingFrames::complete_oldest (VkExec &exec, GstFlowReturn *ret)
{
  PendingFrame f = q_.front ();
  q_.pop_front ();
  GstBuffer *out = NULL;
  if (wait_fence_or_error (element_, exec, f.fence, doing_)) {
    *ret = GST_FLOW_OK;
    out = complete_ (f, ret);
  } else {
    *ret = GST_FLOW_ERROR;
  }
  f.clear ();
  return out;
}

GstFlowReturn PendingFrames::generate_output (VkExec &exec, guint in_flight, GstBuffer **outbuf)
{
  GstFlowReturn ret = GST_FLOW_OK;
  *outbuf = NULL;
  if (q_.empty ())
    return GST_FLOW_OK;
  /* Never wait for the picture just submitted unless the window is full:
   * the GPU works on it while the next one arrives. */
  if (q_.size () > in_flight || gst_vulkan_fence_is_signaled (q_.front ().fence))
    *outbuf = complete_oldest (exec, &ret);
  return ret;
}

GstFlowReturn PendingFrames::drain (VkExec &exec)
{
  return push_pending (src_, q_, [&] (GstFlowReturn *r) { return complete_oldest (exec, r); });
}

void PendingFrames::discard (VkExec &exec)
{
  while (!q_.empty ()) {
    PendingFrame f = q_.front ();
    q_.pop_front ();
    wait_fence_or_error (element_, exec, f.fence, doing_);
    f.clear ();
  }
}

void PendingFrames::before_sink_event (VkExec *exec, GstEvent *event)
{
  if (!exec)
    return;
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    discard (*exec);
  else if (GST_EVENT_IS_SERIALIZED (event))
    drain (*exec);
}

} // namespace gpc
