/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's VIF extractor: the integer VIF kernel on scored frame pairs; its
 * per-scale sums become libvmaf's values through the CPU reference's
 * vif_scores().
 */
#include "vkvmaf-spatial.h"

#include "vkmotionkernel.h"
#include "vkvifkernel.h"
#include "vmaf-vif-ref.h"

namespace gpc {

namespace {

class VifExtractor : public VmafSpatialExtractor<VkVifKernel> {
 public:
  bool init (GstVulkanDevice *device, double gain_limit, const VifKernelOptions &options,
      GError **error)
  {
    gain_limit_ = gain_limit;
    kernel_ = VkVifKernel::create (device, error, options);
    return alloc_results (device, error);
  }

  bool begin (VkExec *exec, const VmafPair &pair, const VmafFrameWork &work, uint32_t slot,
      GError **error) override
  {
    /* the kernel keeps scratch pictures of its own per submission */
    return begin_kernel (exec, pair, work, slot, error, gain_limit_);
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
  double gain_limit_ = kVifDefaultGainLimit;
};

} // namespace

std::unique_ptr<VmafExtractor>
vmaf_vif_extractor (GstVulkanDevice *device, double gain_limit, const VifKernelOptions &options,
    GError **error)
{
  std::unique_ptr<VifExtractor> v (new VifExtractor ());
  if (!v->init (device, gain_limit, options, error))
    return nullptr;
  return v;
}

} // namespace gpc
