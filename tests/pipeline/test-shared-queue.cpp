/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Two streaming threads on one device: two pipelines of one process on the
 * process-wide default device, both PLAYING at once. Vulkan requires
 * vkQueueSubmit on one VkQueue to be externally synchronized; the
 * validation layer's thread checks report any overlap.
 *
 * GStreamer 1.22's gst_vulkan_device_get_queue() / foreach_queue() make a
 * new GstVulkanQueue wrapper, with its own submit lock, at every call; our
 * elements therefore share one wrapper per device
 * (gpc_vk_device_compute_queue). Before that, two elements in two threads
 * submitted to one VkQueue under two locks:
 * "UNASSIGNED-Threading-MultipleThreads ... vkQueueSubmit".
 */
#include <gst/check/gstcheck.h>

#include "gpc-test.h"
#include "gpc-vk-test.h"

GST_START_TEST (two_threads_one_device)
{
  /* Only our element submits (it uploads system memory itself). */
  const char *launch = "videotestsrc num-buffers=2000 ! video/x-raw,format=NV12,width=64,height=48 ! "
      "vkvmafmotion post-messages=false ! fakesink sync=false";
  GstElement *pipe[2];
  for (int k = 0; k < 2; k++) {
    pipe[k] = gst_parse_launch (launch, NULL);
    fail_unless (pipe[k] != NULL);
  }
  for (int k = 0; k < 2; k++)
    fail_if (gst_element_set_state (pipe[k], GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  for (int k = 0; k < 2; k++) {
    GstBus *bus = gst_element_get_bus (pipe[k]);
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
        (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
    fail_unless (msg != NULL, "timeout");
    fail_unless (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS, "error");
    gst_message_unref (msg);
    gst_object_unref (bus);
  }
  for (int k = 0; k < 2; k++) {
    gst_element_set_state (pipe[k], GST_STATE_NULL);
    gst_object_unref (pipe[k]);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "shared-queue", {
        GPC_CHECK_TEST (two_threads_one_device) });
}
