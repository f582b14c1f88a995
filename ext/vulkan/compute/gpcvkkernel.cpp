/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpcvkkernel.h"

#include "gpcvkerror.h"

namespace gpc {

/* Sets added to the supply each time it runs dry. */
static const uint32_t kSetsPerPool = 16;

VkKernel *VkKernel::create (GstVulkanDevice *device, const Spec &spec, GError **error)
{
  VkKernel *k = new VkKernel ();
  VkDevice dev = device->device;
  VkResult res;
  k->device_ = (GstVulkanDevice *) gst_object_ref (device);
  k->n_bindings_ = spec.n_storage_buffers;
  k->n_images_ = spec.n_storage_images;

  VkShaderModuleCreateInfo mi = {};
  mi.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  mi.codeSize = spec.spirv_size;
  mi.pCode = spec.spirv;
  res = vkCreateShaderModule (dev, &mi, nullptr, &k->module_);
  if (!gpc_vk_check (res, error, "vkCreateShaderModule"))
    goto fail;

  {
    std::vector<VkDescriptorSetLayoutBinding> b (spec.n_storage_buffers + spec.n_storage_images);
    for (uint32_t i = 0; i < b.size (); i++) {
      b[i] = {};
      b[i].binding = i;
      b[i].descriptorType = i < spec.n_storage_buffers ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER :
          VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      b[i].descriptorCount = 1;
      b[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo li = {};
    li.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    li.bindingCount = (uint32_t) b.size ();
    li.pBindings = b.data ();
    res = vkCreateDescriptorSetLayout (dev, &li, nullptr, &k->set_layout_);
    if (!gpc_vk_check (res, error, "vkCreateDescriptorSetLayout"))
      goto fail;
  }

  {
    VkPushConstantRange pcr = {};
    pcr.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    pcr.size = spec.push_constant_size;
    VkPipelineLayoutCreateInfo pli = {};
    pli.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &k->set_layout_;
    pli.pushConstantRangeCount = spec.push_constant_size ? 1 : 0;
    pli.pPushConstantRanges = &pcr;
    res = vkCreatePipelineLayout (dev, &pli, nullptr, &k->layout_);
    if (!gpc_vk_check (res, error, "vkCreatePipelineLayout"))
      goto fail;
  }

  {
    std::vector<VkSpecializationMapEntry> entries (spec.spec_constants.size ());
    for (size_t i = 0; i < entries.size (); i++)
      entries[i] = { (uint32_t) i, (uint32_t) (i * sizeof (uint32_t)), sizeof (uint32_t) };
    VkSpecializationInfo si = {};
    si.mapEntryCount = (uint32_t) entries.size ();
    si.pMapEntries = entries.data ();
    si.dataSize = spec.spec_constants.size () * sizeof (uint32_t);
    si.pData = spec.spec_constants.data ();

    VkComputePipelineCreateInfo ci = {};
    ci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = k->module_;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = entries.empty () ? nullptr : &si;
    ci.layout = k->layout_;
    res = vkCreateComputePipelines (dev, VK_NULL_HANDLE, 1, &ci, nullptr, &k->pipeline_);
    if (!gpc_vk_check (res, error, "vkCreateComputePipelines"))
      goto fail;
  }
  return k;

fail:
  delete k;
  return nullptr;
}

VkKernel::~VkKernel ()
{
  if (!device_)
    return;
  VkDevice dev = device_->device;
  for (VkDescriptorPool p : pools_)
    vkDestroyDescriptorPool (dev, p, nullptr);
  if (pipeline_)
    vkDestroyPipeline (dev, pipeline_, nullptr);
  if (layout_)
    vkDestroyPipelineLayout (dev, layout_, nullptr);
  if (set_layout_)
    vkDestroyDescriptorSetLayout (dev, set_layout_, nullptr);
  if (module_)
    vkDestroyShaderModule (dev, module_, nullptr);
  gst_object_unref (device_);
}

bool VkKernel::grow_pool (GError **error)
{
  VkDescriptorPoolSize sizes[2] = {
    { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerPool * (n_bindings_ ? n_bindings_ : 1) },
    { VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, kSetsPerPool * n_images_ },
  };
  VkDescriptorPoolCreateInfo pi = {};
  pi.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pi.maxSets = kSetsPerPool;
  pi.poolSizeCount = n_images_ ? 2 : 1;
  pi.pPoolSizes = sizes;
  VkDescriptorPool pool;
  VkResult res = vkCreateDescriptorPool (device_->device, &pi, nullptr, &pool);
  if (!gpc_vk_check (res, error, "vkCreateDescriptorPool"))
    return false;
  pools_.push_back (pool);

  std::vector<VkDescriptorSetLayout> layouts (kSetsPerPool, set_layout_);
  std::vector<VkDescriptorSet> sets (kSetsPerPool);
  VkDescriptorSetAllocateInfo ai = {};
  ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
  ai.descriptorPool = pool;
  ai.descriptorSetCount = kSetsPerPool;
  ai.pSetLayouts = layouts.data ();
  res = vkAllocateDescriptorSets (device_->device, &ai, sets.data ());
  if (!gpc_vk_check (res, error, "vkAllocateDescriptorSets"))
    return false;
  free_sets_.insert (free_sets_.end (), sets.begin (), sets.end ());
  return true;
}

VkDescriptorSet VkKernel::acquire_set (GError **error)
{
  std::lock_guard<std::mutex> g (lock_);
  if (free_sets_.empty () && !grow_pool (error))
    return VK_NULL_HANDLE;
  VkDescriptorSet s = free_sets_.back ();
  free_sets_.pop_back ();
  return s;
}

void VkKernel::release_set (VkDescriptorSet set)
{
  std::lock_guard<std::mutex> g (lock_);
  free_sets_.push_back (set);
}

void VkKernel::write_set (VkDescriptorSet set, const VkDescriptorBufferInfo *infos, uint32_t n)
{
  std::vector<VkWriteDescriptorSet> w (n);
  for (uint32_t i = 0; i < n; i++) {
    w[i] = {};
    w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w[i].dstSet = set;
    w[i].dstBinding = i;
    w[i].descriptorCount = 1;
    w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets (device_->device, n, w.data (), 0, nullptr);
}

void VkKernel::write_images (VkDescriptorSet set, const VkDescriptorImageInfo *infos, uint32_t n)
{
  std::vector<VkWriteDescriptorSet> w (n);
  for (uint32_t i = 0; i < n; i++) {
    w[i] = {};
    w[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    w[i].dstSet = set;
    w[i].dstBinding = n_bindings_ + i;
    w[i].descriptorCount = 1;
    w[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    w[i].pImageInfo = &infos[i];
  }
  vkUpdateDescriptorSets (device_->device, n, w.data (), 0, nullptr);
}

} // namespace gpc
