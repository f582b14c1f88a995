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
 * buffers. Our decoders and vkvvcalf output VulkanBuffer memory (10/12-bit
 * formats 1.22 has no image format for), so they cannot feed it without a
 * readback; vkvmafmotion passes 8-bit YUV images through untouched.
 *
 * Needs a display: skips (exit 77) without DISPLAY / WAYLAND_DISPLAY. With
 * Xvfb (Debian package xvfb):  xvfb-run -a meson test -C build vulkansink
 *
 * Validation: vulkancolorconvert in 1.22 creates its render pass with
 * loadOp LOAD and initialLayout UNDEFINED (VUID-VkAttachmentDescription-
 * format-06699, from vkCreateRenderPass); that one upstream error is
 * tolerated, any other fails the test.
 */
#include <gst/check/gstcheck.h>

#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <string.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpc-test.h"
#include "gpc-vk-test.h"

namespace {

const char *kUpstreamVuid = "VUID-VkAttachmentDescription-format-06699";

std::mutex lock;
std::vector<std::string> errors;
int tolerated;

void
watch_log (GstDebugCategory *category, GstDebugLevel level, const gchar *file,
    const gchar *function, gint line, GObject *object, GstDebugMessage *message,
    gpointer user_data)
{
  if (level != GST_LEVEL_ERROR || g_strcmp0 (gst_debug_category_get_name (category), "vulkandebug"))
    return;
  std::string m = gst_debug_message_get (message);
  std::lock_guard<std::mutex> g (lock);
  if (m.find (kUpstreamVuid) != std::string::npos && m.find ("vkCreateRenderPass") != std::string::npos)
    tolerated++;
  else
    errors.push_back (m);
}



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
  printf ("%s\n", launch);
  GstElement *pipe = NULL;
  int scores = 0;
  for (int attempt = 0;; attempt++) {
    fail_unless (attempt < 3, "vulkansink could not open a window three times");
    pipe = gst_parse_launch (launch, NULL);
    fail_unless (pipe != NULL);
    if (run_to_eos (pipe, &scores))
      break;
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (pipe);
    g_usleep (100 * 1000);
  }
  g_free (launch);
  fail_unless_equals_int (scores, frames);

  /* One device from the upload to the swapchain. */
  static const char *names[] = { "up", "motion", "conv", "sink" };
  GstVulkanDevice *first = NULL;
  for (const char *name : names) {
    GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), name);
    GstVulkanDevice *d = gpc_vk_test_device_of (e);
    fail_unless (d != NULL, "%s reports no device", name);
    if (!first)
      first = (GstVulkanDevice *) gst_object_ref (d);
    fail_unless (d == first, "%s is on another device than %s", name, names[0]);
    gst_object_unref (d);
    gst_object_unref (e);
  }
  gst_object_unref (first);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);

  std::lock_guard<std::mutex> g (lock);
  for (const std::string &e : errors)
    printf ("VALIDATION ERROR: %s\n", e.c_str ());
  printf ("%d frames scored and shown on one device; %d upstream vulkancolorconvert errors "
      "(%s) tolerated\n", scores, tolerated, kUpstreamVuid);
  fail_unless (errors.empty (), "%zu Vulkan validation errors (printed above)", errors.size ());
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
  gst_debug_add_log_function (watch_log, NULL, NULL);
  Suite *s = suite_create ("vulkansink");
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, motion_to_screen);
  return gst_check_run_suite (s, "vulkansink", __FILE__);
}
