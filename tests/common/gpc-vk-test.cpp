/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-vk-test.h"

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

static std::mutex lock;
static std::vector<std::string> errors;

static void
watch_log (GstDebugCategory *category, GstDebugLevel level, const gchar *file,
    const gchar *function, gint line, GObject *object, GstDebugMessage *message,
    gpointer user_data)
{
  if (level != GST_LEVEL_ERROR || g_strcmp0 (gst_debug_category_get_name (category), "vulkandebug"))
    return;
  std::lock_guard<std::mutex> g (lock);
  errors.push_back (gst_debug_message_get (message));
}

void
gpc_vk_test_init (void)
{
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

  /* GStreamer enables VK_EXT_debug_report only while "vulkandebug" logs
   * errors at least; warnings are kept for the log, errors fail tests. */
  gst_debug_set_threshold_for_name ("vulkandebug", GST_LEVEL_WARNING);
  gst_debug_add_log_function (watch_log, NULL, NULL);
}

void
gpc_vk_test_check_validation (void)
{
  std::lock_guard<std::mutex> g (lock);
  for (const std::string &e : errors)
    printf ("VALIDATION ERROR: %s\n", e.c_str ());
  size_t n = errors.size ();
  errors.clear ();
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
