/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GPU time of recorded work, from timestamp queries (core Vulkan, no feature
 * to enable). For benchmarks: stamp before and after the work in a command
 * buffer, submit, wait, read.
 */
#pragma once

#include "gpcvk.h"

#include <vector>

namespace gpc {

class VkGpuTimer {
 public:
  ~VkGpuTimer ();
  /* NULL when the queue family has no timestamps. */
  static VkGpuTimer *create (GstVulkanQueue *queue, uint32_t n_stamps, GError **error);

  /* Record at the start of a command buffer, before any stamp. */
  void reset (VkCommandBuffer cmd);
  void stamp (VkCommandBuffer cmd, uint32_t index);
  /* Nanoseconds between stamps a and b, after the work has completed. */
  bool read (std::vector<double> &ns_at_stamp);

 private:
  VkGpuTimer () {}
  GstVulkanDevice *device_ = nullptr;
  VkQueryPool pool_ = VK_NULL_HANDLE;
  uint32_t n_ = 0;
  double period_ns_ = 1.0;
  uint64_t mask_ = ~0ull;
};

} // namespace gpc
