/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkmotionkernel.h"

#include <algorithm>
#include <stdlib.h>

#include "vmaf_motion_sad.spv.h"

namespace gpc {

namespace {

/* Push constants, in the shader's order. */
struct MotionPush {
  uint32_t prev_offset, cur_offset, prev_stride, cur_stride;
  uint32_t width, height, packing, shift, bpc, slot;
};

} // namespace

/* A workgroup of kThreads invocations covers kThreads - 4 output columns
 * (2 halo columns each side) and tile_h_ rows. */
/* Measured on an H100, 2160p 10-bit, GPU time per frame (threads x rows):
 * 256x32 56.8 us, 256x16 36.3, 256x8 24.9, 256x6 25.5, 512x8 31.1,
 * 128x8 25.5, 128x10 23.2 (more, smaller workgroups keep more loads in
 * flight; see docs/performance.md). */
static const uint32_t kThreads = 128;
static const uint32_t kDefaultTileH = 10;

VkMotionKernel *VkMotionKernel::create (GstVulkanDevice *device, GError **error, uint32_t threads,
    uint32_t tile_h)
{
  VkMotionKernel *m = new VkMotionKernel ();
  m->device_ = (GstVulkanDevice *) gst_object_ref (device);
  /* One row of vertical results takes 256 ints; keep a little for the rest. */
  uint32_t shared = device->physical_device->properties.limits.maxComputeSharedMemorySize;
  m->threads_ = kThreads;
  if (threads >= 64
      && threads <= device->physical_device->properties.limits.maxComputeWorkGroupInvocations)
    m->threads_ = threads;
  const uint32_t max_h = (shared - 64) / (m->threads_ * 4);
  m->tile_h_ = std::min (kDefaultTileH, max_h);
  if (tile_h >= 1 && tile_h <= max_h)
    m->tile_h_ = tile_h;
  /* Make the common 8-bit pipeline now, so that a broken driver fails at start. */
  LumaLayout l8 = { LUMA_U8, 8, 0, 0 };
  if (!m->pipeline_for (l8, error)) {
    delete m;
    return nullptr;
  }
  return m;
}

VkMotionKernel::~VkMotionKernel ()
{
  for (auto &k : kernels_)
    delete k.second;
  if (device_)
    gst_object_unref (device_);
}

VkKernel *VkMotionKernel::pipeline_for (const LumaLayout &l, GError **error)
{
  const uint32_t split = l.bpc > 14;
  const uint32_t key = ((uint32_t) l.packing * 2 + split) * 32 + l.shift;
  auto it = kernels_.find (key);
  if (it != kernels_.end ())
    return it->second;
  VkKernel::Spec spec = { vmaf_motion_sad_spv, sizeof (vmaf_motion_sad_spv), 3,
    sizeof (MotionPush), { (uint32_t) l.packing, split, tile_h_, threads_, l.shift } };
  VkKernel *k = VkKernel::create (device_, spec, error);
  if (k)
    kernels_[key] = k;
  return k;
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
  VkKernel *k = pipeline_for (l, error);
  if (!k)
    return false;
  const uint32_t tile_w = threads_ - 4;
  return exec->dispatch (k, bufs, 3, &pc, sizeof pc, (w + tile_w - 1) / tile_w,
      (h + tile_h_ - 1) / tile_h_, 1, error);
}

void VkMotionKernel::begin (VkExec *exec, GstVulkanBufferMemory *results, uint32_t slot)
{
  exec->fill (results, (VkDeviceSize) slot * 8, 8, 0);
  exec->barrier (results, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

void VkMotionKernel::end (VkExec *exec, GstVulkanBufferMemory *results)
{
  exec->barrier (results, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

bool VkMotionKernel::record (VkExec *exec, const MotionPlane &prev, const MotionPlane &cur,
    GstVulkanBufferMemory *results, uint32_t slot, uint32_t w, uint32_t h,
    const LumaLayout &l, GError **error)
{
  begin (exec, results, slot);
  if (!dispatch (exec, prev, cur, results, slot, w, h, l, error))
    return false;
  end (exec, results);
  return true;
}

} // namespace gpc
