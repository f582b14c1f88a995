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
GstBuffer *PendingFrames::complete_oldest (VkExec &exec, gsize system_size, GstFlowReturn *ret)
{
  PendingFrame f = q_.front ();
  q_.pop_front ();
  GstBuffer *out = NULL;

  if (!wait_fence_or_error (GST_ELEMENT (element_), exec, f.fence, doing_)) {
    f.clear ();
    *ret = GST_FLOW_ERROR;
    return NULL;
  }
  *ret = GST_FLOW_OK;
  if (f.out) {
    out = f.out;
    f.out = NULL;
  } else {
    /* Internal download: the host-visible output into system memory. */
    GstMemory *smem = gst_buffer_peek_memory (f.staging, 0);
    GstMapInfo map;
    out = gst_buffer_new_allocate (NULL, system_size, NULL);
    if (!gst_memory_map (smem, &map, GST_MAP_READ)) {
      GST_ELEMENT_ERROR (element_, RESOURCE, READ, ("Cannot read the %s picture", done_), (NULL));
      gst_buffer_unref (out);
      f.clear ();
      *ret = GST_FLOW_ERROR;
      return NULL;
    }
    gst_buffer_fill (out, 0, map.data, system_size);
    gst_memory_unmap (smem, &map);
    gst_buffer_copy_into (out, f.in, (GstBufferCopyFlags) (GST_BUFFER_COPY_FLAGS |
            GST_BUFFER_COPY_TIMESTAMPS), 0, -1);
  }
  f.clear ();
  return out;
}

GstFlowReturn PendingFrames::generate_output (VkExec &exec, guint in_flight, gsize system_size,
    GstBuffer **outbuf)
{
  GstFlowReturn ret = GST_FLOW_OK;
  *outbuf = NULL;
  if (q_.empty ())
    return GST_FLOW_OK;
  /* Never wait for the picture just submitted unless the window is full:
   * the GPU works on it while the next one arrives. */
  if (q_.size () > in_flight || gst_vulkan_fence_is_signaled (q_.front ().fence))
    *outbuf = complete_oldest (exec, system_size, &ret);
  return ret;
}

GstFlowReturn PendingFrames::drain (VkExec &exec, gsize system_size)
{
  return push_pending (GST_BASE_TRANSFORM_SRC_PAD (element_), q_,
      [&] (GstFlowReturn *r) { return complete_oldest (exec, system_size, r); });
}

void PendingFrames::discard (VkExec &exec)
{
  while (!q_.empty ()) {
    PendingFrame f = q_.front ();
    q_.pop_front ();
    wait_fence_or_error (GST_ELEMENT (element_), exec, f.fence, doing_);
    f.clear ();
  }
}

void PendingFrames::before_sink_event (VkExec *exec, GstEvent *event, gsize system_size)
{
  if (!exec)
    return;
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP)
    discard (*exec);
  else if (GST_EVENT_IS_SERIALIZED (event))
    drain (*exec, system_size);
}

} // namespace gpc
