/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproresprobe.h"

#include <stdlib.h>

#include <vector>

#include "compute/gpcvkcontext.h"

namespace gpc {

/* The largest workgroup the element's kernels use (the split path's first
 * pass) and the shared memory its second pass takes for 4:4:4 (12 KiB of
 * coefficients and its tables): both are within Vulkan's required
 * minimums, so only a non-conformant device fails here, but the check
 * keeps the rank honest if the kernels grow. */
static const uint32_t kWorkgroupInvocations = 128;
static const uint32_t kSharedMemoryBytes = 16384;

bool prores_device_can_decode (const VkPhysicalDeviceProperties &props,
    const VkQueueFamilyProperties *families, uint32_t n_families, std::string *why)
{
  bool compute = false;
  for (uint32_t i = 0; i < n_families; i++)
    compute = compute || (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT);
  const VkPhysicalDeviceLimits &lim = props.limits;
  const char *missing = !compute ? "no queue with compute support" :
      lim.maxComputeWorkGroupInvocations < kWorkgroupInvocations
      || lim.maxComputeWorkGroupSize[0] < kWorkgroupInvocations ?
      "compute workgroups of 128 invocations not supported" :
      lim.maxComputeSharedMemorySize < kSharedMemoryBytes ?
      "less than 16 KiB of compute shared memory" : nullptr;
  if (missing && why)
    *why = missing;
  return missing == nullptr;
}

GstRank prores_probe_rank (std::string *why)
{
  const gchar *env = g_getenv (GPC_VULKAN_DEVICE_ENV);
  const int index = env && *env ? atoi (env) : 0;

  VkApplicationInfo app = { };
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "vkproresdec device probe";
  app.apiVersion = VK_API_VERSION_1_0;
  VkInstanceCreateInfo ci = { };
  ci.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ci.pApplicationInfo = &app;
  VkInstance instance = VK_NULL_HANDLE;
  VkResult r = vkCreateInstance (&ci, nullptr, &instance);
  if (r != VK_SUCCESS) {
    *why = "no Vulkan instance (VkResult " + std::to_string ((int) r) + ")";
    return GST_RANK_NONE;
  }
  GstRank rank = GST_RANK_NONE;
  uint32_t n = 0;
  vkEnumeratePhysicalDevices (instance, &n, nullptr);
  std::vector<VkPhysicalDevice> devices (n);
  if (n)
    vkEnumeratePhysicalDevices (instance, &n, devices.data ());
  if (index < 0 || (uint32_t) index >= n) {
    *why = "no Vulkan device " + std::to_string (index) + " (" + std::to_string (n) +
        " devices)";
  } else {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties (devices[index], &props);
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties (devices[index], &nf, nullptr);
    std::vector<VkQueueFamilyProperties> families (nf);
    if (nf)
      vkGetPhysicalDeviceQueueFamilyProperties (devices[index], &nf, families.data ());
    std::string missing;
    *why = std::string ("device ") + std::to_string (index) + " \"" + props.deviceName + "\": ";
    if (props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU
        || props.deviceType == VK_PHYSICAL_DEVICE_TYPE_OTHER) {
      /* lavapipe and the like: avdec_prores is faster on the same cores. */
      *why += "not a GPU";
    } else if (!prores_device_can_decode (props, families.data (), nf, &missing)) {
      *why += missing;
    } else {
      *why += "a GPU";
      rank = (GstRank) (GST_RANK_PRIMARY + 1);
    }
  }
  vkDestroyInstance (instance, nullptr);
  return rank;
}

void prores_add_probe_dependencies (GstPlugin *plugin)
{
  /* Which drivers the loader takes, and which device the element opens. */
  const gchar *env_vars[] = { "VK_ICD_FILENAMES", "VK_DRIVER_FILES", "VK_ADD_DRIVER_FILES",
    GPC_VULKAN_DEVICE_ENV, nullptr };
  gst_plugin_add_dependency (plugin, env_vars, nullptr, nullptr, GST_PLUGIN_DEPENDENCY_FLAG_NONE);
  /* Drivers installed or removed: the loader's default manifest folders. */
  const gchar *icd_paths[] = { "/etc/xdg/vulkan/icd.d", "/etc/vulkan/icd.d",
    "/usr/local/share/vulkan/icd.d", "/usr/share/vulkan/icd.d", nullptr };
  const gchar *icd_names[] = { ".json", nullptr };
  gst_plugin_add_dependency (plugin, nullptr, icd_paths, icd_names,
      GST_PLUGIN_DEPENDENCY_FLAG_FILE_NAME_IS_SUFFIX);
  /* GPUs appearing or going: render nodes, and NVIDIA's own device nodes. */
  const gchar *dri_paths[] = { "/dev/dri", nullptr };
  const gchar *dri_names[] = { "renderD", nullptr };
  gst_plugin_add_dependency (plugin, nullptr, dri_paths, dri_names,
      GST_PLUGIN_DEPENDENCY_FLAG_FILE_NAME_IS_PREFIX);
  const gchar *nv_paths[] = { "/dev", nullptr };
  const gchar *nv_names[] = { "nvidia", nullptr };
  gst_plugin_add_dependency (plugin, nullptr, nv_paths, nv_names,
      GST_PLUGIN_DEPENDENCY_FLAG_FILE_NAME_IS_PREFIX);
}

bool prores_tried_by_decodebin3 (GstElement *element)
{
  GstObject *parent = gst_object_get_parent (GST_OBJECT (element));
  GstElementFactory *f = parent && GST_IS_ELEMENT (parent) ?
      gst_element_get_factory (GST_ELEMENT (parent)) : NULL;
  const bool in_decodebin3 = f && !g_strcmp0 (GST_OBJECT_NAME (f), "decodebin3");
  gst_clear_object (&parent);
  return in_decodebin3;
}

GstMessage *prores_error_as_warning (GstMessage *error)
{
  GError *err = NULL;
  gchar *dbg = NULL;
  gst_message_parse_error (error, &err, &dbg);
  GstMessage *warning = gst_message_new_warning (GST_MESSAGE_SRC (error), err, dbg);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (error);
  return warning;
}

} // namespace gpc
