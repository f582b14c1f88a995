/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-luma.h"

#include <stdio.h>
#include <stdlib.h>

using namespace gpc;

namespace gpc_bench {

GstBuffer *
upload_luma (VkExec *exec, VkBufferCache &staging_cache, const std::vector<uint16_t> &f,
    const LumaLayout &l, unsigned w, unsigned h, gsize stride)
{
  GError *err = NULL;
  GstMemory *mem = vk_storage_alloc (exec->device (), stride * h, false, &err);
  GstBuffer *staging = mem ? staging_cache.acquire (stride * h, &err) : NULL;
  if (!staging) {
    fprintf (stderr, "upload: %s\n", err ? err->message : "?");
    exit (1);
  }
  GstMapInfo map;
  GstMemory *smem = gst_buffer_peek_memory (staging, 0);
  gst_memory_map (smem, &map, GST_MAP_WRITE);
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++)
      luma_store (map.data + y * stride, l, x, f[(size_t) y * w + x]);
  gst_memory_unmap (smem, &map);
  exec->begin (&err);
  VkBufferCopy region = { 0, 0, stride * h };
  vkCmdCopyBuffer (exec->cmd (), ((GstVulkanBufferMemory *) smem)->buffer,
      ((GstVulkanBufferMemory *) mem)->buffer, 1, &region);
  ((GstVulkanBufferMemory *) mem)->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_TRANSFER_BIT;
  ((GstVulkanBufferMemory *) mem)->barrier.parent.access_flags = VK_ACCESS_TRANSFER_WRITE_BIT;
  exec->keep (GST_MINI_OBJECT_CAST (staging));
  gst_buffer_unref (staging);
  GstVulkanFence *fence = exec->submit (&err);
  if (!fence || !exec->wait (fence, G_MAXUINT64, &err)) {
    fprintf (stderr, "upload: %s\n", err ? err->message : "?");
    exit (1);
  }
  gst_vulkan_fence_unref (fence);
  GstBuffer *buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  return buf;
}

GstBuffer *
vk_video_frame (GstVulkanDevice *device, GstBuffer *luma, GstVideoFormat format, unsigned w,
    unsigned h, gsize stride)
{
  GstVideoInfo info;
  gst_video_info_set_format (&info, format, w, h);
  GstBuffer *b = gst_buffer_new ();
  gst_buffer_append_memory (b, gst_buffer_get_memory (luma, 0));
  gsize offset[4] = { 0 }, total = stride * h;
  gint strides[4] = { (gint) stride };
  for (guint p = 1; p < GST_VIDEO_INFO_N_PLANES (&info); p++) {
    gsize sz = (gsize) GST_VIDEO_INFO_PLANE_STRIDE (&info, p) * GST_VIDEO_INFO_COMP_HEIGHT (&info, p);
    gst_buffer_append_memory (b, vk_storage_alloc (device, sz, false, NULL));
    offset[p] = total;
    strides[p] = GST_VIDEO_INFO_PLANE_STRIDE (&info, p);
    total += sz;
  }
  gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, format, w, h,
      GST_VIDEO_INFO_N_PLANES (&info), offset, strides);
  return b;
}

} // namespace gpc_bench
