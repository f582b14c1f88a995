/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's ADM extractor: the integer ADM kernel on scored frame pairs; its
 * per-scale sums become libvmaf's values through the CPU reference's
 * adm_finish().
 */
#include "vkvmaf-spatial.h"

#include "vkadmkernel.h"
#include "vkmotionkernel.h"
#include "vmaf-adm-ref.h"

namespace gpc {

namespace {

class AdmExtractor : public VmafSpatialExtractor<VkAdmKernel> {
 public:
  bool init (GstVulkanDevice *device, double gain_limit, GError **error)
  {
    params_.enhn_gain_limit = gain_limit;
    kernel_ = VkAdmKernel::create (device, params_, error);
    return alloc_results (device, error);
  }

  bool begin (VkExec *exec, const VmafPair &pair, const VmafFrameWork &work, uint32_t slot,
      GError **error) override
  {
    if (work.spatial) {
      width_ = pair.width;
      height_ = pair.height;
    }
    return begin_kernel (exec, pair, work, slot, error);
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
