/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-vk-test.h"

#include <gst/check/gstcheck.h>
#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpc-test.h"

/* The validation layer reports to a log file of this process, configured
 * through the layer's own settings file (VK_LAYER_SETTINGS_PATH, read at
 * each vkCreateInstance by every layer release we meet: 1.3.239 on Debian
 * 12, 1.4.309 on Debian 13), the same way on every GStreamer version:
 * - errors only: the layer's informational and performance messages, which
 *   differ between layer releases, never fail a test;
 * - GPU-assisted validation off: it instruments every shader and makes
 *   lavapipe too slow for the suite;
 * - GStreamer's own "vulkandebug" reporting is left off: since 1.26 it also
 *   turns on GPU-assisted validation and raises every message it receives
 *   as a GLib warning. */
static std::mutex lock;
static std::string log_path, settings_path;
static long log_offset;
static std::vector<std::string> tolerated_ids;
static int tolerated_count;

static void
use_own_log (void)
{
  gchar *base = g_strdup_printf ("%s/gpc-vk-validation-%d", g_get_tmp_dir (), (int) getpid ());
  log_path = std::string (base) + ".log";
  settings_path = std::string (base) + ".txt";
  g_free (base);
  log_offset = 0;
  unlink (log_path.c_str ());
  FILE *f = fopen (settings_path.c_str (), "w");
  if (!f)
    g_error ("cannot write %s", settings_path.c_str ());
  fprintf (f, "khronos_validation.report_flags = error\n"
      "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n"
      "khronos_validation.log_filename = %s\n"
      "khronos_validation.gpuav_enable = false\n"
      "khronos_validation.validate_gpu_based = GPU_BASED_NONE\n", log_path.c_str ());
  fclose (f);
  g_setenv ("VK_LAYER_SETTINGS_PATH", settings_path.c_str (), TRUE);
}

/* gst-check runs each test in a child process by default: each child logs
 * to a file of its own. */
static void
forked_child (void)
{
  use_own_log ();
}

static void
remove_log_at_exit (void)
{
  if (!log_path.empty ()) {
    unlink (log_path.c_str ());
    unlink (settings_path.c_str ());
  }
}

/* The messages the layer logged since the last call (one string each). */
static std::vector<std::string>
new_messages (void)
{
  std::vector<std::string> out;
  FILE *f = fopen (log_path.c_str (), "r");
  if (!f)
    return out;
  fseek (f, log_offset, SEEK_SET);
  /* A message starts on the line that names its severity (first in 1.4's
   * format, after the VUID in 1.3's); the lines after it belong to it. */
  char line[4096];
  while (fgets (line, sizeof line, f)) {
    if (strstr (line, "Validation Error") || strstr (line, "Validation Warning") ||
        strstr (line, "Validation Performance") || strstr (line, "Validation Information") ||
        out.empty ())
      out.emplace_back (line);
    else
      out.back () += line;
  }
  log_offset = ftell (f);
  fclose (f);
  return out;
}

void
gpc_vk_test_tolerate (const char *message_id)
{
  std::lock_guard<std::mutex> g (lock);
  tolerated_ids.emplace_back (message_id);
}

int
gpc_vk_test_tolerated (void)
{
  std::lock_guard<std::mutex> g (lock);
  return tolerated_count;
}

void
gpc_vk_test_init (void)
{
  use_own_log ();
  static bool registered;
  if (!registered) {
    registered = true;
    pthread_atfork (NULL, NULL, forked_child);
    atexit (remove_log_at_exit);
  }
  GstVulkanInstance *instance = gst_vulkan_instance_new ();
  GError *error = NULL;
  if (!gst_vulkan_instance_open (instance, &error)) {
    gst_object_unref (instance);
    gpc_test::skip ("no Vulkan instance (%s): install a Vulkan driver, e.g. mesa-vulkan-drivers",
        error ? error->message : "?");
  }
  if (instance->n_physical_devices == 0) {
    gst_object_unref (instance);
    gpc_test::skip ("no Vulkan physical device");
  }
  GstVulkanPhysicalDevice *pd = gst_vulkan_physical_device_new (instance, 0);
  printf ("gpc-vk-test: Vulkan device 0: %s, validation layer %s\n",
      pd->properties.deviceName,
      g_strrstr (g_getenv ("VK_INSTANCE_LAYERS") ? g_getenv ("VK_INSTANCE_LAYERS") : "",
          "VK_LAYER_KHRONOS_validation") ? "requested" : "NOT requested");
  fflush (stdout);
  gst_object_unref (pd);
  gst_object_unref (instance);
  /* What the probe's instance logged is not a test's. */
  new_messages ();
}

size_t
gpc_vk_test_validation_errors (void)
{
  std::lock_guard<std::mutex> g (lock);
  size_t n = 0;
  for (const std::string &m : new_messages ()) {
    bool tolerated = false;
    for (const std::string &id : tolerated_ids)
      tolerated = tolerated || m.find (id) != std::string::npos;
    if (tolerated) {
      tolerated_count++;
      continue;
    }
    printf ("VALIDATION ERROR: %s", m.c_str ());
    n++;
  }
  return n;
}

void
gpc_vk_test_check_validation (void)
{
  size_t n = gpc_vk_test_validation_errors ();
  fail_unless (n == 0, "%zu Vulkan validation errors (printed above)", n);
}

int
gpc_vk_test_main (int *argc, char ***argv, const char *name,
    std::initializer_list<gpc_test::CheckTest> tests, int timeout_s)
{
  gst_check_init (argc, argv);
  gpc_test::seed ();
  gpc_vk_test_init ();
  return gst_check_run_suite (gpc_test::check_suite (name, tests, timeout_s), name, name);
}

GstVulkanDevice *
gpc_vk_test_device_of (GstElement * element)
{
  GstQuery *q = gst_query_new_context (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);
  GstVulkanDevice *dev = NULL;
  if (gst_element_query (element, q)) {
    GstContext *ctx = NULL;
    gst_query_parse_context (q, &ctx);
    if (ctx)
      gst_context_get_vulkan_device (ctx, &dev);
  }
  gst_query_unref (q);
  return dev;
}

GstBuffer *
gpc_vk_test_to_vulkan_buffers (GstVulkanDevice * device, GstBuffer * sys, const GstVideoInfo * info,
    bool storage, bool skew)
{
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, info, sys, GST_MAP_READ));
  GstBuffer *out = gst_buffer_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 }, total = 0;
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  const gsize pad = skew ? 2 : 0;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    /* a plane's rows: those of its first component (packed formats too) */
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    gsize size = (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) * GST_VIDEO_FRAME_COMP_HEIGHT (&f, comp[0]);
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (storage)
      usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    GstMemory *mem = gst_vulkan_buffer_memory_alloc (device, size + pad, usage,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    GstMapInfo map;
    fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE));
    memcpy (map.data + pad, GST_VIDEO_FRAME_PLANE_DATA (&f, p), size);
    gst_memory_unmap (mem, &map);
    gst_buffer_append_memory (out, mem);
    offset[p] = total + pad;
    stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);
    total += size + pad;
  }
  gst_buffer_add_video_meta_full (out, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_N_PLANES (info), offset,
      stride);
  gst_video_frame_unmap (&f);
  return out;
}
