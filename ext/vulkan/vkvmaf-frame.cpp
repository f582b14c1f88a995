/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One frame pair's GPU work for vkvmaf, the same for the element and its
 * benchmark. VIF's and ADM's chains start at level 0, so a frame takes
 * their five levels; motion's one dispatch runs at the last (its
 * first_level). The small dispatches share levels with larger ones (per
 * 2160p 10-bit frame on an H200, each alone):
 *   0: VIF scale 0 (350 us), ADM scale 0's wavelet step (36)
 *   1: VIF's tail of scale 0 (18), VIF scale 1 (75), ADM masked sums 0 (87)
 *   2: VIF's tail 1 (12), VIF scale 2 (24), ADM masked sums 1 (38), ADM
 *      row sums 0 (12)
 *   3: VIF's tail 2 (7), VIF scale 3 (17), ADM masked sums 2 (15), ADM row
 *      sums 1 (7)
 *   4: VIF's tail 3 (5), ADM masked sums 3 with its row sums (17), ADM row
 *      sums 2 (5), motion (28; at level 0 or 1 the frame took 0.605-0.607
 *      ms against 0.598)
 * Within a level VIF comes first: the largest dispatch starts first and the
 * others fill the multiprocessors it leaves idle (its last wave above all).
 */
#include "vkvmaf-extractor.h"

namespace gpc {

bool vmaf_extractors (GstVulkanDevice *device, const VmafNeeds &n,
    const VifKernelOptions &vif_options, VmafExtractors *out, GError **error)
{
  std::unique_ptr<VmafExtractor> e;
  if (n.vif) {
    if (!(e = vmaf_vif_extractor (device, n.vif_gain_limit, vif_options, error)))
      return false;
    out->push_back (std::move (e));
  }
  if (n.adm) {
    if (!(e = vmaf_adm_extractor (device, n.adm_gain_limit, error)))
      return false;
    out->push_back (std::move (e));
  }
  if (n.motion) {
    if (!(e = vmaf_motion_extractor (device, error)))
      return false;
    out->push_back (std::move (e));
  }
  return true;
}

bool vmaf_record_frame (VkExec *exec, const VmafExtractors &extractors, const VmafPair &pair,
    const VmafFrameWork &work, uint32_t slot, GError **error)
{
  std::vector<VkStaged *> staged;
  for (const auto &e : extractors) {
    if (!e->begin (exec, pair, work, slot, error))
      return false;
    staged.push_back (e.get ());
  }
  if (!vk_record_levels (exec, staged.data (), staged.size (), error))
    return false;
  for (const auto &e : extractors)
    e->end (exec);
  return true;
}

} // namespace gpc
