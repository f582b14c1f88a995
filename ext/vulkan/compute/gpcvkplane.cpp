/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpcvkplane.h"

#include <string.h>

namespace gpc {

static guint
image_texel_bytes (VkFormat f)
{
  switch (f) {
    case VK_FORMAT_R8_UNORM:
    case VK_FORMAT_R8_UINT:
      return 1;
    case VK_FORMAT_R16_UNORM:
    case VK_FORMAT_R16_UINT:
      return 2;
    default:
      return 0;
  }
}

bool vk_plane_for_compute (VkExec *exec, VkBufferCache *device_cache, GstBuffer *buf,
    GstMemory *mem, gsize offset, gint stride, gsize row_bytes, guint rows,
    guint texel_bytes, StoragePlane *out, GError **error)
{
  out->clear ();
  if (gst_is_vulkan_image_memory (mem)) {
    GstVulkanImageMemory *img = (GstVulkanImageMemory *) mem;
    const guint texel = image_texel_bytes (img->create_info.format);
    const guint w = (guint) (row_bytes / (texel ? texel : 1));
    if (texel == 0 || texel != texel_bytes || img->create_info.extent.width < w ||
        img->create_info.extent.height < rows) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "unsupported Vulkan image for the plane (format %d, %ux%u)",
          img->create_info.format, img->create_info.extent.width,
          img->create_info.extent.height);
      return false;
    }
    const guint dst_stride = GST_ROUND_UP_4 (w * texel);
    GstBuffer *scratch = device_cache->acquire ((gsize) dst_stride * rows, error);
    if (!scratch)
      return false;
    GstVulkanBufferMemory *dst = vk_buffer_memory (scratch);
    exec->barrier (img, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region = {};
    region.bufferRowLength = dst_stride / texel;
    region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.imageSubresource.layerCount = 1;
    region.imageExtent = { w, rows, 1 };
    vkCmdCopyImageToBuffer (exec->cmd (), img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        dst->buffer, 1, &region);
    exec->keep (GST_MINI_OBJECT_CAST (buf));
    *out = { dst, 0, dst_stride, scratch };
  } else if (gst_is_vulkan_buffer_memory (mem)) {
    GstVulkanBufferMemory *src = (GstVulkanBufferMemory *) mem;
    const gsize size = (gsize) stride * (rows - 1) + row_bytes;
    if (stride < (gint) row_bytes || offset + size > gst_memory_get_sizes (mem, NULL, NULL)) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "the plane does not fit its Vulkan buffer");
      return false;
    }
    /* GstMemory offsets count from the VkBuffer's start plus mem->offset. */
    offset += mem->offset;
    if (vk_is_storage_buffer (mem) && (offset % 4) == 0 && (stride % 4) == 0) {
      exec->barrier (src, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
      exec->keep (GST_MINI_OBJECT_CAST (buf));
      *out = { src, (uint32_t) offset, (uint32_t) stride, gst_buffer_ref (buf) };
      return true;
    }
    /* Copy rows to 4-aligned strides; offsets and strides of other
     * buffers may be anything. */
    const gsize dst_stride = GST_ROUND_UP_4 (row_bytes);
    GstBuffer *scratch = device_cache->acquire (dst_stride * rows, error);
    if (!scratch)
      return false;
    GstVulkanBufferMemory *dst = vk_buffer_memory (scratch);
    exec->barrier (src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    if ((gsize) stride == dst_stride) {
      VkBufferCopy region = { offset, 0, size };
      vkCmdCopyBuffer (exec->cmd (), src->buffer, dst->buffer, 1, &region);
    } else {
      std::vector<VkBufferCopy> regions (rows);
      for (guint y = 0; y < rows; y++)
        regions[y] = { offset + (gsize) y * stride, (gsize) y * dst_stride, row_bytes };
      vkCmdCopyBuffer (exec->cmd (), src->buffer, dst->buffer, rows, regions.data ());
    }
    exec->keep (GST_MINI_OBJECT_CAST (buf));
    *out = { dst, 0, (uint32_t) dst_stride, scratch };
  } else {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the plane is neither in a Vulkan buffer nor in a Vulkan image");
    return false;
  }
  exec->keep (GST_MINI_OBJECT_CAST (out->holder));
  exec->barrier (out->mem, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  return true;
}

GstBuffer *vk_upload_bytes (VkExec *exec, VkBufferCache *staging_cache,
    VkBufferCache *device_cache, gsize size, const std::function<void (uint8_t *)> &fill,
    GError **error)
{
  GstBuffer *staging = staging_cache->acquire (size, error);
  GstBuffer *dev = staging ? device_cache->acquire (size, error) : nullptr;
  if (!dev) {
    gst_clear_buffer (&staging);
    return nullptr;
  }
  /* The cache holds a reference too: map the memory, not the buffer. */
  GstMemory *smem_raw = gst_buffer_peek_memory (staging, 0);
  GstMapInfo map;
  if (!gst_memory_map (smem_raw, &map, GST_MAP_WRITE)) {
    gst_buffer_unref (staging);
    gst_buffer_unref (dev);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_WRITE,
        "could not map the staging buffer");
    return nullptr;
  }
  fill (map.data);
  gst_memory_unmap (smem_raw, &map);

  GstVulkanBufferMemory *smem = vk_buffer_memory (staging);
  GstVulkanBufferMemory *dmem = vk_buffer_memory (dev);
  smem->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_HOST_BIT;
  smem->barrier.parent.access_flags = VK_ACCESS_HOST_WRITE_BIT;
  exec->barrier (smem, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  exec->barrier (dmem, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferCopy region = { 0, 0, size };
  vkCmdCopyBuffer (exec->cmd (), smem->buffer, dmem->buffer, 1, &region);
  exec->barrier (dmem, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  exec->keep (GST_MINI_OBJECT_CAST (staging));
  exec->keep (GST_MINI_OBJECT_CAST (dev));
  gst_buffer_unref (staging);
  return dev;
}

bool vk_upload_planes (VkExec *exec, VkBufferCache *staging_cache, VkBufferCache *device_cache,
    const HostPlane *planes, guint n, StoragePlane *out, GError **error)
{
  gsize offsets[8], total = 0;
  g_return_val_if_fail (n <= 8, false);
  for (guint p = 0; p < n; p++) {
    offsets[p] = total;
    total += GST_ROUND_UP_4 (planes[p].row_bytes) * planes[p].rows;
  }
  GstBuffer *dev = vk_upload_bytes (exec, staging_cache, device_cache, total,
      [&] (uint8_t *dst) {
        for (guint p = 0; p < n; p++) {
          const gsize dst_stride = GST_ROUND_UP_4 (planes[p].row_bytes);
          for (guint y = 0; y < planes[p].rows; y++)
            memcpy (dst + offsets[p] + y * dst_stride, planes[p].data + y * planes[p].stride,
                planes[p].row_bytes);
        }
      }, error);
  if (!dev)
    return false;
  GstVulkanBufferMemory *dmem = vk_buffer_memory (dev);
  for (guint p = 0; p < n; p++) {
    out[p].clear ();
    out[p] = { dmem, (uint32_t) offsets[p], (uint32_t) GST_ROUND_UP_4 (planes[p].row_bytes),
      p == 0 ? dev : gst_buffer_ref (dev) };
  }
  return true;
}

} // namespace gpc
