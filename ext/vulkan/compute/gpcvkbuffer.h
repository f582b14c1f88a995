/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Storage buffers for compute: allocation with the usage our shaders need
 * (GStreamer 1.22's buffer pool gives TRANSFER usage only), a cache that
 * recycles them, and the location of a video plane inside a GstBuffer.
 */
#pragma once

#include <gst/video/video.h>
#include "gpcvk.h"

#include <mutex>
#include <vector>

namespace gpc {

/* Usage of every buffer we allocate: storage, and copies both ways. */
constexpr VkBufferUsageFlags kStorageUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

/* Every device binds a storage buffer at a multiple of this offset (the
 * largest minStorageBufferOffsetAlignment Vulkan allows). Kernels that share
 * one scratch buffer between dispatches running at once bind each dispatch
 * only the parts it touches, at such offsets: then no two dispatches of a
 * stage bind the same bytes where one writes, and synchronization
 * validation can check them. */
constexpr VkDeviceSize kVkBindAlign = 256;

/* Words (4 bytes) from `words` up to the next multiple of kVkBindAlign. */
static inline uint64_t vk_bind_round_words (uint64_t words)
{
  return (words + kVkBindAlign / 4 - 1) / (kVkBindAlign / 4) * (kVkBindAlign / 4);
}

/* Binding of words `first` .. `first` + `words` - 1 (4 bytes each) of `mem`;
 * `first` * 4 a multiple of kVkBindAlign. */
static inline VkDescriptorBufferInfo vk_bind_words (GstVulkanBufferMemory *mem, uint64_t first,
    uint64_t words)
{
  return { mem->buffer, (VkDeviceSize) first * 4, (VkDeviceSize) words * 4 };
}

/* A GstVulkanBufferMemory of `size` bytes: device-local, or host-visible and
 * coherent (staging, results). NULL with error set on failure. */
GstMemory *vk_storage_alloc (GstVulkanDevice *device, gsize size, bool host_visible,
    GError **error);

/* Where a buffer lives, by who touches it. */
enum class VkMemKind {
  Device,    /* device-local: shaders only */
  HostWrite, /* host-visible, coherent: staging uploads, small results */
  HostRead,  /* host-visible, cached where the device has it: downloads the
              * CPU reads (uncached, write-combined memory reads slowly) */
};

/* The same, by kind. */
GstMemory *vk_storage_alloc (GstVulkanDevice *device, gsize size, VkMemKind kind,
    GError **error);

/* Whether `mem` is a Vulkan buffer our shaders can bind directly. */
bool vk_is_storage_buffer (GstMemory *mem);

/* Recycles storage buffers of one kind. A GstBuffer handed out returns to
 * the cache by itself when its last user drops it. */
class VkBufferCache {
 public:
  VkBufferCache (GstVulkanDevice *device, VkMemKind kind);
  VkBufferCache (GstVulkanDevice *device, bool host_visible)
      : VkBufferCache (device, host_visible ? VkMemKind::HostWrite : VkMemKind::Device) {}
  ~VkBufferCache ();
  /* A buffer holding one GstVulkanBufferMemory of at least `size` bytes. */
  GstBuffer *acquire (gsize size, GError **error);
  /* Drops the buffers nobody uses (e.g. after a resolution change). */
  void trim ();

 private:
  GstVulkanDevice *device_;
  VkMemKind kind_;
  std::mutex lock_;
  std::vector<GstBuffer *> all_;
};

/* The memory holding `plane` of `buffer` and the plane's byte offset in it
 * and stride, from the buffer's GstVideoMeta or else `info`. */
bool video_plane_location (GstBuffer *buffer, const GstVideoInfo *info, guint plane,
    GstMemory **mem, gsize *offset, gint *stride);

static inline GstVulkanBufferMemory *vk_buffer_memory (GstBuffer *buf)
{
  return (GstVulkanBufferMemory *) gst_buffer_peek_memory (buf, 0);
}

} // namespace gpc
