/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpcvkcopy.h"

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

void vk_ready_for_host (VkExec *exec, GstVulkanBufferMemory *mem)
{
  exec->barrier (mem, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

} // namespace gpc
