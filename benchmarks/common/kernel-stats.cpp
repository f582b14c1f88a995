/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * kernel-stats: what the Vulkan driver made of one of our compute shaders
 * (registers, shared memory, code size: whatever the driver reports through
 * VK_KHR_pipeline_executable_properties), for given specialization
 * constants. A developer's tool beside the benchmarks: occupancy explains
 * timings that instruction counts do not.
 *
 *   kernel-stats SHADER [C0,C1,...]   constant_id 0, 1, ... in order
 *   kernel-stats FILE.spv [C0,...]    a SPIR-V file (a variant being tried)
 *   kernel-stats --list
 *
 * It opens its own VkDevice (the first with the extension), not
 * GStreamer's: the extension must be enabled at device creation.
 */
#include <vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "prores_decode.spv.h"
#include "prores_idct.spv.h"
#include "prores_pack_ayuv64.spv.h"
#include "prores_vld.spv.h"
#include "vmaf_adm_dwt.spv.h"
#include "vmaf_adm_masked.spv.h"
#include "vmaf_adm_rows.spv.h"
#include "vmaf_motion_sad.spv.h"
#include "vmaf_vif.spv.h"
#include "vvc_alf.spv.h"
#include "yuv_to_rgba.spv.h"

namespace {

struct Shader {
  const char *name;
  const uint32_t *code;
  size_t bytes;
};

#define SHADER(n) { #n, n##_spv, sizeof (n##_spv) }
const Shader kShaders[] = {
  SHADER (vmaf_vif), SHADER (vmaf_adm_dwt), SHADER (vmaf_adm_masked), SHADER (vmaf_adm_rows),
  SHADER (vmaf_motion_sad), SHADER (vvc_alf), SHADER (prores_decode), SHADER (prores_vld),
  SHADER (prores_idct), SHADER (prores_pack_ayuv64), SHADER (yuv_to_rgba),
};
#undef SHADER

/* Descriptor bindings and push constants declared generously: a layout may
 * declare more than a shader uses (yuv_to_rgba's binding 4 is its output
 * image). */
const uint32_t kBindings = 8;
const uint32_t kPushBytes = 128;

/* A Vulkan structure, zeroed, of type t. */
template <typename T> T vk_struct (VkStructureType t)
{
  T s = {};
  s.sType = t;
  return s;
}

/* A Vulkan list query's results (count, then entries), each entry's sType
 * set first as the query requires. */
template <typename T, typename Query> std::vector<T> vk_list (VkStructureType t, Query query)
{
  uint32_t n = 0;
  query (&n, nullptr);
  std::vector<T> v (n, vk_struct<T> (t));
  query (&n, v.data ());
  v.resize (n);
  return v;
}

int fail (const char *what, VkResult r)
{
  fprintf (stderr, "kernel-stats: %s failed (VkResult %d)\n", what, (int) r);
  return 1;
}

void print_stat (const VkPipelineExecutableStatisticKHR &s)
{
  printf ("  %-28s ", s.name);
  switch (s.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
      printf ("%s", s.value.b32 ? "true" : "false");
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
      printf ("%lld", (long long) s.value.i64);
      break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
      printf ("%llu", (unsigned long long) s.value.u64);
      break;
    default:
      printf ("%g", s.value.f64);
      break;
  }
  printf ("   (%s)\n", s.description);
}

} // namespace

int main (int argc, char **argv)
{
  if (argc >= 2 && !strcmp (argv[1], "--list")) {
    for (const Shader &s : kShaders)
      printf ("%s\n", s.name);
    return 0;
  }
  if (argc < 2 || argc > 3) {
    fprintf (stderr, "usage: kernel-stats SHADER|FILE.spv [C0,C1,...] | --list\n");
    return 2;
  }
  const Shader *shader = nullptr;
  for (const Shader &s : kShaders)
    if (!strcmp (s.name, argv[1]))
      shader = &s;
  std::vector<uint32_t> file_code;
  Shader from_file = { argv[1], nullptr, 0 };
  const size_t len = strlen (argv[1]);
  if (!shader && len > 4 && !strcmp (argv[1] + len - 4, ".spv")) {
    FILE *f = fopen (argv[1], "rb");
    if (!f) {
      fprintf (stderr, "kernel-stats: cannot open %s\n", argv[1]);
      return 2;
    }
    uint32_t w;
    while (fread (&w, 4, 1, f) == 1)
      file_code.push_back (w);
    fclose (f);
    from_file.code = file_code.data ();
    from_file.bytes = 4 * file_code.size ();
    shader = &from_file;
  }
  if (!shader) {
    fprintf (stderr, "kernel-stats: no shader %s (--list)\n", argv[1]);
    return 2;
  }
  std::vector<uint32_t> consts;
  if (argc == 3) {
    for (const char *p = argv[2]; *p;) {
      char *end;
      consts.push_back ((uint32_t) strtoul (p, &end, 0));
      if (end == p || (*end && *end != ',')) {
        fprintf (stderr, "kernel-stats: constants are numbers separated by commas\n");
        return 2;
      }
      p = *end ? end + 1 : end;
    }
  }

  auto app = vk_struct<VkApplicationInfo> (VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "kernel-stats";
  app.apiVersion = VK_API_VERSION_1_1;
  auto ici = vk_struct<VkInstanceCreateInfo> (VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  VkInstance instance;
  VkResult r = vkCreateInstance (&ici, nullptr, &instance);
  if (r != VK_SUCCESS)
    return fail ("vkCreateInstance", r);

  uint32_t n_phys = 0;
  vkEnumeratePhysicalDevices (instance, &n_phys, nullptr);
  std::vector<VkPhysicalDevice> phys (n_phys);
  vkEnumeratePhysicalDevices (instance, &n_phys, phys.data ());
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  for (VkPhysicalDevice p : phys) {
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties (p, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> exts (n);
    vkEnumerateDeviceExtensionProperties (p, nullptr, &n, exts.data ());
    for (const VkExtensionProperties &e : exts)
      if (!strcmp (e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME))
        pd = p;
    if (pd)
      break;
  }
  if (!pd) {
    fprintf (stderr, "kernel-stats: no device has %s\n",
        VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    return 1;
  }
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties (pd, &props);
  printf ("device: %s (driver %u.%u)\n", props.deviceName, props.driverVersion >> 22,
      (props.driverVersion >> 14) & 0xff);

  uint32_t n_q = 0;
  vkGetPhysicalDeviceQueueFamilyProperties (pd, &n_q, nullptr);
  std::vector<VkQueueFamilyProperties> qf (n_q);
  vkGetPhysicalDeviceQueueFamilyProperties (pd, &n_q, qf.data ());
  uint32_t family = 0;
  for (uint32_t i = 0; i < n_q; i++)
    if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      family = i;
      break;
    }
  const float prio = 1.0f;
  auto qci = vk_struct<VkDeviceQueueCreateInfo> (VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &prio;
  auto feat = vk_struct<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR> (
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);
  feat.pipelineExecutableInfo = VK_TRUE;
  const char *ext = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
  auto dci = vk_struct<VkDeviceCreateInfo> (VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.pNext = &feat;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = 1;
  dci.ppEnabledExtensionNames = &ext;
  VkDevice dev;
  r = vkCreateDevice (pd, &dci, nullptr, &dev);
  if (r != VK_SUCCESS)
    return fail ("vkCreateDevice", r);

  VkDescriptorSetLayoutBinding b[kBindings];
  for (uint32_t i = 0; i < kBindings; i++)
    b[i] = { i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr };
  if (!strcmp (shader->name, "yuv_to_rgba"))
    b[4].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
  auto dl = vk_struct<VkDescriptorSetLayoutCreateInfo> (
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  dl.bindingCount = kBindings;
  dl.pBindings = b;
  VkDescriptorSetLayout set_layout;
  r = vkCreateDescriptorSetLayout (dev, &dl, nullptr, &set_layout);
  if (r != VK_SUCCESS)
    return fail ("vkCreateDescriptorSetLayout", r);
  VkPushConstantRange push = { VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes };
  auto pl = vk_struct<VkPipelineLayoutCreateInfo> (VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &set_layout;
  pl.pushConstantRangeCount = 1;
  pl.pPushConstantRanges = &push;
  VkPipelineLayout layout;
  r = vkCreatePipelineLayout (dev, &pl, nullptr, &layout);
  if (r != VK_SUCCESS)
    return fail ("vkCreatePipelineLayout", r);

  auto smi = vk_struct<VkShaderModuleCreateInfo> (VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  smi.codeSize = shader->bytes;
  smi.pCode = shader->code;
  VkShaderModule module;
  r = vkCreateShaderModule (dev, &smi, nullptr, &module);
  if (r != VK_SUCCESS)
    return fail ("vkCreateShaderModule", r);

  std::vector<VkSpecializationMapEntry> entries (consts.size ());
  for (size_t i = 0; i < consts.size (); i++)
    entries[i] = { (uint32_t) i, (uint32_t) (4 * i), 4 };
  VkSpecializationInfo spec = { (uint32_t) consts.size (), entries.data (), 4 * consts.size (),
    consts.data () };
  auto cpi = vk_struct<VkComputePipelineCreateInfo> (
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  cpi.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  cpi.stage = vk_struct<VkPipelineShaderStageCreateInfo> (
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO);
  cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpi.stage.module = module;
  cpi.stage.pName = "main";
  cpi.stage.pSpecializationInfo = consts.empty () ? nullptr : &spec;
  cpi.layout = layout;
  VkPipeline pipeline;
  r = vkCreateComputePipelines (dev, VK_NULL_HANDLE, 1, &cpi, nullptr, &pipeline);
  if (r != VK_SUCCESS)
    return fail ("vkCreateComputePipelines", r);

  auto get_props = (PFN_vkGetPipelineExecutablePropertiesKHR) vkGetDeviceProcAddr (dev,
      "vkGetPipelineExecutablePropertiesKHR");
  auto get_stats = (PFN_vkGetPipelineExecutableStatisticsKHR) vkGetDeviceProcAddr (dev,
      "vkGetPipelineExecutableStatisticsKHR");
  auto pinfo = vk_struct<VkPipelineInfoKHR> (VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
  pinfo.pipeline = pipeline;
  const auto execs = vk_list<VkPipelineExecutablePropertiesKHR> (
      VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR,
      [&] (uint32_t *n, VkPipelineExecutablePropertiesKHR *v) { get_props (dev, &pinfo, n, v); });
  const char *constants = argc == 3 ? argv[2] : "defaults";
  for (uint32_t e = 0; e < execs.size (); e++) {
    printf ("%s [%s] executable %u: %s (subgroup %u)\n", shader->name, constants, e,
        execs[e].name, execs[e].subgroupSize);
    auto xi = vk_struct<VkPipelineExecutableInfoKHR> (
        VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
    xi.pipeline = pipeline;
    xi.executableIndex = e;
    const auto stats = vk_list<VkPipelineExecutableStatisticKHR> (
        VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR,
        [&] (uint32_t *n, VkPipelineExecutableStatisticKHR *v) { get_stats (dev, &xi, n, v); });
    for (const VkPipelineExecutableStatisticKHR &s : stats)
      print_stat (s);
  }

  vkDestroyPipeline (dev, pipeline, nullptr);
  vkDestroyShaderModule (dev, module, nullptr);
  vkDestroyPipelineLayout (dev, layout, nullptr);
  vkDestroyDescriptorSetLayout (dev, set_layout, nullptr);
  vkDestroyDevice (dev, nullptr);
  vkDestroyInstance (instance, nullptr);
  return 0;
}
