/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * With no usable Vulkan driver (the loader pointed at a missing ICD), the
 * element must fail to start with a clear element error: no crash, no hang.
 */
#include <gst/gst.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main (int argc, char **argv)
{
  /* Before anything loads Vulkan. */
  setenv ("VK_DRIVER_FILES", "/nonexistent/gpc-no-icd.json", 1);
  setenv ("VK_ICD_FILENAMES", "/nonexistent/gpc-no-icd.json", 1);
  unsetenv ("VK_INSTANCE_LAYERS");
  gst_init (&argc, &argv);

  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=3 ! "
      "video/x-raw,format=GRAY8,width=32,height=16 ! vkvmafmotion name=m ! fakesink", NULL);
  if (!pipe) {
    printf ("FAIL: vkvmafmotion is not available\n");
    return 1;
  }
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  int ret = 1;
  if (!msg) {
    printf ("FAIL: neither error nor EOS within 60 s\n");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
    printf ("FAIL: the pipeline ran without a Vulkan driver\n");
  } else {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &e, &dbg);
    const char *src = GST_OBJECT_NAME (GST_MESSAGE_SRC (msg));
    printf ("error from %s: %s\n  (%s)\n", src, e->message, dbg ? dbg : "");
    if (!strcmp (src, "m") && strstr (e->message, "Vulkan"))
      ret = 0;
    else
      printf ("FAIL: expected a Vulkan error from the element\n");
    g_clear_error (&e);
    g_free (dbg);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  printf ("%d passed, %d failed\n", ret == 0, ret != 0);
  return ret;
}
