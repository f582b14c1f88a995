/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The GPU pipeline ending on a screen:
 *   videotestsrc ! vulkanupload ! VulkanImage NV12 ! vkvmafmotion
 *     ! vulkancolorconvert ! vulkansink
 * Frames stay Vulkan images from the upload to the swapchain, every Vulkan
 * element is on one device, and vkvmafmotion scores every frame.
 *
 * Why this shape: GStreamer 1.22's vulkansink takes 8-bit RGB(A) Vulkan
 * images only, and its only converter (vulkancolorconvert) takes images, not
 * buffers; vkvmafmotion passes 8-bit YUV images through untouched.
 *
 * Our decoders and vkvvcalf output VulkanBuffer memory (10/12-bit formats
 * 1.22 has no image format for): vkrgbaconvert turns those into RGBA / BGRA
 * images on the GPU, so they reach the screen without a readback too:
 *   filesrc ! qtdemux ! vkproresdec ! vkrgbaconvert ! vulkansink
 *   videotestsrc ! I420_10LE ! vkvvcalf ! vkvmafmotion ! vkrgbaconvert
 *     ! vulkansink
 *
 * Needs a display: skips (exit 77) without DISPLAY / WAYLAND_DISPLAY. With
 * Xvfb (Debian package xvfb):  xvfb-run -a meson test -C build vulkansink
 *
 * Validation: upstream's errors are tolerated, any other fails the test.
 * - 1.22's vulkancolorconvert creates its render pass with loadOp LOAD and
 *   initialLayout UNDEFINED (VUID-VkAttachmentDescription-format-06699,
 *   from vkCreateRenderPass).
 * - Synchronization validation's hazards in commands only GStreamer
 *   records (our elements draw and blit nothing): 1.22's vulkancolorconvert
 *   samples its input after a layout transition whose barrier names
 *   input-attachment reads (vkCmdDrawIndexed), and its vulkansink blits
 *   into a swapchain image right after clearing it, with no barrier
 *   between (vkCmdBlitImage); 1.24's and 1.26's vulkansink move an image
 *   acquired with vkAcquireNextImageKHR to a new layout without waiting for
 *   the acquire (reported at vkQueueSubmit); 1.24's moves a picture it has
 *   blitted from to a new layout with no wait for the blit's read (prior
 *   usage SYNC_BLIT_TRANSFER_READ, at vkQueueSubmit).
 */
#include <gst/check/gstcheck.h>

#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <string.h>

#include <initializer_list>
#include <mutex>
#include <string>
#include <vector>

#include "gpc-test.h"
#include "gpc-vk-test.h"

namespace {

const char *kUpstreamVuid = "VUID-VkAttachmentDescription-format-06699";
/* What the layer's messages of those hazards name: 1.3.239's (Debian 12),
 * 1.3.275's (Ubuntu 24.04, GStreamer 1.24, where vulkansink's acquire
 * hazard is 1.26's) and 1.4's. */
const char *const kUpstreamHazards[] = { "vkCmdDrawIndexed: Hazard", "vkCmdBlitImage: Hazard",
  "vkCmdDrawIndexed():  Hazard", "vkCmdBlitImage():  Hazard",
  "previously read by vkAcquireNextImageKHR", "vkAcquireNextImageKHR aquire_tag",
  "prior_usage: SYNC_BLIT_TRANSFER_READ" };

/* Runs the pipeline to EOS; returns false (after printing why) when
 * vulkansink could not open its window. Under Xvfb, xcb_connect() fails now
 * and then when a client connects right after another disconnected (1 in 6
 * in a tight loop here): the display, not the pipeline. */
bool
run_to_eos (GstElement *pipe, int *scores)
{
  GstBus *bus = gst_element_get_bus (pipe);
  bool window_failed = false;
  *scores = 0;
  if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE)
    window_failed = true;
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop (bus, 60 * GST_SECOND);
    fail_unless (msg != NULL, "timeout");
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *e;
      gchar *dbg = NULL;
      gst_message_parse_error (msg, &e, &dbg);
      bool sink = !g_strcmp0 (GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), "sink");
      if (sink && (strstr (e->message, "window") || (dbg && strstr (dbg, "window")))) {
        printf ("vulkansink could not open its window (%s; %s): display problem, retrying\n",
            e->message, dbg ? dbg : "");
        g_error_free (e);
        g_free (dbg);
        gst_message_unref (msg);
        window_failed = true;
        break;
      }
      fail ("error from %s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), e->message,
          dbg ? dbg : "");
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (gst_message_get_structure (msg), "vkvmafmotion-scores"))
      (*scores)++;
    bool eos = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    gst_message_unref (msg);
    if (eos)
      break;
  }
  gst_object_unref (bus);
  return !window_failed;
}


/* Buffers reaching the sink, and those that were not Vulkan images. */
struct SinkCount {
  std::mutex lock;
  int buffers = 0;
  int not_image = 0;
};

GstPadProbeReturn
count_images (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  SinkCount *c = static_cast<SinkCount *> (data);
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  std::lock_guard<std::mutex> g (c->lock);
  c->buffers++;
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++)
    if (!gst_is_vulkan_image_memory (gst_buffer_peek_memory (buf, i)))
      c->not_image++;
  return GST_PAD_PROBE_OK;
}

/* Runs `launch` to EOS on the screen (retrying when the display refuses
 * a window), checks that `frames` Vulkan images reached the sink (and as
 * many vkvmafmotion scores where `scored`), every element of `names` is on
 * one device, and no validation error was reported. */
void
show (const char *launch, std::initializer_list<const char *> names, int frames, bool scored)
{
  printf ("%s\n", launch);
  GstElement *pipe = NULL;
  int scores = 0;
  SinkCount *count = NULL;
  for (int attempt = 0;; attempt++) {
    fail_unless (attempt < 3, "vulkansink could not open a window three times");
    pipe = gst_parse_launch (launch, NULL);
    fail_unless (pipe != NULL);
    delete count;
    count = new SinkCount ();
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
    GstPad *pad = gst_element_get_static_pad (sink, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_images, count, NULL);
    gst_object_unref (pad);
    gst_object_unref (sink);
    if (run_to_eos (pipe, &scores))
      break;
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (pipe);
    g_usleep (100 * 1000);
  }
  if (scored)
    fail_unless_equals_int (scores, frames);
  fail_unless_equals_int (count->buffers, frames);
  fail_unless_equals_int (count->not_image, 0);

  /* One device from the first Vulkan element to the swapchain. */
  GstVulkanDevice *first = NULL;
  const char *first_name = NULL;
  for (const char *name : names) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), name);
    GstVulkanDevice *d = gpc_vk_test_device_of (e);
    fail_unless (d != NULL, "%s reports no device", name);
    if (!first) {
      first = (GstVulkanDevice *) gst_object_ref (d);
      first_name = name;
    }
    fail_unless (d == first, "%s is on another device than %s", name, first_name);
    gst_object_unref (d);
    gst_object_unref (e);
  }
  gst_object_unref (first);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  delete count;

  gpc_vk_test_check_validation ();
  printf ("%d frames shown on one device (%d scored); %d upstream errors (vulkancolorconvert's "
      "and vulkansink's) tolerated\n", frames, scores, gpc_vk_test_tolerated ());
}

} // namespace

GST_START_TEST (motion_to_screen)
{
  gpc_test::Rng rng = gpc_test::rng ("vulkansink");
  const int frames = 30;
  unsigned w = 2 * (unsigned) rng.range (40, 200), h = 2 * (unsigned) rng.range (30, 150);
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball ! "
      "video/x-raw,format=NV12,width=%u,height=%u ! vulkanupload name=up ! "
      "video/x-raw(memory:VulkanImage) ! vkvmafmotion name=motion ! vulkancolorconvert name=conv ! "
      "vulkansink name=sink sync=false", frames, w, h);
  show (launch, { "up", "motion", "conv", "sink" }, frames, true);
  g_free (launch);
}
GST_END_TEST;

/* Our Vulkan-buffer chains through vkrgbaconvert: the decoder's pictures,
 * and vkvvcalf's filtered 10-bit pictures scored by vkvmafmotion. */
GST_START_TEST (rgbaconvert_to_screen)
{
  gpc_test::Rng rng = gpc_test::rng ("vulkansink-rgba");
  std::string clip = gpc_test::media_dir () + "/prores/ks_lt_1282x722.mov";
  gchar *launch = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec name=dec ! "
      "video/x-raw(memory:VulkanBuffer) ! vkrgbaconvert name=rgba ! vulkansink name=sink "
      "sync=false", clip.c_str ());
  /* Frames in the clip: as many as the decoder outputs to fakesink. */
  gchar *count_launch = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec ! "
      "fakesink name=sink", clip.c_str ());
  GstElement *counter = gst_parse_launch (count_launch, NULL);
  g_free (count_launch);
  SinkCount decoded;
  {
    GstElement *sink = gst_bin_get_by_name (GST_BIN (counter), "sink");
    GstPad *pad = gst_element_get_static_pad (sink, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_images, &decoded, NULL);
    gst_object_unref (pad);
    gst_object_unref (sink);
    int unused;
    fail_unless (run_to_eos (counter, &unused));
    gst_element_set_state (counter, GST_STATE_NULL);
    gst_object_unref (counter);
  }
  fail_unless (decoded.buffers > 0);
  show (launch, { "dec", "rgba", "sink" }, decoded.buffers, false);
  g_free (launch);

  const int frames = 30;
  unsigned w = 8 * (unsigned) rng.range (10, 40), h = 8 * (unsigned) rng.range (8, 30);
  launch = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball ! "
      "video/x-raw,format=I420_10LE,width=%u,height=%u ! vkvvcalf name=alf fixed-filter-set=%d ! "
      "vkvmafmotion name=motion ! vkrgbaconvert name=rgba ! vulkansink name=sink sync=false",
      frames, w, h, (int) rng.range (-1, 15));
  show (launch, { "alf", "motion", "rgba", "sink" }, frames, true);
  g_free (launch);
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  if (!g_getenv ("DISPLAY") && !g_getenv ("WAYLAND_DISPLAY"))
    gpc_test::skip ("no display (DISPLAY / WAYLAND_DISPLAY unset); run under xvfb-run -a");
  gst_check_init (&argc, &argv);
  gpc_test::seed ();
  gpc_vk_test_init ();
  if (!gst_element_factory_find ("vulkansink") || !gst_element_factory_find ("vulkancolorconvert"))
    gpc_test::skip ("vulkansink / vulkancolorconvert missing (gstreamer1.0-plugins-bad)");
  /* The upstream error is also raised as a GLib critical. */
  gst_check_add_log_filter ("GStreamer-Vulkan", G_LOG_LEVEL_CRITICAL,
      g_regex_new (kUpstreamVuid, (GRegexCompileFlags) 0, (GRegexMatchFlags) 0, NULL), NULL,
      NULL, NULL);
  gpc_vk_test_tolerate (kUpstreamVuid);
  for (const char *h : kUpstreamHazards)
    gpc_vk_test_tolerate (h);
  Suite *s = suite_create ("vulkansink");
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, motion_to_screen);
  if (gst_element_factory_find ("vkrgbaconvert"))
    tcase_add_test (tc, rgbaconvert_to_screen);
  return gst_check_run_suite (s, "vulkansink", __FILE__);
}
