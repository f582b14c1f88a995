/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Example application: hands its own Vulkan instance and device to every
 * element of a pipeline (answering need-context from a bus sync handler),
 * prints the motion scores vkvmafmotion posts, and checks at the end that
 * every Vulkan element used the application's device.
 *
 *   gpc-motion-monitor [--device N] [--frames N] [PIPELINE]
 *
 * The default pipeline uploads a test pattern to the GPU and analyses it
 * there:  videotestsrc ! vulkanupload ! vkvmafmotion ! fakesink
 * A PIPELINE of your own must contain an element named "motion".
 */
#include <gst/gst.h>
#include <gst/vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>

namespace {

struct App {
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GMainLoop *loop;
  int answered = 0;
  int foreign_devices = 0;
  int frames = 0;
  int status = 0;
};

} // namespace

/* Runs in the thread that posts: answer before the element goes on. */
static GstBusSyncReply
sync_handler (GstBus *bus, GstMessage *msg, gpointer data)
{
  App *app = static_cast<App *> (data);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT) {
    const gchar *type = NULL;
    gst_message_parse_context_type (msg, &type);
    GstContext *ctx = NULL;
    if (!g_strcmp0 (type, GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR)) {
      ctx = gst_context_new (type, TRUE);
      gst_context_set_vulkan_instance (ctx, app->instance);
    } else if (!g_strcmp0 (type, GST_VULKAN_DEVICE_CONTEXT_TYPE_STR)) {
      ctx = gst_context_new (type, TRUE);
      gst_context_set_vulkan_device (ctx, app->device);
    }
    if (ctx) {
      gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), ctx);
      gst_context_unref (ctx);
      app->answered++;
    }
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    /* An element that made a device of its own announces it here. */
    GstContext *ctx = NULL;
    gst_message_parse_have_context (msg, &ctx);
    GstVulkanDevice *dev = NULL;
    if (gst_context_get_vulkan_device (ctx, &dev) && dev) {
      if (dev != app->device)
        app->foreign_devices++;
      gst_object_unref (dev);
    }
    gst_context_unref (ctx);
  }
  return GST_BUS_PASS;
}

static gboolean
bus_watch (GstBus *bus, GstMessage *msg, gpointer data)
{
  App *app = static_cast<App *> (data);
  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT: {
      const GstStructure *s = gst_message_get_structure (msg);
      if (gst_structure_has_name (s, "vkvmafmotion-scores")) {
        guint64 index;
        double m, m2, m3;
        gst_structure_get_uint64 (s, "index", &index);
        gst_structure_get_double (s, "motion", &m);
        gst_structure_get_double (s, "motion2", &m2);
        gst_structure_get_double (s, "motion3", &m3);
        printf ("frame %4llu  motion %9.6f  motion2 %9.6f  motion3 %9.6f\n",
            (unsigned long long) index, m, m2, m3);
        app->frames++;
      } else if (gst_structure_has_name (s, "vkvmafmotion-summary")) {
        const GstStructure *m3 = gst_value_get_structure (gst_structure_get_value (s, "integer_motion3"));
        double mean = 0;
        gst_structure_get_double (m3, "mean", &mean);
        printf ("summary: integer_motion3 mean %f\n", mean);
      }
      break;
    }
    case GST_MESSAGE_ERROR: {
      GError *e = NULL;
      gchar *dbg = NULL;
      gst_message_parse_error (msg, &e, &dbg);
      fprintf (stderr, "error from %s: %s (%s)\n", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
          e->message, dbg ? dbg : "");
      g_clear_error (&e);
      g_free (dbg);
      app->status = 1;
      g_main_loop_quit (app->loop);
      break;
    }
    case GST_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  return TRUE;
}

/* GStreamer 1.22's vulkanupload / vulkandownload ignore a device given
 * through set_context; failing their neighbours they call
 * gst_vulkan_instance_create_device(), which asks the application first
 * through this signal (vulkandownload gets there before the element
 * upstream of it has a device to share). GStreamer 1.26 added the index of
 * the device asked for as the signal's first argument. */
static GstVulkanDevice *
#if GST_CHECK_VERSION(1, 26, 0)
create_device (GstVulkanInstance *instance, guint device_index, gpointer data)
#else
create_device (GstVulkanInstance *instance, gpointer data)
#endif
{
  App *app = static_cast<App *> (data);
  return (GstVulkanDevice *) gst_object_ref (app->device);
}

/* The device an element reports through a context query, if any. */
static GstVulkanDevice *
element_device (GstElement *e)
{
  GstQuery *q = gst_query_new_context (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);
  GstVulkanDevice *dev = NULL;
  if (gst_element_query (e, q)) {
    GstContext *ctx = NULL;
    gst_query_parse_context (q, &ctx);
    if (ctx)
      gst_context_get_vulkan_device (ctx, &dev);
  }
  gst_query_unref (q);
  return dev;
}

int
main (int argc, char **argv)
{
  int device_index = 0, frames = 60;
  const char *launch = NULL;
  gst_init (&argc, &argv);
  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--device") && i + 1 < argc)
      device_index = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--frames") && i + 1 < argc)
      frames = atoi (argv[++i]);
    else
      launch = argv[i];
  }
  std::string def = "videotestsrc num-buffers=" + std::to_string (frames) +
      " pattern=ball ! video/x-raw,format=NV12,width=640,height=360 ! vulkanupload ! "
      "vkvmafmotion name=motion ! fakesink";

  App app;
  GError *error = NULL;
  app.instance = gst_vulkan_instance_new ();
  if (!gst_vulkan_instance_open (app.instance, &error)) {
    fprintf (stderr, "no Vulkan instance: %s\n", error->message);
    return 2;
  }
  app.device = gst_vulkan_device_new_with_index (app.instance, device_index);
  if (!gst_vulkan_device_open (app.device, &error)) {
    fprintf (stderr, "cannot open Vulkan device %d: %s\n", device_index, error->message);
    return 2;
  }
  printf ("application device: %s\n", app.device->physical_device->properties.deviceName);
  g_signal_connect (app.instance, "create-device", G_CALLBACK (create_device), &app);

  GstElement *pipe = gst_parse_launch (launch ? launch : def.c_str (), &error);
  if (!pipe) {
    fprintf (stderr, "bad pipeline: %s\n", error->message);
    return 2;
  }
  app.loop = g_main_loop_new (NULL, FALSE);
  GstBus *bus = gst_element_get_bus (pipe);
  gst_bus_set_sync_handler (bus, sync_handler, &app, NULL);
  gst_bus_add_watch (bus, bus_watch, &app);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  g_main_loop_run (app.loop);

  /* Every element that holds a Vulkan device must hold ours. */
  int checked = 0, wrong = 0;
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipe));
  GValue v = G_VALUE_INIT;
  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = GST_ELEMENT (g_value_get_object (&v));
    GstVulkanDevice *dev = element_device (e);
    if (dev) {
      checked++;
      if (dev != app.device) {
        wrong++;
        fprintf (stderr, "%s uses another device\n", GST_OBJECT_NAME (e));
      }
      gst_object_unref (dev);
    }
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);
  gst_element_set_state (pipe, GST_STATE_NULL);

  printf ("%d frames scored; %d contexts answered; %d Vulkan elements checked, %d on another "
      "device; %d foreign devices announced\n", app.frames, app.answered, checked, wrong,
      app.foreign_devices);
  if (wrong || app.foreign_devices || checked == 0)
    app.status = 1;

  gst_bus_remove_watch (bus);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  g_main_loop_unref (app.loop);
  gst_object_unref (app.device);
  gst_object_unref (app.instance);
  /* GStreamer may still hold the pipeline in an asynchronous call (a bin's
   * latency recomputation); gst_deinit() waits for those, so the last
   * Vulkan objects are not destroyed while the process exits. */
  gst_deinit ();
  return app.status;
}
