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

/* Ownership of the queue recorded in a memory's barrier state. Since 1.24 a
 * GstVulkanBufferMemory / GstVulkanImageMemory owns a reference to
 * `barrier.parent.queue` and drops it when freed (and GstVulkanOperation
 * stores a new reference there); 1.22 keeps a plain pointer and never
 * releases it. Every store into that field goes through here. */
inline void
barrier_set_queue (GstVulkanBarrierMemoryInfo *b, GstVulkanQueue *queue)
{
#if GST_CHECK_VERSION(1, 24, 0)
  if (b->queue == queue)
    return;
  GstVulkanQueue *old = std::exchange (b->queue,
      queue ? (GstVulkanQueue *) gst_object_ref (queue) : nullptr);
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

/* The device's instance-level handlers of the "create-device" signal take
 * (instance, device_index, user_data) since 1.26 and (instance, user_data)
 * before: applications and tests connect through this type. */
#if GST_CHECK_VERSION(1, 26, 0)
#define GPC_VK_CREATE_DEVICE_ARGS GstVulkanInstance *instance, guint device_index, gpointer data
#else
#define GPC_VK_CREATE_DEVICE_ARGS GstVulkanInstance *instance, gpointer data
#endif

} // namespace gpc
