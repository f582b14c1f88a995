/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's features on the GPU, one extractor per libvmaf feature extractor
 * (motion, vif, adm). Each records its kernels for a frame pair into the
 * element's submission, in stages beside the others' (vkstages.h), and, once
 * that submission's fence signalled, reads back its few bytes of sums from
 * its own host-visible result slots and turns them into libvmaf's values
 * with the CPU reference's code. Shared with the benchmark, so that it
 * times what the element records.
 */
#pragma once

#include <memory>
#include <vector>

#include "compute/gpcvk.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkplane.h"
#include "vkstages.h"
#include "vkvifkernel.h"
#include "vmaf-motion-layout.h"
#include "vmaf-scorer.h"

namespace gpc {

/* Result slots per extractor: more than frames can be in flight. */
constexpr uint32_t kVmafSlots = 32;

/* The luma planes of one frame pair, ready for SHADER_READ. Both inputs
 * share one layout (the element refuses others). */
struct VmafPair {
  StoragePlane ref, dist;
  LumaLayout layout;
  uint32_t width, height;
};

/* What one frame needs: a motion SAD (against the reference `sad_distance`
 * frames before: 1, or 2 with the five-frame window), the spatial features
 * (scored frames only). */
struct VmafFrameWork {
  bool sad = false;
  unsigned sad_distance = 1;
  bool spatial = false;
};

class VmafExtractor : public VkStaged {
 public:
  /* Starts recording the frame's work, results into `slot`: what must come
   * before its dispatches, which stages() and record_stage() then give (no
   * stages when the frame needs nothing of this extractor). */
  virtual bool begin (VkExec *exec, const VmafPair &pair, const VmafFrameWork &work,
      uint32_t slot, GError **error) = 0;
  /* After the frame's last stage: its results for the host. */
  virtual void end (VkExec *exec) = 0;
  /* After the fence: the frame's values into `sad` / `spatial`. */
  virtual void collect (uint32_t slot, const VmafFrameWork &work, uint64_t *sad,
      VmafSpatial *spatial) = 0;
  /* A new history (flush, new size): forget earlier frames. */
  virtual void reset () {}
};

using VmafExtractors = std::vector<std::unique_ptr<VmafExtractor>>;

/* Each returns nullptr with `error` set when the device cannot run it. */
std::unique_ptr<VmafExtractor> vmaf_motion_extractor (GstVulkanDevice *device, GError **error);
std::unique_ptr<VmafExtractor> vmaf_vif_extractor (GstVulkanDevice *device, double gain_limit,
    const VifKernelOptions &options, GError **error);
std::unique_ptr<VmafExtractor> vmaf_adm_extractor (GstVulkanDevice *device, double gain_limit,
    GError **error);

/* The extractors `needs` asks for (VIF with `vif_options`), in the order
 * vmaf_record_frame() records them; false with `error` set. */
bool vmaf_extractors (GstVulkanDevice *device, const VmafNeeds &needs,
    const VifKernelOptions &vif_options, VmafExtractors *out, GError **error);

/* Records one frame pair's work, as vkvmaf submits it: every extractor's
 * begin(), their stages level by level (vk_record_levels), every end(). */
bool vmaf_record_frame (VkExec *exec, const VmafExtractors &extractors, const VmafPair &pair,
    const VmafFrameWork &work, uint32_t slot, GError **error);

} // namespace gpc
