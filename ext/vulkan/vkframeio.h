/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The memory side of a Vulkan filter, in plain objects that any element
 * can compose (GpcVkFilter does, an aggregator can too): recycled output
 * memories, and input pictures made readable by compute kernels whatever
 * memory they arrive in (Vulkan buffers, Vulkan images, system memory).
 */
#pragma once

#include <gst/video/video.h>
#include "compute/gpcvk.h"

#include <mutex>
#include <vector>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkplane.h"
#include "vmaf-motion-layout.h"

namespace gpc {

/* Output memories (storage buffers of each VkMemKind, images), handed out
 * again once nobody else holds them: a memory is free when the cache's is
 * its only reference, since buffers downstream may be copied and their
 * memories shared. */
class VkOutputCache {
 public:
  explicit VkOutputCache (GstVulkanDevice *device);
  ~VkOutputCache ();
  VkOutputCache (const VkOutputCache &) = delete;
  VkOutputCache &operator= (const VkOutputCache &) = delete;

  /* A GstVulkanBufferMemory of exactly `size` bytes with storage usage. */
  GstMemory *buffer (gsize size, VkMemKind kind, GError **error);
  /* A device-local optimal-tiling GstVulkanImageMemory. */
  GstMemory *image (VkFormat format, VkImageUsageFlags usage, uint32_t width, uint32_t height,
      GError **error);
  /* How many memories of `kind` someone else holds (lent, in flight). */
  guint in_use (VkMemKind kind);
  /* Forgets every memory (after a size change); those still held elsewhere
   * are freed by their last holder, once GStreamer's own use of an image is
   * over (gpcvkcompat.h). */
  void trim ();

 private:
  struct Entry {
    GstMemory *mem;
    VkMemKind kind; /* buffers */
  };
  GstVulkanDevice *device_;
  std::mutex lock_;
  std::vector<Entry> all_;
};

/* How a kernel reads one plane of the input: `row_bytes` x `rows` of video
 * plane `plane`, in images of `texel_bytes`-byte texels (R8 or R16). */
struct PlaneSpec {
  guint plane;
  gsize row_bytes;
  guint rows;
  guint texel_bytes;
};

/* Every plane of `info` as its components lay it out (texel: the pixel
 * stride of the plane's first component). */
guint plane_specs_of (const GstVideoInfo *info, PlaneSpec specs[GST_VIDEO_MAX_PLANES]);

/* The luma plane the VMAF kernels read, as `layout` places it in `info`.
 * Images hold plain samples: R8, or R16 for 16-bit little-endian. */
PlaneSpec luma_plane_spec (const LumaLayout &layout, const GstVideoInfo *info);

/* Pad template caps of an element that reads the luma of every format the
 * VMAF kernels take: Vulkan buffers, Vulkan images (8-bit formats) and
 * system memory, with `size_fields` ("width = ..., height = ..."). */
GstCaps *luma_template_caps (const char *size_fields);

class VkFrameIO {
 public:
  explicit VkFrameIO (GstVulkanDevice *device);
  VkFrameIO (const VkFrameIO &) = delete;
  VkFrameIO &operator= (const VkFrameIO &) = delete;

  /* Records what makes planes `specs` of `buf` (laid out as `info`, or as
   * its GstVideoMeta) readable as storage buffers: Vulkan buffers with
   * storage usage are bound in place, other Vulkan buffers and images (one
   * per plane, vulkanupload's layout) copied on the GPU, system memory
   * uploaded. out[i] holds a reference to what plane i is read from (drop
   * it with clear() once the commands are recorded, or keep it for later
   * submissions); `buf` is kept until the submission's fence. */
  bool import (VkExec *exec, GstBuffer *buf, const GstVideoInfo *info, const PlaneSpec *specs,
      guint n, StoragePlane *out, GError **error);

  /* Device-local scratch and uploads (the kernels' own uploads too). */
  VkBufferCache &device_cache () { return device_; }
  /* Host-visible, coherent: what the CPU writes for the GPU. */
  VkBufferCache &staging_cache () { return staging_; }
  VkOutputCache &outputs () { return outputs_; }

  /* Drops the memories nobody uses (after a size change). */
  void trim ();

 private:
  bool import_vulkan (VkExec *exec, GstBuffer *buf, const GstVideoInfo *info,
      const PlaneSpec &spec, StoragePlane *out, GError **error);
  bool upload (VkExec *exec, GstBuffer *buf, const GstVideoInfo *info, const PlaneSpec *specs,
      guint n, StoragePlane *out, GError **error);

  VkBufferCache device_, staging_;
  VkOutputCache outputs_;
};

} // namespace gpc
