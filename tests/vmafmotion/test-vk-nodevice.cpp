/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * With no usable Vulkan driver (the loader pointed at a missing ICD), every
 * Vulkan element must fail with a clear element error: no crash, no hang.
 */
#include <gst/gst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

/* True when the element named "m" stops the pipeline with a Vulkan error. */
static bool
run_expecting_error (const char *launch)
{
  GstElement *pipe = gst_parse_launch (launch, NULL);
  if (!pipe) {
    printf ("FAIL: cannot build %s\n", launch);
    return false;
  }
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  bool ok = false;
  if (!msg) {
    printf ("FAIL: neither error nor EOS within 60 s: %s\n", launch);
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    printf ("FAIL: ran without a Vulkan driver: %s\n", launch);
  } else {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &e, &dbg);
    const char *src = GST_OBJECT_NAME (GST_MESSAGE_SRC (msg));
    printf ("error from %s: %s\n", src, e->message);
    ok = !strcmp (src, "m") && strstr (e->message, "Vulkan");
    if (!ok)
      printf ("FAIL: expected a Vulkan error from the element: %s\n", launch);
    g_clear_error (&e);
    g_free (dbg);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  return ok;
}

int
main (int argc, char **argv)
{
  /* Before anything loads Vulkan. */
  setenv ("VK_DRIVER_FILES", "/nonexistent/gpc-no-icd.json", 1);
  setenv ("VK_ICD_FILENAMES", "/nonexistent/gpc-no-icd.json", 1);
  unsetenv ("VK_INSTANCE_LAYERS");
  gst_init (&argc, &argv);

  const char *media = g_getenv ("GPC_MEDIA_DIR");
  std::string prores = std::string (media ? media : ".") + "/prores/aw_hq_336x200.mov";
  const std::string launches[] = {
    "videotestsrc num-buffers=3 ! video/x-raw,format=GRAY8,width=32,height=16 ! "
        "vkvmafmotion name=m ! fakesink",
    "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=64 ! "
        "vkvvcalf name=m fixed-filter-set=0 ! fakesink",
    "filesrc location=\"" + prores + "\" ! qtdemux ! vkproresdec name=m ! fakesink",
  };
  int passed = 0, failed = 0;
  for (const std::string &launch : launches) {
    if (run_expecting_error (launch.c_str ()))
      passed++;
    else
      failed++;
  }
  printf ("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
