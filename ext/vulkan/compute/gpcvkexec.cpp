/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpcvkexec.h"

#include "gpcvkcompat.h"
#include "gpcvkcontext.h"
#include "gpcvkerror.h"

namespace gpc {

guint64 hang_limit_ns (GstVulkanDevice *device)
{
  const bool on_cpu = device->physical_device->properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return (on_cpu ? 120 : 10) * GST_SECOND;
}

VkExec *VkExec::create (GstVulkanQueue *queue, GError **error)
{
  VkExec *e = new VkExec ();
  e->queue_ = (GstVulkanQueue *) gst_object_ref (queue);
  e->hang_limit_ns_ = gpc::hang_limit_ns (queue->device);
  e->pool_ = gst_vulkan_queue_create_command_pool (queue, error);
  if (!e->pool_) {
    delete e;
    return nullptr;
  }
  e->trash_ = gst_vulkan_trash_fence_list_new ();
  return e;
}

VkExec::~VkExec ()
{
  if (cmd_) {
    /* A recording that was never submitted. */
    vkEndCommandBuffer (cmd_->cmd);
    gst_vulkan_command_buffer_unref (cmd_);
    for (GstMiniObject *o : keep_)
      gst_mini_object_unref (o);
    for (auto &s : sets_)
      s.first->release_set (s.second);
  }
  if (trash_) {
    wait_idle ();
    gst_object_unref (trash_);
  }
  for (GstVulkanFence *f : fences_)
    gst_vulkan_fence_unref (f);
  gst_clear_object (&pool_);
  gst_clear_object (&queue_);
}

GstVulkanFence *VkExec::acquire_fence (GError **error)
{
  /* A fence only this list references is no longer waited for by anyone:
   * the trash list holds every submitted fence until it has signaled, and
   * callers hold theirs until they are done with it. */
  for (GstVulkanFence *f : fences_) {
    if (GST_MINI_OBJECT_REFCOUNT_VALUE (f) != 1)
      continue;
    VkFence vf = GST_VULKAN_FENCE_FENCE (f);
    if (vkResetFences (queue_->device->device, 1, &vf) != VK_SUCCESS)
      continue;
    return gst_vulkan_fence_ref (f);
  }
  GstVulkanFence *f = gst_vulkan_fence_new (queue_->device, error);
  if (!f)
    return nullptr;
  fences_.push_back (f);
  return gst_vulkan_fence_ref (f);
}

bool VkExec::begin (GError **error)
{
  g_return_val_if_fail (cmd_ == nullptr, false);
  cmd_ = gst_vulkan_command_pool_create (pool_, error);
  if (!cmd_)
    return false;
  VkCommandBufferBeginInfo bi = {};
  bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  gst_vulkan_command_buffer_lock (cmd_);
  VkResult res = vkBeginCommandBuffer (cmd_->cmd, &bi);
  if (!gpc_vk_check (res, error, "vkBeginCommandBuffer")) {
    gst_vulkan_command_buffer_unlock (cmd_);
    gst_vulkan_command_buffer_unref (cmd_);
    cmd_ = nullptr;
    return false;
  }
  return true;
}

static VkPipelineStageFlags
src_stage_of (VkPipelineStageFlags s)
{
  return s ? s : (VkPipelineStageFlags) VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
}

void VkExec::barrier (GstVulkanBufferMemory *mem, VkPipelineStageFlags stage, VkAccessFlags access)
{
  VkBufferMemoryBarrier b = {};
  b.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  b.srcAccessMask = mem->barrier.parent.access_flags;
  b.dstAccessMask = access;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.buffer = mem->buffer;
  b.offset = 0;
  b.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier (cmd_->cmd, src_stage_of (mem->barrier.parent.pipeline_stages),
      stage, 0, 0, nullptr, 1, &b, 0, nullptr);
  barrier_set (&mem->barrier.parent, stage, access, queue_);
}

void VkExec::barrier (GstVulkanImageMemory *mem, VkPipelineStageFlags stage, VkAccessFlags access,
    VkImageLayout layout)
{
  VkImageMemoryBarrier b = {};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
  b.srcAccessMask = mem->barrier.parent.access_flags;
  b.dstAccessMask = access;
  b.oldLayout = mem->barrier.image_layout;
  b.newLayout = layout;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = mem->image;
  b.subresourceRange = mem->barrier.subresource_range;
  vkCmdPipelineBarrier (cmd_->cmd, src_stage_of (mem->barrier.parent.pipeline_stages),
      stage, 0, 0, nullptr, 0, nullptr, 1, &b);
  barrier_set (&mem->barrier.parent, stage, access, queue_);
  mem->barrier.image_layout = layout;
}

void VkExec::global_barrier (VkPipelineStageFlags src_stage, VkAccessFlags src_access,
    VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
  if (timer_ && stamp_barriers_)
    timer_->stamp (cmd_->cmd, stamp_++);
  VkMemoryBarrier b = {};
  b.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  b.srcAccessMask = src_access;
  b.dstAccessMask = dst_access;
  vkCmdPipelineBarrier (cmd_->cmd, src_stage, dst_stage, 0, 1, &b, 0, nullptr, 0, nullptr);
}

bool VkExec::dispatch (VkKernel *kernel, const VkDescriptorBufferInfo *infos, uint32_t n_infos,
    const void *push, uint32_t push_size, uint32_t gx, uint32_t gy, uint32_t gz,
    GError **error)
{
  return dispatch (kernel, infos, n_infos, nullptr, 0, push, push_size, gx, gy, gz, error);
}

bool VkExec::dispatch (VkKernel *kernel, const VkDescriptorBufferInfo *infos, uint32_t n_infos,
    const VkDescriptorImageInfo *images, uint32_t n_images, const void *push,
    uint32_t push_size, uint32_t gx, uint32_t gy, uint32_t gz, GError **error)
{
  VkDescriptorSet set = kernel->acquire_set (error);
  if (set == VK_NULL_HANDLE)
    return false;
  sets_.emplace_back (kernel, set);
  kernel->write_set (set, infos, n_infos);
  if (n_images)
    kernel->write_images (set, images, n_images);
  vkCmdBindPipeline (cmd_->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel->pipeline ());
  vkCmdBindDescriptorSets (cmd_->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, kernel->layout (), 0, 1,
      &set, 0, nullptr);
  if (push_size)
    vkCmdPushConstants (cmd_->cmd, kernel->layout (), VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size,
        push);
  vkCmdDispatch (cmd_->cmd, gx, gy, gz);
  if (timer_ && !stamp_barriers_)
    timer_->stamp (cmd_->cmd, stamp_++);
  return true;
}

void VkExec::fill (GstVulkanBufferMemory *mem, VkDeviceSize offset, VkDeviceSize size,
    uint32_t value)
{
  barrier (mem, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer (cmd_->cmd, mem->buffer, offset, size, value);
}

void VkExec::copy (GstVulkanBufferMemory *src, VkDeviceSize src_offset,
    GstVulkanBufferMemory *dst, VkDeviceSize dst_offset, VkDeviceSize size)
{
  const VkBufferCopy region = { src_offset, dst_offset, size };
  vkCmdCopyBuffer (cmd_->cmd, src->buffer, dst->buffer, 1, &region);
}

void VkExec::time_dispatches (VkGpuTimer *timer, uint32_t first)
{
  timer_ = timer;
  stamp_barriers_ = false;
  stamp_ = first;
}

void VkExec::time_barriers (VkGpuTimer *timer, uint32_t first)
{
  timer_ = timer;
  stamp_barriers_ = true;
  stamp_ = first;
}

void VkExec::keep (GstMiniObject *obj)
{
  keep_.push_back (gst_mini_object_ref (obj));
}

namespace {
/* What one submission holds until its fence signals. */
struct Held {
  std::vector<GstMiniObject *> objs;
  std::vector<std::pair<VkKernel *, VkDescriptorSet>> sets;
};

void release_held (GstVulkanDevice *, gpointer data)
{
  Held *h = static_cast<Held *> (data);
  for (GstMiniObject *o : h->objs)
    gst_mini_object_unref (o);
  for (auto &s : h->sets)
    s.first->release_set (s.second);
  delete h;
}
} // namespace

GstVulkanFence *VkExec::submit (GError **error)
{
  g_return_val_if_fail (cmd_ != nullptr, nullptr);
  VkResult res = vkEndCommandBuffer (cmd_->cmd);
  gst_vulkan_command_buffer_unlock (cmd_);

  Held *held = new Held ();
  held->objs.swap (keep_);
  held->sets.swap (sets_);
  held->objs.push_back (GST_MINI_OBJECT_CAST (cmd_));
  cmd_ = nullptr;

  GstVulkanFence *fence = nullptr;
  if (!gpc_vk_check (res, error, "vkEndCommandBuffer"))
    goto fail;
  /* A fence of our own, not one from the device's fence cache: in
   * GStreamer 1.22 a fence released to that cache is already available to
   * other threads while the releasing thread still clears its device and
   * cache pointers, so two streaming threads on one device can receive a
   * fence whose device was just cleared (a crash seen with two pipelines on
   * the process-wide device). Our fences are recycled too: a new VkFence per
   * submission cost about 0.5 ms on the NVIDIA driver (vkvmafmotion's
   * pipeline fell from 34,000 to 1,900 fps at 1080p on the H100). */
  fence = acquire_fence (error);
  if (!fence)
    goto fail;
  {
    VkCommandBuffer cb = ((GstVulkanCommandBuffer *) held->objs.back ())->cmd;
    VkSubmitInfo si = {};
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    gst_vulkan_queue_submit_lock (queue_);
    res = vkQueueSubmit (queue_->queue, 1, &si, GST_VULKAN_FENCE_FENCE (fence));
    gst_vulkan_queue_submit_unlock (queue_);
    if (!gpc_vk_check (res, error, "vkQueueSubmit"))
      goto fail;
  }
  gst_vulkan_trash_list_add (trash_, gst_vulkan_trash_list_acquire (trash_, fence,
          release_held, held));
  gst_vulkan_trash_list_gc (trash_);
  return fence;

fail:
  if (fence)
    gst_vulkan_fence_unref (fence);
  release_held (queue_->device, held);
  return nullptr;
}

bool VkExec::wait (GstVulkanFence *fence, guint64 timeout_ns, GError **error)
{
  VkFence f = GST_VULKAN_FENCE_FENCE (fence);
  VkResult res = vkWaitForFences (queue_->device->device, 1, &f, VK_TRUE, timeout_ns);
  if (res == VK_TIMEOUT) {
    g_set_error (error, GST_VULKAN_ERROR, VK_TIMEOUT,
        "the GPU did not finish within %" G_GUINT64_FORMAT " ms", timeout_ns / 1000000);
    return false;
  }
  return gpc_vk_check (res, error, "vkWaitForFences");
}

bool VkExec::wait_idle (guint64 timeout_ns)
{
  const bool done = gst_vulkan_trash_list_wait (trash_, timeout_ns);
  gst_vulkan_trash_list_gc (trash_);
  return done;
}

} // namespace gpc
