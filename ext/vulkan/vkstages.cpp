/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkstages.h"

#include <algorithm>

namespace gpc {

bool vk_record_levels (VkExec *exec, VkStaged *const *works, size_t n, GError **error)
{
  unsigned levels = 0;
  for (size_t i = 0; i < n; i++)
    levels = std::max (levels, works[i]->stages ());
  for (unsigned k = 0; k < levels; k++) {
    exec->global_barrier (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    for (size_t i = 0; i < n; i++) {
      const unsigned first = std::min (works[i]->first_level (levels), levels);
      if (k >= first && k - first < works[i]->stages ()
          && !works[i]->record_stage (exec, k - first, error))
        return false;
    }
  }
  return true;
}

} // namespace gpc
