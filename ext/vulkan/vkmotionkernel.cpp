/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkmotionkernel.h"

#include "vmaf_motion_sad.spv.h"

namespace gpc {

/* Push constants, in the shader's order. */
struct MotionPush {
  uint32_t prev_offset, cur_offset, prev_stride, cur_stride;
  uint32_t width, height, packing, shift, bpc, slot;
};

/* Output tile of one workgroup (TILE_W x TILE_H in the shader). */
static const uint32_t kTileW = 64, kTileH = 16;

VkMotionKernel *VkMotionKernel::create (GstVulkanDevice *device, GError **error)
{
  VkKernel::Spec spec = { vmaf_motion_sad_spv, sizeof (vmaf_motion_sad_spv), 3,
    sizeof (MotionPush), {} };
  VkKernel *k = VkKernel::create (device, spec, error);
  if (!k)
    return nullptr;
  VkMotionKernel *m = new VkMotionKernel ();
  m->kernel_ = k;
  return m;
}

bool VkMotionKernel::dispatch (VkExec *exec, const MotionPlane &prev, const MotionPlane &cur,
    GstVulkanBufferMemory *results, uint32_t slot, uint32_t w, uint32_t h,
    const LumaLayout &l, GError **error)
{
  MotionPush pc = { prev.offset, cur.offset, prev.stride, cur.stride, w, h,
    l.packing, l.shift, l.bpc, slot };
  /* Descriptor ranges start at 0: offsets travel as push constants. */
  VkDescriptorBufferInfo bufs[3] = {
    { prev.mem->buffer, 0, VK_WHOLE_SIZE },
    { cur.mem->buffer, 0, VK_WHOLE_SIZE },
    { results->buffer, 0, VK_WHOLE_SIZE },
  };
  return exec->dispatch (kernel_, bufs, 3, &pc, sizeof pc, (w + kTileW - 1) / kTileW,
      (h + kTileH - 1) / kTileH, 1, error);
}

bool VkMotionKernel::record (VkExec *exec, const MotionPlane &prev, const MotionPlane &cur,
    GstVulkanBufferMemory *results, uint32_t slot, uint32_t w, uint32_t h,
    const LumaLayout &l, GError **error)
{
  exec->barrier (results, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer (exec->cmd (), results->buffer, (VkDeviceSize) slot * 8, 8, 0);
  exec->barrier (results, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  if (!dispatch (exec, prev, cur, results, slot, w, h, l, error))
    return false;
  exec->barrier (results, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  return true;
}

} // namespace gpc
