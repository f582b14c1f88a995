/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What vkvmaf's VIF and ADM extractors share: a kernel that records its own
 * stages (VkVifKernel, VkAdmKernel) on the scored frames, into result slots
 * of the extractor's.
 */
#pragma once

#include "compute/gpcvkbuffer.h"
#include "vkvmaf-extractor.h"

namespace gpc {

template <class Kernel>
class VmafSpatialExtractor : public VmafExtractor {
 public:
  ~VmafSpatialExtractor () override
  {
    if (results_)
      gst_memory_unref (results_);
    delete kernel_;
  }

  unsigned stages () const override { return active_ ? kernel_->stages () : 0; }

  bool record_stage (VkExec *exec, unsigned k, GError **error) override
  {
    return kernel_->record_stage (exec, k, error);
  }

  void end (VkExec *exec) override
  {
    if (active_)
      kernel_->end (exec);
  }

 protected:
  /* After kernel_ is made: the result slots. */
  bool alloc_results (GstVulkanDevice *device, GError **error)
  {
    if (kernel_)
      results_ = vk_storage_alloc (device, kVmafSlots * Kernel::kResultWords * 4, true, error);
    return results_ != nullptr;
  }

  /* kernel_->begin() for the pair, with the kernel's `extra` arguments
   * after the layout, on scored frames only. */
  template <class... Extra>
  bool begin_kernel (VkExec *exec, const VmafPair &pair, const VmafFrameWork &work,
      uint32_t slot, GError **error, const Extra &...extra)
  {
    active_ = false;
    if (!work.spatial)
      return true;
    const MotionPlane r = { pair.ref.mem, pair.ref.offset, pair.ref.stride };
    const MotionPlane d = { pair.dist.mem, pair.dist.offset, pair.dist.stride };
    active_ = kernel_->begin (exec, r, d, (GstVulkanBufferMemory *) results_, slot, pair.width,
        pair.height, pair.layout, extra..., error);
    return active_;
  }

  Kernel *kernel_ = nullptr;
  GstMemory *results_ = nullptr; /* kVmafSlots slots of Kernel::kResultWords words */
  bool active_ = false;          /* the frame being recorded has stages */
};

} // namespace gpc
