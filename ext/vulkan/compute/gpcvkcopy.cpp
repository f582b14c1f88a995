/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpcvkcopy.h"

#include <vector>

namespace gpc {

static VkImageSubresourceLayers
color_layer ()
{
  VkImageSubresourceLayers l = {};
  l.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
  l.layerCount = 1;
  return l;
}

void vk_copy_image (VkExec *exec, GstVulkanImageMemory *src, GstVulkanImageMemory *dst,
    uint32_t width, uint32_t height)
{
  exec->barrier (src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  VkImageCopy region = {};
  region.srcSubresource = color_layer ();
  region.dstSubresource = color_layer ();
  region.extent = { width, height, 1 };
  vkCmdCopyImage (exec->cmd (), src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->image,
      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
}

void vk_download_image (VkExec *exec, GstVulkanImageMemory *img, GstVulkanBufferMemory *dst,
    gsize offset, uint32_t width, uint32_t height)
{
  exec->barrier (img, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
      VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferImageCopy region = {};
  region.bufferOffset = offset;
  region.bufferRowLength = width;
  region.imageSubresource = color_layer ();
  region.imageExtent = { width, height, 1 };
  vkCmdCopyImageToBuffer (exec->cmd (), img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
      dst->buffer, 1, &region);
  vk_ready_for_host (exec, dst);
}

void vk_copy_rows (VkExec *exec, GstVulkanBufferMemory *src, gsize src_offset, gsize src_stride,
    GstVulkanBufferMemory *dst, gsize dst_offset, gsize dst_stride, gsize row_bytes,
    uint32_t rows)
{
  if (rows == 0 || row_bytes == 0)
    return;
  const GstVulkanBarrierMemoryInfo &sb = src->barrier.parent;
  if (sb.pipeline_stages != VK_PIPELINE_STAGE_TRANSFER_BIT
      || sb.access_flags != VK_ACCESS_TRANSFER_READ_BIT)
    exec->barrier (src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  const GstVulkanBarrierMemoryInfo &db = dst->barrier.parent;
  if (db.pipeline_stages != VK_PIPELINE_STAGE_TRANSFER_BIT
      || db.access_flags != VK_ACCESS_TRANSFER_WRITE_BIT)
    exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  if (src_stride == dst_stride) {
    VkBufferCopy region = { src_offset, dst_offset, src_stride * (rows - 1) + row_bytes };
    vkCmdCopyBuffer (exec->cmd (), src->buffer, dst->buffer, 1, &region);
    return;
  }
  std::vector<VkBufferCopy> regions (rows);
  for (uint32_t r = 0; r < rows; r++)
    regions[r] = { src_offset + r * src_stride, dst_offset + r * dst_stride, row_bytes };
  vkCmdCopyBuffer (exec->cmd (), src->buffer, dst->buffer, rows, regions.data ());
}

void vk_ready_for_host (VkExec *exec, GstVulkanBufferMemory *mem)
{
  exec->barrier (mem, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

} // namespace gpc
