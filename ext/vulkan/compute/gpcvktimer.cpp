/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpcvktimer.h"

#include "gpcvkerror.h"

namespace gpc {

VkGpuTimer *VkGpuTimer::create (GstVulkanQueue *queue, uint32_t n, GError **error)
{
  GstVulkanPhysicalDevice *pd = queue->device->physical_device;
  uint32_t bits = pd->queue_family_props[queue->family].timestampValidBits;
  if (bits == 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "the queue family has no timestamp support");
    return nullptr;
  }
  VkGpuTimer *t = new VkGpuTimer ();
  t->device_ = (GstVulkanDevice *) gst_object_ref (queue->device);
  t->n_ = n;
  t->period_ns_ = pd->properties.limits.timestampPeriod;
  t->mask_ = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  VkQueryPoolCreateInfo qi = {};
  qi.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
  qi.queryCount = n;
  if (!gpc_vk_check (vkCreateQueryPool (t->device_->device, &qi, nullptr, &t->pool_), error,
          "vkCreateQueryPool")) {
    delete t;
    return nullptr;
  }
  return t;
}

VkGpuTimer::~VkGpuTimer ()
{
  if (pool_)
    vkDestroyQueryPool (device_->device, pool_, nullptr);
  if (device_)
    gst_object_unref (device_);
}

void VkGpuTimer::reset (VkCommandBuffer cmd)
{
  vkCmdResetQueryPool (cmd, pool_, 0, n_);
}

void VkGpuTimer::stamp (VkCommandBuffer cmd, uint32_t index)
{
  vkCmdWriteTimestamp (cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool_, index);
}

bool VkGpuTimer::read (std::vector<double> &ns)
{
  std::vector<uint64_t> raw (n_);
  VkResult res = vkGetQueryPoolResults (device_->device, pool_, 0, n_, n_ * sizeof (uint64_t),
      raw.data (), sizeof (uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  if (res != VK_SUCCESS)
    return false;
  ns.resize (n_);
  for (uint32_t i = 0; i < n_; i++)
    ns[i] = (double) ((raw[i] - raw[0]) & mask_) * period_ns_;
  return true;
}

} // namespace gpc
