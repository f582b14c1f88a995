/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A compute pipeline made from embedded SPIR-V: shader module, a descriptor
 * set layout of storage buffers (then storage images, if any), push
 * constants, specialization constants,
 * and a recycling supply of descriptor sets (a set goes back to the supply
 * when the fence of the submission that used it signals).
 */
#pragma once

#include "gpcvk.h"

#include <mutex>
#include <vector>

namespace gpc {

class VkKernel {
 public:
  struct Spec {
    const uint32_t *spirv;
    size_t spirv_size;          /* bytes */
    uint32_t n_storage_buffers; /* bindings 0 .. n-1, all storage buffers */
    uint32_t push_constant_size;
    std::vector<uint32_t> spec_constants; /* constant_id 0 .. n-1 */
    /* Storage images at bindings n_storage_buffers .. + n - 1 (written in
     * VK_IMAGE_LAYOUT_GENERAL, e.g. vkrgbaconvert's output). */
    uint32_t n_storage_images = 0;
  };

  ~VkKernel ();

  /* NULL (with error set) when the device refuses the pipeline. */
  static VkKernel *create (GstVulkanDevice *device, const Spec &spec, GError **error);

  VkPipeline pipeline () const { return pipeline_; }
  VkPipelineLayout layout () const { return layout_; }
  GstVulkanDevice *device () const { return device_; }

  /* A descriptor set for one dispatch; give it back with release_set() once
   * the GPU is done with it (VkExec does this through its fence). */
  VkDescriptorSet acquire_set (GError **error);
  void release_set (VkDescriptorSet set);

  /* Points binding i of `set` at each (buffer, offset, range). */
  void write_set (VkDescriptorSet set, const VkDescriptorBufferInfo *infos, uint32_t n);
  /* Points the i-th storage image binding of `set` at each view. */
  void write_images (VkDescriptorSet set, const VkDescriptorImageInfo *infos, uint32_t n);

 private:
  VkKernel () {}
  bool grow_pool (GError **error);

  GstVulkanDevice *device_ = nullptr;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  uint32_t n_bindings_ = 0;
  uint32_t n_images_ = 0;

  std::mutex lock_;
  std::vector<VkDescriptorPool> pools_;
  std::vector<VkDescriptorSet> free_sets_;
};

} // namespace gpc
