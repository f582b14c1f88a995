/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkadmkernel.h"

#include <string.h>

#include <string>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkerror.h"
#include "vmaf_adm_decouple.spv.h"
#include "vmaf_adm_dwt.spv.h"
#include "vmaf_adm_sums.spv.h"

namespace gpc {

namespace {

/* Push constants, in the shaders' order. */
struct DwtPush {
  uint32_t in_w, in_h, out_w, out_h, scale, bpc;
  uint32_t ref_in, dis_in, ref_stride, dis_stride, ref_out, dis_out;
  uint32_t slot, result_words;
};

/* The region travels as the shaders' uint left, top, right, bottom. */
struct DecouplePush {
  uint32_t w, n;
  AdmRect rect;
  uint32_t ref_bands, dis_bands, mask, scale;
  uint32_t rfactor[3];
  int32_t gain;
};

struct SumsPush {
  uint32_t w, h, n;
  AdmRect rect;
  uint32_t ref_bands, mask, scale;
  uint32_t rfactor[3];
  uint32_t num_sub[3], num_sq[3], num_cub[3];
  uint32_t num_row, den_sq, den_cub, den_row;
  uint32_t result_base;
};

const uint32_t kTile = 16;     /* vmaf_adm_dwt.comp and _decouple.comp */
const uint32_t kBandsPerScale = 17; /* 4 + 4 bands, 9 masking planes */

} // namespace

VkAdmKernel *VkAdmKernel::create (GstVulkanDevice *device, const AdmParams &params,
    GError **error)
{
  std::string why;
  if (!adm_params_valid (params, &why)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS, "%s", why.c_str ());
    return nullptr;
  }
  VkAdmKernel *k = new VkAdmKernel ();
  k->device_ = (GstVulkanDevice *) gst_object_ref (device);
  k->params_ = params;
  adm_consts (params, &k->consts_);
  if (k->consts_.gain_limit == 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "adm_enhn_gain_limit %g: the GPU takes integer limits only", params.enhn_gain_limit);
    delete k;
    return nullptr;
  }
  VkKernel::Spec dec = { vmaf_adm_decouple_spv, sizeof (vmaf_adm_decouple_spv), 1,
    sizeof (DecouplePush), { adm_cos_1deg_sq_q24 () } };
  VkKernel::Spec sums = { vmaf_adm_sums_spv, sizeof (vmaf_adm_sums_spv), 2, sizeof (SumsPush),
    {} };
  LumaLayout l8 = { LUMA_U8, 8, 0, 0 };
  if (!(k->decouple_ = VkKernel::create (device, dec, error))
      || !(k->sums_ = VkKernel::create (device, sums, error)) || !k->dwt_for (l8, error)) {
    delete k;
    return nullptr;
  }
  return k;
}

VkAdmKernel::~VkAdmKernel ()
{
  for (auto &k : dwt_)
    delete k.second;
  delete decouple_;
  delete sums_;
  if (scratch_)
    gst_memory_unref (scratch_);
  if (device_)
    gst_object_unref (device_);
}

VkKernel *VkAdmKernel::dwt_for (const LumaLayout &l, GError **error)
{
  const uint32_t key = (uint32_t) l.packing * 32 + l.shift;
  auto it = dwt_.find (key);
  if (it != dwt_.end ())
    return it->second;
  VkKernel::Spec spec = { vmaf_adm_dwt_spv, sizeof (vmaf_adm_dwt_spv), 4, sizeof (DwtPush),
    { (uint32_t) l.packing, l.shift } };
  VkKernel *k = VkKernel::create (device_, spec, error);
  if (k)
    dwt_[key] = k;
  return k;
}

bool VkAdmKernel::ensure_scratch (uint32_t w, uint32_t h, GError **error)
{
  if (scratch_ && w == scratch_w_ && h == scratch_h_)
    return true;
  if (scratch_)
    gst_memory_unref (scratch_);
  scratch_ = nullptr;
  adm_geometry (w, h, geom_);
  uint64_t words = 0;
  for (int s = 0; s < 4; s++) {
    const uint64_t n = (uint64_t) geom_[s].w * geom_[s].h;
    ref_bands_[s] = (uint32_t) words;
    dis_bands_[s] = (uint32_t) (words + 4 * n);
    mask_[s] = (uint32_t) (words + 8 * n);
    words += kBandsPerScale * n;
  }
  if (words * 4 > G_MAXUINT32) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "%ux%u is too large for the ADM kernel", w, h);
    return false;
  }
  scratch_ = vk_storage_alloc (device_, words * 4, VkMemKind::Device, error);
  if (!scratch_)
    return false;
  scratch_w_ = w;
  scratch_h_ = h;
  return true;
}

bool VkAdmKernel::record (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
    GstVulkanBufferMemory *results, uint32_t slot, uint32_t width, uint32_t height,
    const LumaLayout &layout, GError **error)
{
  if (!adm_size_supported (width, height)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "ADM needs pictures of at least %ux%u, not %ux%u", kAdmMinSize, kAdmMinSize, width,
        height);
    return false;
  }
  VkKernel *dwt = dwt_for (layout, error);
  if (!dwt || !ensure_scratch (width, height, error))
    return false;
  GstVulkanBufferMemory *scratch = (GstVulkanBufferMemory *) scratch_;
  exec->keep (GST_MINI_OBJECT_CAST (gst_memory_ref (scratch_)));

  /* The previous frame's reads of scratch and results come first. */
  exec->global_barrier (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  exec->barrier (results, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  auto stage_barrier = [exec] () {
    exec->global_barrier (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  };

  const VkDescriptorBufferInfo dwt_bufs[4] = {
    { ref.mem->buffer, 0, VK_WHOLE_SIZE },
    { dist.mem->buffer, 0, VK_WHOLE_SIZE },
    { scratch->buffer, 0, VK_WHOLE_SIZE },
    { results->buffer, 0, VK_WHOLE_SIZE },
  };
  const VkDescriptorBufferInfo dec_bufs[1] = { { scratch->buffer, 0, VK_WHOLE_SIZE } };
  const VkDescriptorBufferInfo sum_bufs[2] = {
    { scratch->buffer, 0, VK_WHOLE_SIZE },
    { results->buffer, 0, VK_WHOLE_SIZE },
  };

  for (int s = 0; s < 4; s++) {
    const AdmScaleGeom &g = geom_[s];
    const uint32_t n = (uint32_t) g.w * g.h;

    DwtPush dp = {};
    dp.in_w = s == 0 ? width : geom_[s - 1].w;
    dp.in_h = s == 0 ? height : geom_[s - 1].h;
    dp.out_w = g.w;
    dp.out_h = g.h;
    dp.scale = s;
    dp.bpc = layout.bpc;
    dp.ref_in = s == 0 ? ref.offset : ref_bands_[s - 1];
    dp.dis_in = s == 0 ? dist.offset : dis_bands_[s - 1];
    dp.ref_stride = s == 0 ? ref.stride : dp.in_w;
    dp.dis_stride = s == 0 ? dist.stride : dp.in_w;
    dp.ref_out = ref_bands_[s];
    dp.dis_out = dis_bands_[s];
    dp.slot = slot;
    dp.result_words = kResultWords;
    if (!exec->dispatch (dwt, dwt_bufs, 4, &dp, sizeof dp, (g.w + kTile - 1) / kTile,
            (g.h + kTile - 1) / kTile, 2, error))
      return false;
    stage_barrier ();

    DecouplePush cp = {};
    cp.w = g.w;
    cp.n = n;
    cp.rect = g.ext;
    cp.ref_bands = ref_bands_[s];
    cp.dis_bands = dis_bands_[s];
    cp.mask = mask_[s];
    cp.scale = s;
    memcpy (cp.rfactor, consts_.i_rfactor[s], sizeof cp.rfactor);
    cp.gain = consts_.gain_limit;
    const uint32_t ew = g.ext.right - g.ext.left, eh = g.ext.bottom - g.ext.top;
    if (!exec->dispatch (decouple_, dec_bufs, 1, &cp, sizeof cp, (ew + kTile - 1) / kTile,
            (eh + kTile - 1) / kTile, 1, error))
      return false;
    stage_barrier ();

    SumsPush sp = {};
    sp.w = g.w;
    sp.h = g.h;
    sp.n = n;
    sp.rect = g.core;
    sp.ref_bands = ref_bands_[s];
    sp.mask = mask_[s];
    sp.scale = s;
    memcpy (sp.rfactor, consts_.i_rfactor[s], sizeof sp.rfactor);
    AdmShifts sh;
    adm_shifts (g, s, &sh);
    for (int b = 0; b < 3; b++) {
      sp.num_sub[b] = sh.num_sub[b];
      sp.num_sq[b] = sh.num_sq[b];
      sp.num_cub[b] = sh.num_cub[b];
    }
    sp.num_row = sh.num_row;
    sp.den_sq = sh.den_sq;
    sp.den_cub = sh.den_cub;
    sp.den_row = sh.den_row;
    sp.result_base = slot * kResultWords + s * 6;
    if (!exec->dispatch (sums_, sum_bufs, 2, &sp, sizeof sp, g.core.bottom - g.core.top, 1, 1,
            error))
      return false;
    if (s < 3)
      stage_barrier ();
  }
  exec->barrier (results, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  return true;
}

void VkAdmKernel::read_accum (const uint32_t *w, AdmAccum *accum)
{
  for (int s = 0; s < 4; s++) {
    for (int b = 0; b < 3; b++) {
      const uint32_t *num = w + (s * 3 + b) * 2, *den = w + 24 + (s * 3 + b) * 2;
      accum->num[s][b] = (int64_t) ((uint64_t) num[1] << 32 | num[0]);
      accum->den[s][b] = (uint64_t) den[1] << 32 | den[0];
    }
  }
}

} // namespace gpc
