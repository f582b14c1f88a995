/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's VIF extractor: the integer VIF kernel on scored frame pairs; its
 * per-scale sums become libvmaf's values through the CPU reference's
 * vif_scores().
 */
#include "vkvmaf-extractor.h"

#include "compute/gpcvkbuffer.h"
#include "vkmotionkernel.h"
#include "vkvifkernel.h"
#include "vmaf-vif-ref.h"

namespace gpc {

namespace {

class VifExtractor : public VmafExtractor {
 public:
  ~VifExtractor () override
  {
    if (results_)
      gst_memory_unref (results_);
    delete kernel_;
  }

  bool init (GstVulkanDevice *device, double gain_limit, GError **error)
  {
    gain_limit_ = gain_limit;
    kernel_ = VkVifKernel::create (device, error);
    if (kernel_)
      results_ = vk_storage_alloc (device, kVmafSlots * VkVifKernel::kResultWords * 4, true, error);
    return results_ != nullptr;
  }

  bool record (VkExec *exec, const VmafPair &pair, const VmafFrameWork &work, uint32_t slot,
      GError **error) override
  {
    if (!work.spatial)
      return true;
    /* the kernel keeps scratch pictures of its own per submission */
    MotionPlane r = { pair.ref.mem, pair.ref.offset, pair.ref.stride };
    MotionPlane d = { pair.dist.mem, pair.dist.offset, pair.dist.stride };
    return kernel_->record (exec, r, d, (GstVulkanBufferMemory *) results_, slot, pair.width,
        pair.height, pair.layout, gain_limit_, error);
  }

  void collect (uint32_t slot, const VmafFrameWork &work, uint64_t *, VmafSpatial *spatial) override
  {
    GstMapInfo map;
    if (!work.spatial || !gst_memory_map (results_, &map, GST_MAP_READ))
      return;
    VifAccum accum[kVifScales];
    VkVifKernel::read_accum ((const uint32_t *) map.data + slot * VkVifKernel::kResultWords, accum);
    gst_memory_unmap (results_, &map);
    const VifScores s = vif_scores (accum);
    for (int k = 0; k < kVifScales; k++)
      spatial->vif[k] = s.scale[k];
  }

 private:
  VkVifKernel *kernel_ = nullptr;
  GstMemory *results_ = nullptr;
  double gain_limit_ = kVifDefaultGainLimit;
};

} // namespace

std::unique_ptr<VmafExtractor>
vmaf_vif_extractor (GstVulkanDevice *device, double gain_limit, GError **error)
{
  std::unique_ptr<VifExtractor> v (new VifExtractor ());
  if (!v->init (device, gain_limit, error))
    return nullptr;
  return v;
}

} // namespace gpc
