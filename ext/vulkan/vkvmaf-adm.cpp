/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's ADM extractor: the integer ADM kernel on scored frame pairs; its
 * per-scale sums become libvmaf's values through the CPU reference's
 * adm_finish().
 */
#include "vkvmaf-extractor.h"

#include "compute/gpcvkbuffer.h"
#include "vkadmkernel.h"
#include "vkmotionkernel.h"
#include "vmaf-adm-ref.h"

namespace gpc {

namespace {

class AdmExtractor : public VmafExtractor {
 public:
  ~AdmExtractor () override
  {
    if (results_)
      gst_memory_unref (results_);
    delete kernel_;
  }

  bool init (GstVulkanDevice *device, double gain_limit, GError **error)
  {
    params_.enhn_gain_limit = gain_limit;
    kernel_ = VkAdmKernel::create (device, params_, error);
    if (kernel_)
      results_ = vk_storage_alloc (device, kVmafSlots * VkAdmKernel::kResultWords * 4, true, error);
    return results_ != nullptr;
  }

  bool record (VkExec *exec, const VmafPair &pair, const VmafFrameWork &work, uint32_t slot,
      GError **error) override
  {
    if (!work.spatial)
      return true;
    width_ = pair.width;
    height_ = pair.height;
    MotionPlane r = { pair.ref.mem, pair.ref.offset, pair.ref.stride };
    MotionPlane d = { pair.dist.mem, pair.dist.offset, pair.dist.stride };
    return kernel_->record (exec, r, d, (GstVulkanBufferMemory *) results_, slot, pair.width,
        pair.height, pair.layout, error);
  }

  void collect (uint32_t slot, const VmafFrameWork &work, uint64_t *, VmafSpatial *spatial) override
  {
    GstMapInfo map;
    if (!work.spatial || !gst_memory_map (results_, &map, GST_MAP_READ))
      return;
    AdmAccum accum;
    VkAdmKernel::read_accum ((const uint32_t *) map.data + slot * VkAdmKernel::kResultWords, &accum);
    gst_memory_unmap (results_, &map);
    /* The size is that of every frame in flight: a new size drains first. */
    AdmScores s;
    adm_finish (accum, width_, height_, params_, &s);
    spatial->adm2 = s.adm2;
    for (int k = 0; k < 4; k++)
      spatial->adm[k] = s.scale[k];
  }

 private:
  VkAdmKernel *kernel_ = nullptr;
  GstMemory *results_ = nullptr;
  AdmParams params_;
  uint32_t width_ = 0, height_ = 0;
};

} // namespace

std::unique_ptr<VmafExtractor>
vmaf_adm_extractor (GstVulkanDevice *device, double gain_limit, GError **error)
{
  std::unique_ptr<AdmExtractor> a (new AdmExtractor ());
  if (!a->init (device, gain_limit, error))
    return nullptr;
  return a;
}

} // namespace gpc
