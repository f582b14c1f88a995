/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkalfkernel.h"

#include "compute/gpcvkplane.h"

#include <string.h>

#include "vvc_alf.spv.h"

namespace gpc {

static_assert (sizeof (VvcAlfPicParams) <= VkAlfKernel::kCtbOffset, "parameter layout");
static_assert (VkAlfKernel::kCtbOffset % 256 == 0, "storage buffer offset alignment");

/* Push constants, in the shader's order. */
struct AlfPush {
  uint32_t in_off[3], in_stride[3], out_off[3], out_stride[3];
  uint32_t wide;
};

/* Output tile of one workgroup (TILE_W x TILE_H in the shader). */
static const uint32_t kTileW = 32, kTileH = 16;

VkAlfKernel *VkAlfKernel::create (GstVulkanDevice *device, GError **error)
{
  VkKernel::Spec spec = { vvc_alf_spv, sizeof (vvc_alf_spv), 8, sizeof (AlfPush), {} };
  VkKernel *k = VkKernel::create (device, spec, error);
  if (!k)
    return nullptr;
  VkAlfKernel *a = new VkAlfKernel ();
  a->kernel_ = k;
  return a;
}

void VkAlfKernel::pack_params (const VvcAlfParams &p, uint8_t *dst)
{
  memset (dst, 0, kCtbOffset);
  VvcAlfPicParams *pic = (VvcAlfPicParams *) dst;
  memcpy (pic, &p.pic, sizeof (p.pic));
  /* Filters that clip nothing (every clip value 2^B): the shader skips
   * their clamps. */
  const int32_t no_clip = 1 << p.pic.bit_depth;
  for (int s = 0; s < kVvcAlfNumLumaSets; s++) {
    bool all = true;
    for (int c = 0; c < kVvcAlfNumClasses; c++)
      for (int j = 0; j < kVvcAlfLumaTaps; j++)
        all = all && p.pic.luma_clip[s][c][j] >= no_clip;
    if (all)
      pic->reserved[0] |= 1 << s;
  }
  for (int f = 0; f < kVvcAlfNumChromaFilters; f++) {
    bool all = true;
    for (int j = 0; j < kVvcAlfChromaTaps; j++)
      all = all && p.pic.chroma_clip[f][j] >= no_clip;
    if (all)
      pic->reserved[1 + (f >> 5)] |= (int32_t) (1u << (f & 31));
  }
  memcpy (dst + kCtbOffset, p.ctbs.data (), p.ctbs.size () * sizeof (VvcAlfCtbParams));
}

GstBuffer *VkAlfKernel::upload_params (VkExec *exec, const VvcAlfParams &p,
    VkBufferCache *staging_cache, VkBufferCache *device_cache, GError **error)
{
  return vk_upload_bytes (exec, staging_cache, device_cache, params_size (p),
      [&] (uint8_t *dst) { pack_params (p, dst); }, error);
}

bool VkAlfKernel::dispatch (VkExec *exec, const AlfPlane in[3], const AlfPlane out[3],
    GstVulkanBufferMemory *params, const VvcAlfPicParams &pic, bool wide, GError **error)
{
  const int n = pic.chroma_format == 0 ? 1 : 3;
  AlfPush pc = {};
  VkDescriptorBufferInfo bufs[8];
  for (int i = 0; i < 3; i++) {
    /* 4:0:0: the chroma bindings point at luma and are never read. */
    const AlfPlane &ip = in[i < n ? i : 0], &op = out[i < n ? i : 0];
    pc.in_off[i] = ip.offset;
    pc.in_stride[i] = ip.stride;
    pc.out_off[i] = op.offset;
    pc.out_stride[i] = op.stride;
    /* Descriptor ranges start at 0: offsets travel as push constants. */
    bufs[i] = { ip.mem->buffer, 0, VK_WHOLE_SIZE };
    bufs[3 + i] = { op.mem->buffer, 0, VK_WHOLE_SIZE };
  }
  pc.wide = wide ? 1 : 0;
  bufs[6] = { params->buffer, 0, kCtbOffset };
  bufs[7] = { params->buffer, kCtbOffset, VK_WHOLE_SIZE };
  /* Grid: luma tile rows, then chroma tile rows (see main() in the shader). */
  const uint32_t gx = ((uint32_t) pic.width + kTileW - 1) / kTileW;
  uint32_t gy = ((uint32_t) pic.height + kTileH - 1) / kTileH;
  if (n == 3)
    gy += ((uint32_t) (pic.height >> pic.shift_y) + kTileH - 1) / kTileH;
  return exec->dispatch (kernel_, bufs, 8, &pc, sizeof pc, gx, gy, 1, error);
}

} // namespace gpc
