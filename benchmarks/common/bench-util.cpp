/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-util.h"

#include <gst/app/gstappsrc.h>

#include <stdio.h>
#include <stdlib.h>

#include <algorithm>

#include "compute/gpcvkcontext.h"

namespace gpc_bench {

double seconds_since (Clock::time_point t)
{
  return std::chrono::duration<double> (Clock::now () - t).count ();
}

double median (std::vector<double> v)
{
  std::sort (v.begin (), v.end ());
  return v.empty () ? 0 : v[v.size () / 2];
}

Device::~Device ()
{
  gst_clear_object (&queue);
  gst_clear_object (&device);
  gst_clear_object (&instance);
}

bool open_device (Device *d)
{
  GError *err = NULL;
  /* After main's objects are gone, wait for GStreamer's asynchronous calls,
   * which can hold the last pipeline reference, before the process exits:
   * Vulkan objects must not be destroyed while libraries unload. */
  static bool registered = false;
  if (!registered) {
    atexit ([] { gst_deinit (); });
    registered = true;
  }
  d->instance = gst_vulkan_instance_new ();
  if (!gst_vulkan_instance_open (d->instance, &err)) {
    fprintf (stderr, "no Vulkan instance: %s\n", err->message);
    g_clear_error (&err);
    return false;
  }
  const char *env = g_getenv ("GPC_VULKAN_DEVICE_INDEX");
  d->device = gst_vulkan_device_new_with_index (d->instance, env ? atoi (env) : 0);
  if (!gst_vulkan_device_open (d->device, &err)) {
    fprintf (stderr, "no Vulkan device: %s\n", err->message);
    g_clear_error (&err);
    return false;
  }
  d->queue = gpc_vk_device_compute_queue (d->device);
  if (!d->queue) {
    fprintf (stderr, "the Vulkan device has no compute queue\n");
    return false;
  }
  return true;
}

double run_appsrc (GstElement *pipe, const char *src_name,
    const std::vector<GstBuffer *> &frames, unsigned n)
{
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), src_name);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  auto t0 = Clock::now ();
  for (unsigned i = 0; i < n; i++) {
    GstBuffer *b = gst_buffer_copy (frames[i % frames.size ()]);
    GST_BUFFER_PTS (b) = gst_util_uint64_scale (i, GST_SECOND, 60);
    GST_BUFFER_DURATION (b) = GST_SECOND / 60;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  double secs = seconds_since (t0);
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    fprintf (stderr, "pipeline failed\n");
    exit (1);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  return n / secs;
}

std::vector<unsigned> parse_list (const char *s)
{
  std::vector<unsigned> v;
  for (char *p = (char *) s; *p;) {
    v.push_back (strtoul (p, &p, 10));
    if (*p == ',')
      p++;
  }
  return v;
}

void submit_timed (gpc::VkExec *exec, gpc::VkGpuTimer *timer, std::vector<double> &ns)
{
  GError *err = NULL;
  GstVulkanFence *fence = exec->submit (&err);
  if (!fence || !exec->wait (fence, 300 * GST_SECOND, &err)) {
    fprintf (stderr, "GPU failure: %s\n", err ? err->message : "?");
    exit (1);
  }
  gst_vulkan_fence_unref (fence);
  timer->read (ns);
}

} // namespace gpc_bench
