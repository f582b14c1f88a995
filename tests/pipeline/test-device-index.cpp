/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * device-index picks the physical device, whatever the pipeline shares.
 * One pipeline, one branch per device (two at least: a second lavapipe is
 * added where the machine shows one device, gpc-vk-devices.h), each
 *   videotestsrc ! I420 ! vkvvcalf ! VulkanBuffer ! vkvmafmotion ! vkrgbaconvert ! RGBA ! appsink
 * with every element given its branch's device-index, while the application
 * hands the whole pipeline a device of physical device 0 through a
 * GstContext. Each element must run on its branch's physical device (branch
 * 0 on the application's device), every GPU buffer between them must be of
 * that device, and every branch must give the pictures a run without
 * device-index gives, bit for bit. Also: an index out of range fails with an
 * error that lists the devices, two elements on different devices fall back
 * to system memory between them, and device-index=-2 spreads pipelines.
 */
#include <gst/check/gstcheck.h>

/* Before GStreamer's header, which otherwise declares the handles itself
 * (as uint64_t): one definition of its structures in every unit. */
#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <string>
#include <vector>

#include "gpc-test.h"
#include "gpc-vk-devices.h"
#include "gpc-vk-test.h"

namespace {

guint n_devices;
const int kFrames = 6;

std::string
branch (int i, int index)
{
  std::string di = index >= 0 ? " device-index=" + std::to_string (index) : "";
  std::string n = std::to_string (i);
  return "videotestsrc num-buffers=" + std::to_string (kFrames) + " pattern=ball "
         "! video/x-raw,format=I420,width=128,height=96,framerate=30/1 "
         "! vkvvcalf fixed-filter-set=3 name=alf" + n + di +
         " ! video/x-raw(memory:VulkanBuffer) ! vkvmafmotion name=motion" + n + di +
         " ! vkrgbaconvert name=rgb" + n + di +
         " ! video/x-raw,format=RGBA ! fakesink name=sink" + n + " ";
}

/* Buffers between vkvvcalf and vkvmafmotion: each memory's device must be
 * the one that vkvvcalf runs on. */
struct DeviceCheck {
  GstElement *alf;
  int buffers = 0, wrong = 0;
};

GstPadProbeReturn
check_memory_device (GstPad *, GstPadProbeInfo * info, gpointer data)
{
  DeviceCheck *c = (DeviceCheck *) data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstVulkanDevice *want = gpc_vk_test_device_of (c->alf);
  for (guint m = 0; m < gst_buffer_n_memory (buf); m++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, m);
    GstVulkanDevice *have = gst_is_vulkan_buffer_memory (mem) ?
        ((GstVulkanBufferMemory *) mem)->device : NULL;
    if (have != want)
      c->wrong++;
  }
  c->buffers++;
  gst_clear_object (&want);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn
keep_picture (GstPad *, GstPadProbeInfo * info, gpointer data)
{
  GstMapInfo map;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  ((std::vector<std::string> *) data)->emplace_back ((const char *) map.data, map.size);
  gst_buffer_unmap (buf, &map);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn
keep_caps (GstPad *, GstPadProbeInfo * info, gpointer data)
{
  GstEvent *e = GST_PAD_PROBE_INFO_EVENT (info);
  if (GST_EVENT_TYPE (e) == GST_EVENT_CAPS) {
    GstCaps *caps;
    gst_event_parse_caps (e, &caps);
    gst_caps_replace ((GstCaps **) data, caps);
  }
  return GST_PAD_PROBE_OK;
}

/* Runs `pipe` to EOS; the RGBA pictures that reach fakesink `sink<i>`, for
 * each i < n_sinks (copied as they arrive: the elements' pools are small). */
std::vector<std::vector<std::string>>
run_pipeline (GstElement * pipe, int n_sinks)
{
  std::vector<std::vector<std::string>> out (n_sinks);
  for (int i = 0; i < n_sinks; i++) {
    gchar *name = g_strdup_printf ("sink%d", i);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), name);
    g_free (name);
    GstPad *pad = gst_element_get_static_pad (sink, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_picture, &out[i], NULL);
    gst_object_unref (pad);
    gst_object_unref (sink);
  }
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  fail_unless (msg != NULL, "no EOS in 120 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &err, &dbg);
    fail ("%s: %s (%s)", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message, dbg);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  /* The probes stay on pads of the pipeline, which outlives `out` only in
   * NULL state, where nothing flows. */
  gst_element_set_state (pipe, GST_STATE_READY);
  return out;
}

gint
physical_index (GstElement * pipe, const char *name)
{
  GstElement *e = gst_bin_get_by_name (GST_BIN (pipe), name);
  GstVulkanDevice *d = gpc_vk_test_device_of (e);
  fail_unless (d != NULL, "%s answers no device", name);
  gint idx = (gint) d->physical_device->device_index;
  gchar *dev_name = NULL;
  g_object_get (e, "device-name", &dev_name, NULL);
  gchar *want = g_strdup_printf ("(device %d", idx);
  fail_unless (dev_name && strstr (dev_name, want), "%s: device-name \"%s\"", name,
      GST_STR_NULL (dev_name));
  GST_INFO ("%s on %s", name, dev_name);
  g_free (want);
  g_free (dev_name);
  gst_object_unref (d);
  gst_object_unref (e);
  return idx;
}

} // namespace

GST_START_TEST (branches_on_their_devices)
{
  /* The reference: one branch, no device-index. */
  GstElement *pipe = gst_parse_launch (branch (0, -1).c_str (), NULL);
  fail_unless (pipe != NULL);
  std::vector<std::string> want = run_pipeline (pipe, 1)[0];
  fail_unless_equals_int ((int) want.size (), kFrames);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);

  /* The application's device of physical device 0, for the whole pipeline. */
  GpcVkTestDevice app;
  std::string desc;
  for (guint i = 0; i < n_devices; i++)
    desc += branch (i, i);
  pipe = gst_parse_launch (desc.c_str (), NULL);
  fail_unless (pipe != NULL);
  app.share_with (pipe);

  std::vector<DeviceCheck> checks (n_devices);
  for (guint i = 0; i < n_devices; i++) {
    gchar *name = g_strdup_printf ("alf%u", i);
    checks[i].alf = gst_bin_get_by_name (GST_BIN (pipe), name);
    g_free (name);
    GstPad *src = gst_element_get_static_pad (checks[i].alf, "src");
    gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, check_memory_device, &checks[i], NULL);
    gst_object_unref (src);
  }
  auto got = run_pipeline (pipe, n_devices);
  for (guint i = 0; i < n_devices; i++) {
    for (const char *e : { "alf", "motion", "rgb" }) {
      gchar *name = g_strdup_printf ("%s%u", e, i);
      fail_unless_equals_int (physical_index (pipe, name), (gint) i);
      g_free (name);
    }
    fail_unless_equals_int (checks[i].buffers, kFrames);
    fail_unless_equals_int (checks[i].wrong, 0);
    fail_unless_equals_int ((int) got[i].size (), kFrames);
    for (int f = 0; f < kFrames; f++)
      fail_unless (got[i][f] == want[f], "branch %u, frame %d differs from one device's", i, f);
    GstVulkanDevice *d = gpc_vk_test_device_of (checks[i].alf);
    /* Physical device 0: the application's VkDevice; the others their own. */
    fail_unless ((d == app.device) == (i == 0), "branch %u: device %p, application's %p", i,
        d, app.device);
    gst_object_unref (d);
    gst_object_unref (checks[i].alf);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

GST_START_TEST (index_out_of_range)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 ! video/x-raw,format=I420,"
      "width=64,height=48 ! vkvvcalf device-index=%u ! fakesink", n_devices);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  g_free (desc);
  fail_unless (pipe != NULL);
  GstStateChangeReturn r = gst_element_set_state (pipe, GST_STATE_PAUSED);
  if (r == GST_STATE_CHANGE_ASYNC)
    r = gst_element_get_state (pipe, NULL, NULL, 60 * GST_SECOND);
  fail_unless_equals_int (r, GST_STATE_CHANGE_FAILURE);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  GError *err = NULL;
  gst_message_parse_error (msg, &err, NULL);
  GST_INFO ("error: %s", err->message);
  fail_unless (strstr (err->message, "requested, but only") != NULL, "%s", err->message);
  /* Each device present is named, with its index. */
  for (guint i = 0; i < n_devices; i++) {
    gchar *d = g_strdup_printf ("(device %u", i);
    fail_unless (strstr (err->message, d) != NULL, "%s", err->message);
    g_free (d);
  }
  g_error_free (err);
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}
GST_END_TEST;

GST_START_TEST (different_devices_meet_in_system_memory)
{
  GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=6 pattern=ball "
      "! video/x-raw,format=I420,width=128,height=96 ! vkvvcalf name=alf device-index=0 "
      "fixed-filter-set=3 ! vkvmafmotion device-index=1 ! vkrgbaconvert device-index=1 "
      "! video/x-raw,format=RGBA ! fakesink name=sink0", NULL);
  fail_unless (pipe != NULL);
  GstElement *alf = gst_bin_get_by_name (GST_BIN (pipe), "alf");
  GstPad *src = gst_element_get_static_pad (alf, "src");
  GstCaps *caps = NULL;
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, keep_caps, &caps, NULL);
  auto got = run_pipeline (pipe, 1);
  fail_unless (caps != NULL);
  GstCapsFeatures *f = gst_caps_get_features (caps, 0);
  fail_unless (!f || gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY),
      "between devices: %" GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_object_unref (src);
  gst_object_unref (alf);
  fail_unless_equals_int ((int) got[0].size (), 6);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* device-index=-2: two pipelines with nothing pinned or shared take
 * different devices, and the elements of each stay together. */
GST_START_TEST (spread_over_devices)
{
  GstElement *pipe[2];
  gint where[2];
  for (int k = 0; k < 2; k++) {
    pipe[k] = gst_parse_launch ("videotestsrc num-buffers=6 pattern=ball "
        "! video/x-raw,format=I420,width=128,height=96 ! vkvvcalf name=alf0 device-index=-2 "
        "fixed-filter-set=3 ! vkvmafmotion name=motion0 device-index=-2 ! vkrgbaconvert name=rgb0 device-index=-2 "
        "! video/x-raw,format=RGBA ! fakesink name=sink0", NULL);
    fail_unless (pipe[k] != NULL);
    fail_unless_equals_int ((int) run_pipeline (pipe[k], 1)[0].size (), 6);
    where[k] = physical_index (pipe[k], "alf0");
    fail_unless_equals_int (physical_index (pipe[k], "motion0"), where[k]);
    fail_unless_equals_int (physical_index (pipe[k], "rgb0"), where[k]);
  }
  fail_unless (where[0] != where[1], "both pipelines on device %d", where[0]);
  for (GstElement *p : pipe) {
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  n_devices = gpc_vk_test_want_devices (2);
  if (n_devices < 2) {
    g_print ("SKIP: %u Vulkan device(s) and no lavapipe to add a second\n", n_devices);
    return 77;
  }
  g_print ("%u Vulkan devices\n", n_devices);
  int ret = gpc_vk_test_main (&argc, &argv, "device-index", {
      GPC_CHECK_TEST (branches_on_their_devices),
      GPC_CHECK_TEST (index_out_of_range),
      GPC_CHECK_TEST (different_devices_meet_in_system_memory),
      GPC_CHECK_TEST (spread_over_devices),
  });
  gpc_vk_test_devices_cleanup ();
  return ret;
}
