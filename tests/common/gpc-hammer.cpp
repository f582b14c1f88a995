/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-hammer.h"

#include <gst/check/gstcheck.h>

/* Fails on an error message; seeks back to the start after end of stream
 * so that the streaming threads keep working. */
static void
check_bus (GstElement * pipe, GstBus * bus)
{
  GstMessage *msg;
  while ((msg = gst_bus_pop_filtered (bus,
              (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS)))) {
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *error = NULL;
      gchar *debug = NULL;
      gst_message_parse_error (msg, &error, &debug);
      fail ("error from %s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), error->message,
          debug ? debug : "");
    }
    gst_element_seek_simple (pipe, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, 0);
    gst_message_unref (msg);
  }
}

void
gpc_test_hammer (const char *launch, int rounds, bool ready_cycles)
{
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (launch, &error);
  fail_unless (pipe && !error, "cannot build '%s': %s", launch, error ? error->message : "");
  GstBus *bus = gst_element_get_bus (pipe);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);

  for (int i = 0; i < rounds; i++) {
    check_bus (pipe, bus);
    GstQuery *q = gst_query_new_latency ();
    gst_element_query (pipe, q);
    gst_query_unref (q);
    gint64 t;
    gst_element_query_position (pipe, GST_FORMAT_TIME, &t);
    gst_element_query_duration (pipe, GST_FORMAT_TIME, &t);
    switch (i % 8) {
      case 1:
        gst_element_seek_simple (pipe, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH, 0);
        break;
      case 3:
        gst_element_set_state (pipe, GST_STATE_PAUSED);
        break;
      case 4:
        gst_element_set_state (pipe, GST_STATE_PLAYING);
        break;
      case 6:
        if (ready_cycles) {
          gst_element_set_state (pipe, GST_STATE_READY);
          gst_element_set_state (pipe, GST_STATE_PLAYING);
        }
        break;
      default:
        break;
    }
    /* Let the streaming threads push a few buffers between rounds. */
    g_usleep (2000);
  }
  check_bus (pipe, bus);
  fail_if (gst_element_set_state (pipe, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE);
  gst_object_unref (bus);
  gst_object_unref (pipe);
}
