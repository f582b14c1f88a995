/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Records every gst_memory_map(), vkMapMemory() and vkCreateDevice() call
 * that a shared library (libgstvulkan, our plugins) makes in this process,
 * by defining those functions in the test executable: linked with
 * export_dynamic, its definitions come first in the global symbol scope, and
 * each forwards to the real one (dlsym RTLD_NEXT).
 *
 * What it sees: every map of a GstVulkanBufferMemory / GstVulkanImageMemory,
 * because their allocators map the GstVulkanMemory inside them with
 * gst_memory_map() from libgstvulkan and that memory with vkMapMemory(),
 * whoever maps the outer memory. What it cannot see: libgstreamer's own
 * calls to gst_memory_map() (bound inside the library), so a map is
 * recognised by the GstVulkanMemory it reaches, never by the outer memory.
 */
#pragma once

#include <gst/gst.h>
#include <vulkan/vulkan.h>
/* 1.22's Vulkan headers lack extern "C" in places. */
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include <cstddef>
#include <vector>

namespace map_recorder {

struct GstMap {
  const GstMemory *mem;  /* identity only: may be freed since */
  const char *mem_type;  /* the allocator's mem_type, a static string */
  gsize size;            /* the memory's size */
  GstMapFlags flags;
};

struct VkMap {
  VkDeviceMemory memory;
  VkDeviceSize size;
};

/* Copies of what was recorded since the last clear(). */
std::vector<GstMap> gst_maps ();
std::vector<VkMap> vk_maps ();
int devices_created ();
void clear ();

} // namespace map_recorder
