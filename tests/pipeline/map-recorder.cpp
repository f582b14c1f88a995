/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The interposed functions; see map-recorder.h. Link into the test
 * executable itself (not a library) with export_dynamic : true.
 */
#include "map-recorder.h"

#include <dlfcn.h>

#include <mutex>

namespace {

std::mutex lock;
std::vector<map_recorder::GstMap> gst_log;
std::vector<map_recorder::VkMap> vk_log;
int device_count;

template <typename F>
F
real (const char *name)
{
  void *p = dlsym (RTLD_NEXT, name);
  if (!p)
    g_error ("map-recorder: no %s after the executable", name);
  return reinterpret_cast<F> (p);
}

} // namespace

extern "C" {

gboolean
gst_memory_map (GstMemory *mem, GstMapInfo *info, GstMapFlags flags)
{
  typedef gboolean (*Fn) (GstMemory *, GstMapInfo *, GstMapFlags);
  static Fn fn = real<Fn> ("gst_memory_map");
  if (mem) {
    std::lock_guard<std::mutex> g (lock);
    gst_log.push_back ({ mem, mem->allocator ? mem->allocator->mem_type : NULL, mem->size, flags });
  }
  return fn (mem, info, flags);
}

VKAPI_ATTR VkResult VKAPI_CALL
vkMapMemory (VkDevice device, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size,
    VkMemoryMapFlags flags, void **data)
{
  typedef VkResult (VKAPI_PTR *Fn) (VkDevice, VkDeviceMemory, VkDeviceSize, VkDeviceSize,
      VkMemoryMapFlags, void **);
  static Fn fn = real<Fn> ("vkMapMemory");
  {
    std::lock_guard<std::mutex> g (lock);
    vk_log.push_back ({ memory, size });
  }
  return fn (device, memory, offset, size, flags, data);
}

VKAPI_ATTR VkResult VKAPI_CALL
vkCreateDevice (VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
    const VkAllocationCallbacks *allocator, VkDevice *device)
{
  typedef VkResult (VKAPI_PTR *Fn) (VkPhysicalDevice, const VkDeviceCreateInfo *,
      const VkAllocationCallbacks *, VkDevice *);
  static Fn fn = real<Fn> ("vkCreateDevice");
  {
    std::lock_guard<std::mutex> g (lock);
    device_count++;
  }
  return fn (physical, info, allocator, device);
}

} // extern "C"

namespace map_recorder {

std::vector<GstMap>
gst_maps ()
{
  std::lock_guard<std::mutex> g (lock);
  return gst_log;
}

std::vector<VkMap>
vk_maps ()
{
  std::lock_guard<std::mutex> g (lock);
  return vk_log;
}

int
devices_created ()
{
  std::lock_guard<std::mutex> g (lock);
  return device_count;
}

void
clear ()
{
  std::lock_guard<std::mutex> g (lock);
  gst_log.clear ();
  vk_log.clear ();
  device_count = 0;
}

} // namespace map_recorder
