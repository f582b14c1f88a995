/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpcvkbuffer.h"

namespace gpc {

GstMemory *vk_storage_alloc (GstVulkanDevice *device, gsize size, bool host_visible,
    GError **error)
{
  VkMemoryPropertyFlags props = host_visible ?
      (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) :
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  GstMemory *mem = gst_vulkan_buffer_memory_alloc (device, size, kStorageUsage, props);
  if (!mem)
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "could not allocate a %s Vulkan buffer of %" G_GSIZE_FORMAT " bytes",
        host_visible ? "host-visible" : "device-local", size);
  return mem;
}

GstMemory *vk_storage_alloc (GstVulkanDevice *device, gsize size, VkMemKind kind,
    GError **error)
{
  if (kind == VkMemKind::HostRead) {
    GstMemory *mem = gst_vulkan_buffer_memory_alloc (device, size, kStorageUsage,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
        VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (mem)
      return mem;
  }
  return vk_storage_alloc (device, size, kind != VkMemKind::Device, error);
}

bool vk_is_storage_buffer (GstMemory *mem)
{
  return mem && gst_is_vulkan_buffer_memory (mem) &&
      (((GstVulkanBufferMemory *) mem)->usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
}

VkBufferCache::VkBufferCache (GstVulkanDevice *device, VkMemKind kind)
    : device_ ((GstVulkanDevice *) gst_object_ref (device)), kind_ (kind)
{
}

VkBufferCache::~VkBufferCache ()
{
  for (GstBuffer *b : all_)
    gst_buffer_unref (b);
  gst_object_unref (device_);
}

GstBuffer *VkBufferCache::acquire (gsize size, GError **error)
{
  std::lock_guard<std::mutex> g (lock_);
  /* Free = only the cache holds it. */
  for (GstBuffer *b : all_) {
    if (GST_MINI_OBJECT_REFCOUNT_VALUE (b) == 1 && gst_buffer_get_size (b) >= size)
      return gst_buffer_ref (b);
  }
  GstMemory *mem = vk_storage_alloc (device_, size, kind_, error);
  if (!mem)
    return nullptr;
  GstBuffer *b = gst_buffer_new ();
  gst_buffer_append_memory (b, mem);
  all_.push_back (b);
  return gst_buffer_ref (b);
}

void VkBufferCache::trim ()
{
  std::lock_guard<std::mutex> g (lock_);
  std::vector<GstBuffer *> keep;
  for (GstBuffer *b : all_) {
    if (GST_MINI_OBJECT_REFCOUNT_VALUE (b) == 1)
      gst_buffer_unref (b);
    else
      keep.push_back (b);
  }
  all_.swap (keep);
}

bool video_plane_location (GstBuffer *buffer, const GstVideoInfo *info, guint plane,
    GstMemory **mem, gsize *offset, gint *stride)
{
  GstVideoMeta *meta = gst_buffer_get_video_meta (buffer);
  gsize off = meta ? meta->offset[plane] : GST_VIDEO_INFO_PLANE_OFFSET (info, plane);
  *stride = meta ? meta->stride[plane] : GST_VIDEO_INFO_PLANE_STRIDE (info, plane);
  guint idx, len;
  gsize skip;
  if (!gst_buffer_find_memory (buffer, off, 1, &idx, &len, &skip))
    return false;
  *mem = gst_buffer_peek_memory (buffer, idx);
  *offset = skip;
  return true;
}

} // namespace gpc
