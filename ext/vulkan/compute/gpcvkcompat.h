/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What differs between the gstreamer-vulkan-1.0 releases we build against
 * (1.22 to 1.26), in one place: the rest of the tree calls these helpers and
 * never tests GST_CHECK_VERSION itself.
 */
#pragma once

#include "gpcvk.h"

#include <utility>

namespace gpc {

/* The queue recorded in a memory's barrier state. Since 1.24 that field
 * names the queue (family) that owns the memory for an ownership transfer:
 * GstVulkanOperation (vulkandownload, vulkancolorconvert, ...) takes its
 * family as the srcQueueFamilyIndex of its next barrier, which with a
 * destination of VK_QUEUE_FAMILY_IGNORED makes that barrier a release that
 * performs no layout transition. Our barriers never transfer ownership
 * (both indices ignored, one queue family), so on 1.24+ we record none,
 * dropping the reference the memory owns (1.24 frees it with the memory).
 * 1.22 keeps a plain pointer, unused for barriers, and never releases it. */
inline void
barrier_set_queue (GstVulkanBarrierMemoryInfo *b, GstVulkanQueue *queue)
{
#if GST_CHECK_VERSION(1, 24, 0)
  (void) queue;
  GstVulkanQueue *old = std::exchange (b->queue, nullptr);
  if (old)
    gst_object_unref (old);
#else
  b->queue = queue;
#endif
}

/* The whole state after work on `queue` at (stage, access). */
inline void
barrier_set (GstVulkanBarrierMemoryInfo *b, VkPipelineStageFlags stage, VkAccessFlags access,
    GstVulkanQueue *queue)
{
  b->pipeline_stages = stage;
  b->access_flags = access;
  barrier_set_queue (b, queue);
}

/* Waits until the work that GStreamer's own elements queued on an image is
 * finished with it, before its last reference is dropped. Since 1.24 an
 * image memory carries a timeline semaphore in its barrier state, which
 * GstVulkanOperation (1.26's vulkandownload, vulkancolorconvert, ...)
 * signals on every submission that uses the image; freeing the image
 * destroys that semaphore. A fence waited on for the same submission is no
 * proof that the driver is done with the semaphore: Mesa's emulated
 * timelines (lavapipe) record the signalled point on the submit thread after
 * the work, and so the fence, has completed, so an image freed right after
 * vulkandownload returned made that thread write to a destroyed semaphore.
 * Waiting for the recorded value closes that window. 1.22 has no semaphore:
 * nothing to wait for. Returns false on a timeout or error. */
inline bool
image_wait_unused (GstVulkanImageMemory *img, guint64 timeout_ns)
{
#if GST_CHECK_VERSION(1, 24, 0)
  const GstVulkanBarrierMemoryInfo *b = &img->barrier.parent;
  if (b->semaphore == VK_NULL_HANDLE || b->semaphore_value == 0)
    return true;
  GstVulkanDevice *device = img->device;
  auto wait = (PFN_vkWaitSemaphores) gst_vulkan_device_get_proc_address (device,
      "vkWaitSemaphores");
  if (!wait)
    wait = (PFN_vkWaitSemaphores) gst_vulkan_device_get_proc_address (device,
        "vkWaitSemaphoresKHR");
  if (!wait)
    return false;
  VkSemaphoreWaitInfo info = {};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO;
  info.semaphoreCount = 1;
  info.pSemaphores = &b->semaphore;
  info.pValues = &b->semaphore_value;
  return wait (device->device, &info, timeout_ns) == VK_SUCCESS;
#else
  (void) img;
  (void) timeout_ns;
  return true;
#endif
}

/* The device's instance-level handlers of the "create-device" signal take
 * (instance, device_index, user_data) since 1.26 and (instance, user_data)
 * before: applications and tests connect through this type. */
#if GST_CHECK_VERSION(1, 26, 0)
#define GPC_VK_CREATE_DEVICE_ARGS GstVulkanInstance *instance, guint device_index, gpointer data
#else
#define GPC_VK_CREATE_DEVICE_ARGS GstVulkanInstance *instance, gpointer data
#endif

} // namespace gpc
