/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The motion SAD kernel (shaders/vmaf_motion_sad.comp) with its parameters:
 * used by vkvmafmotion and by the benchmark, so both run the same dispatch.
 */
#pragma once

#include <map>

#include "compute/gpcvkexec.h"
#include "compute/gpcvkkernel.h"
#include "vmaf-motion-layout.h"

namespace gpc {

/* A luma plane in a storage buffer. */
struct MotionPlane {
  GstVulkanBufferMemory *mem;
  uint32_t offset; /* bytes, multiple of 4 */
  uint32_t stride; /* bytes */
};

class VkMotionKernel {
 public:
  /* threads, tile_h: the workgroup's invocations (64 to the device's
   * limit) and rows per tile, for benchmark sweeps; 0 (and values the
   * device cannot run) keep the defaults the element uses. */
  static VkMotionKernel *create (GstVulkanDevice *device, GError **error, uint32_t threads = 0,
      uint32_t tile_h = 0);
  ~VkMotionKernel ();

  /* Records: zero the result slot, SAD of prev - cur into it, and make the
   * result visible to the host. `results` holds (lo, hi) uint32 pairs. */
  bool record (VkExec *exec, const MotionPlane &prev, const MotionPlane &cur,
      GstVulkanBufferMemory *results, uint32_t slot, uint32_t width, uint32_t height,
      const LumaLayout &layout, GError **error);

  /* record() in parts, to run beside other kernels (vkstages.h): begin()
   * zeroes the slot and readies `results` for the dispatch; end() makes
   * them visible to the host. */
  void begin (VkExec *exec, GstVulkanBufferMemory *results, uint32_t slot);
  void end (VkExec *exec, GstVulkanBufferMemory *results);

  /* Only the dispatch (the benchmark times it alone); barriers are the
   * caller's. */
  bool dispatch (VkExec *exec, const MotionPlane &prev, const MotionPlane &cur,
      GstVulkanBufferMemory *results, uint32_t slot, uint32_t width, uint32_t height,
      const LumaLayout &layout, GError **error);

 private:
  /* The pipeline for a packing and vertical rounding form, made on first use. */
  VkKernel *pipeline_for (const LumaLayout &layout, GError **error);

  GstVulkanDevice *device_ = nullptr;
  uint32_t tile_h_ = 10;
  uint32_t threads_ = 128;
  std::map<uint32_t, VkKernel *> kernels_;
};

} // namespace gpc
