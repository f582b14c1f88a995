/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Draining the frames a transform element keeps in flight on the GPU.
 */
#pragma once

#include <gst/gst.h>

namespace gpc {

/* Pushes every pending frame out of `src`, oldest first. `complete_oldest`
 * (GstFlowReturn *) waits for the oldest frame, removes it from `pending`
 * and returns its output buffer, or NULL with the flow return that dropped
 * it. After the first failure the remaining frames are still completed
 * (their GPU work waited for), but dropped. */
template <typename Pending, typename CompleteOldest>
GstFlowReturn
push_pending (GstPad * src, const Pending & pending, CompleteOldest complete_oldest)
{
  GstFlowReturn ret = GST_FLOW_OK;
  while (!pending.empty ()) {
    GstFlowReturn r;
    GstBuffer *buf = complete_oldest (&r);
    if (!buf) {
      ret = r;
      continue;
    }
    if (ret == GST_FLOW_OK)
      ret = gst_pad_push (src, buf);
    else
      gst_buffer_unref (buf);
  }
  return ret;
}

} // namespace gpc
