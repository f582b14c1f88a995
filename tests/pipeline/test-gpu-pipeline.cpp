/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The product's shape, end to end: ProRes decoded by vkproresdec, filtered
 * by vkvvcalf and analysed by vkvmafmotion with every buffer between them in
 * Vulkan memory, all three elements on one VkDevice, no validation error.
 */
#include <gst/check/gstcheck.h>

#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <string>

#include "gpc-test.h"
#include "gpc-vk-test.h"

namespace {

struct Seen {
  int buffers = 0;
  int not_vulkan = 0;
};

} // namespace

static GstPadProbeReturn
check_memory (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  Seen *seen = static_cast<Seen *> (data);
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  seen->buffers++;
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++)
    if (!gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (buf, i)))
      seen->not_vulkan++;
  return GST_PAD_PROBE_OK;
}


GST_START_TEST (prores_alf_motion_on_one_device)
{
  std::string clip = gpc_test::media_dir () + "/prores/aw_hq_336x200.mov";
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec name=dec ! "
      "video/x-raw(memory:VulkanBuffer) ! vkvvcalf name=alf fixed-filter-set=3 ! "
      "vkvmafmotion name=motion ! fakesink name=sink", clip.c_str ());
  GstElement *pipe = gst_parse_launch (launch, NULL);
  g_free (launch);
  fail_unless (pipe != NULL);

  Seen seen[3];
  const char *names[3] = { "dec", "alf", "motion" };
  GstElement *el[3];
  for (int i = 0; i < 3; i++) {
    el[i] = gst_bin_get_by_name (GST_BIN (pipe), names[i]);
    GstPad *src = gst_element_get_static_pad (el[i], "src");
    gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, check_memory, &seen[i], NULL);
    gst_object_unref (src);
  }

  int scores = 0, devices_announced = 0;
  GstVulkanDevice *announced = NULL;
  GstBus *bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop (bus, 60 * GST_SECOND);
    fail_unless (msg != NULL, "timeout");
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *e;
      gst_message_parse_error (msg, &e, NULL);
      fail ("error from %s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message);
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
      GstContext *ctx;
      gst_message_parse_have_context (msg, &ctx);
      GstVulkanDevice *d = NULL;
      if (gst_context_get_vulkan_device (ctx, &d) && d) {
        /* Every device announced on the bus is the same one. */
        if (!announced)
          announced = (GstVulkanDevice *) gst_object_ref (d);
        fail_unless (d == announced, "a second Vulkan device was created");
        devices_announced++;
        gst_object_unref (d);
      }
      gst_context_unref (ctx);
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (gst_message_get_structure (msg), "vkvmafmotion-scores"))
      scores++;
    bool eos = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    gst_message_unref (msg);
    if (eos)
      break;
  }

  /* One device for the three elements. */
  GstVulkanDevice *d0 = gpc_vk_test_device_of (el[0]);
  fail_unless (d0 != NULL, "vkproresdec reports no device");
  for (int i = 1; i < 3; i++) {
    GstVulkanDevice *d = gpc_vk_test_device_of (el[i]);
    fail_unless (d == d0, "%s is on another device", names[i]);
    gst_object_unref (d);
  }
  gst_object_unref (d0);
  /* Frames stayed in GPU memory from the decoder to the last element. */
  for (int i = 0; i < 3; i++) {
    fail_unless (seen[i].buffers > 0, "no buffer left %s", names[i]);
    fail_unless_equals_int (seen[i].not_vulkan, 0);
  }
  fail_unless_equals_int (scores, seen[2].buffers);
  printf ("%d frames through vkproresdec ! vkvvcalf ! vkvmafmotion in Vulkan buffers on one device "
      "(%d have-context messages for it)\n", seen[2].buffers, devices_announced);

  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_clear_object (&announced);
  for (int i = 0; i < 3; i++)
    gst_object_unref (el[i]);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "gpu-pipeline", {
        GPC_CHECK_TEST (prores_alf_motion_on_one_device) });
}
