/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkadmkernel.h"

#include <string.h>

#include <algorithm>
#include <string>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkerror.h"
#include "vmaf_adm_dwt.spv.h"
#include "vmaf_adm_masked.spv.h"
#include "vmaf_adm_rows.spv.h"

namespace gpc {

namespace {

/* Push constants, in the shaders' order. */
struct DwtPush {
  uint32_t in_w, in_h, out_w, out_h, bpc;
  uint32_t ref_in, dis_in, ref_stride, dis_stride, ref_out, dis_out;
  uint32_t result_words;
  uint32_t counters, n_counters;
};

/* Every scale's, packed (vmaf_adm_masked.comp: a scale's masked sums need
 * its own, the next scale's wavelet step that one's), and what scale 3
 * needs to finish its rows: at most 128 bytes, what every Vulkan device
 * takes. The CSF weights are the pipelines' constants. */
struct MaskedPush {
  uint32_t size[4];    /* band width | height << 16 */
  uint32_t corner[4];  /* region left | top << 16 */
  uint32_t shifts[12]; /* bytes num_sub[3], num_sq[3], num_cub[3], den_sq, den_cub, gain */
  uint32_t bands[4];   /* word offset of the reference's band a, in the binding */
  uint32_t row_shifts; /* scale 3's num_row | den_row << 8 */
  uint32_t counters;   /* word offset of scale 3's counts (one per row of tiles), in the binding */
};
static_assert (sizeof (MaskedPush) <= 128, "Vulkan guarantees 128 bytes of push constants");

/* One scale's, the one summed. */
struct RowsPush {
  uint32_t rows, tiles;
  uint32_t num_row, den_row;
};

const uint32_t kDwt0TileW = 124, kDwt0TileH = 4; /* vmaf_adm_dwt.comp */
const uint32_t kDwtTileW = 32, kDwtTileH = 15;   /* vmaf_adm_wavelet.glsl, scales 1..3 */
const uint32_t kMaskTileW = 30, kMaskTileH = 14; /* vmaf_adm_masked.comp */
const uint32_t kRowsPerGroup = 64;               /* vmaf_adm_rows.comp */
const uint32_t kMaxGroups = 65535; /* per dimension, on every device */

/* Words `first` .. `first` + `words` - 1 of result slot `slot`, bound. */
VkDescriptorBufferInfo slot_words (GstVulkanBufferMemory *results, uint32_t slot, uint32_t first,
    uint32_t words)
{
  return vk_bind_words (results, (uint64_t) slot * VkAdmKernel::kResultWords + first, words);
}

/* Words per row of a band of scale s. */
uint32_t band_stride (const AdmScaleGeom &g, int s)
{
  return s == 0 ? (g.w + 1) / 2 : g.w;
}

void masked_push (const AdmScaleGeom geom[4], const AdmConsts &c, const uint32_t bands[4],
    MaskedPush *p)
{
  for (int s = 0; s < 4; s++) {
    const AdmScaleGeom &g = geom[s];
    /* The shader takes the region as symmetric, as adm_geometry makes it. */
    g_assert (g.core.right == g.w - g.core.left && g.core.bottom == g.h - g.core.top);
    p->size[s] = (uint32_t) g.w | (uint32_t) g.h << 16;
    p->corner[s] = (uint32_t) g.core.left | (uint32_t) g.core.top << 16;
    AdmShifts sh;
    adm_shifts (g, s, &sh);
    const uint32_t bytes[12] = { sh.num_sub[0], sh.num_sub[1], sh.num_sub[2], sh.num_sq[0],
      sh.num_sq[1], sh.num_sq[2], sh.num_cub[0], sh.num_cub[1], sh.num_cub[2], sh.den_sq,
      sh.den_cub, (uint32_t) c.gain_limit };
    for (int i = 0; i < 12; i++) {
      g_assert (bytes[i] < 256);
      p->shifts[s * 3 + i / 4] |= bytes[i] << (i % 4 * 8);
    }
    p->bands[s] = bands[s];
  }
}

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

  VkKernel::Spec rows = { vmaf_adm_rows_spv, sizeof (vmaf_adm_rows_spv), 2, sizeof (RowsPush),
    {} };
  LumaLayout l8 = { LUMA_U8, 8, 0, 0 };
  for (uint32_t s = 0; s < 4; s++) {
    const AdmConsts &c = k->consts_;
    VkKernel::Spec masked = { vmaf_adm_masked_spv, sizeof (vmaf_adm_masked_spv), 3,
      sizeof (MaskedPush), { adm_cos_1deg_sq_q24 (), s, c.i_rfactor[s][0], c.i_rfactor[s][2] } };
    if (!(k->masked_[s] = VkKernel::create (device, masked, error))) {
      delete k;
      return nullptr;
    }
  }
  if (!(k->rows_ = VkKernel::create (device, rows, error)) || !k->dwt_for (l8, error)) {
    delete k;
    return nullptr;
  }
  return k;
}

VkAdmKernel::~VkAdmKernel ()
{
  for (auto &k : dwt_)
    delete k.second;
  for (VkKernel *m : masked_)
    delete m;
  delete rows_;
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
  /* Every scale's bands, then every scale's partial sums: a scale's masked
   * sums bind its bands and the next scale's as one part (vmaf_adm_masked.comp). */
  uint64_t words = 0;
  for (int s = 0; s < 4; s++) {
    const AdmScaleGeom &g = geom_[s];
    /* Scale 0's bands are 16-bit pairs (vmaf_adm_dwt.comp). */
    const uint64_t n = (uint64_t) band_stride (g, s) * g.h;
    tiles_x_[s] = (g.core.right - g.core.left + kMaskTileW - 1) / kMaskTileW;
    bands_[s] = (uint32_t) words;
    band_words_[s] = (uint32_t) (8 * n);
    words = vk_bind_round_words (words + 8 * n);
  }
  for (int s = 0; s < 4; s++) {
    const AdmScaleGeom &g = geom_[s];
    /* Six (low, high) sums per region row and tile, stored sum, tile,
     * region row (vmaf_adm_rows.comp reads neighbouring rows together). */
    partial_[s] = (uint32_t) words;
    partial_words_[s] = (g.core.bottom - g.core.top) * tiles_x_[s] * 12;
    words = vk_bind_round_words (words + partial_words_[s]);
  }
  /* Scale 3's counts of finished tiles, one per row of tiles, right after
   * its partial sums (one binding). */
  counters_ = partial_[3] + partial_words_[3];
  n_counters_ = (geom_[3].core.bottom - geom_[3].core.top + kMaskTileH - 1) / kMaskTileH;
  words = counters_ + (uint64_t) n_counters_;
  const uint64_t max_range = device_->physical_device->properties.limits.maxStorageBufferRange;
  if (words * 4 > std::min<uint64_t> (max_range, G_MAXUINT32)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "%ux%u is too large for the ADM kernel: it needs a storage buffer of %" G_GUINT64_FORMAT
        " bytes, the device binds at most %" G_GUINT64_FORMAT, w, h, words * 4, max_range);
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
  return vk_record_alone (exec, this, error, ref, dist, results, slot, width, height, layout);
}

bool VkAdmKernel::begin (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
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
  exec->keep (GST_MINI_OBJECT_CAST (scratch_));
  frame_ = { ref, dist, results, slot, width, height, layout, dwt };
  /* Scale 0's wavelet step zeroes the slot and scale 3's counts. The
   * previous frame's reads of the scratch memory come before this frame's
   * writes through the barrier before the first stage (vk_record_levels). */
  exec->barrier (results, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  return true;
}

bool VkAdmKernel::record_stage (VkExec *exec, unsigned k, GError **error)
{
  const Frame &f = frame_;
  GstVulkanBufferMemory *scratch = (GstVulkanBufferMemory *) scratch_;
  /* Each dispatch binds only the parts of scratch and of the result slot
   * that it touches: a stage's masked sums and the row sums of the scale
   * before never share bytes that one of them writes. */
  if (k == 0) {
    /* The first stage: no other dispatch of this kernel's runs beside it. */
    const VkDescriptorBufferInfo bufs[4] = {
      { f.ref.mem->buffer, 0, VK_WHOLE_SIZE },
      { f.dist.mem->buffer, 0, VK_WHOLE_SIZE },
      { scratch->buffer, 0, VK_WHOLE_SIZE },
      slot_words (f.results, f.slot, 0, kResultWords),
    };
    const AdmScaleGeom &g0 = geom_[0];
    const DwtPush dp = { f.width, f.height, (uint32_t) g0.w, (uint32_t) g0.h, f.layout.bpc,
      f.ref.offset, f.dist.offset, f.ref.stride, f.dist.stride, bands_[0],
      bands_[0] + band_words_[0] / 2, kResultWords, counters_, n_counters_ };
    return exec->dispatch (f.dwt, bufs, 4, &dp, sizeof dp, (g0.w + kDwt0TileW - 1) / kDwt0TileW,
        (g0.h + kDwt0TileH - 1) / kDwt0TileH, 2, error);
  }
  /* Scale s's masked sums and the next scale's wavelet step
   * (vmaf_adm_masked.comp; at scale 3 its row sums too); then the row sums
   * of the scale before, whose masked sums the previous stage made. */
  g_assert (k < kStages);
  const int s = (int) k - 1;
  const AdmScaleGeom &g = geom_[s];
  /* Bands from this scale's: its own at 0, the next scale's after them. */
  uint32_t bands[4] = {};
  for (int t = s; t < 4; t++)
    bands[t] = bands_[t] - bands_[s];
  MaskedPush mp = {};
  masked_push (geom_, consts_, bands, &mp);
  if (s == 3) {
    AdmShifts sh;
    adm_shifts (g, 3, &sh);
    g_assert (sh.num_row < 256 && sh.den_row < 256);
    mp.row_shifts = sh.num_row | sh.den_row << 8;
    mp.counters = counters_ - partial_[3];
  }
  const uint32_t rows = g.core.bottom - g.core.top;
  uint32_t groups = tiles_x_[s] * ((rows + kMaskTileH - 1) / kMaskTileH);
  if (s < 3) {
    const AdmScaleGeom &next = geom_[s + 1];
    groups += 2 * ((next.w + kDwtTileW - 1) / kDwtTileW) * ((next.h + kDwtTileH - 1) / kDwtTileH);
  }
  /* A grid of at most kMaxGroups columns; the shader numbers the workgroups
   * row by row. */
  const uint32_t grid_y = (groups + kMaxGroups - 1) / kMaxGroups;
  const uint32_t last = s < 3 ? s + 1 : s;
  const VkDescriptorBufferInfo bufs[3] = {
    vk_bind_words (scratch, bands_[s], bands_[last] + band_words_[last] - bands_[s]),
    vk_bind_words (scratch, partial_[s], partial_words_[s] + (s == 3 ? n_counters_ : 0)),
    slot_words (f.results, f.slot, s * kScaleResultWords, kScaleResultWords),
  };
  if (!exec->dispatch (masked_[s], bufs, 3, &mp, sizeof mp, (groups + grid_y - 1) / grid_y,
          grid_y, 1, error))
    return false;
  return s == 0 || dispatch_rows (exec, s - 1, error);
}

/* Scale s's row sums into the slot (vmaf_adm_rows.comp), s < 3: each
 * scale's as soon as its masked sums are done (scale 3's masked sums
 * finish their own). */
bool VkAdmKernel::dispatch_rows (VkExec *exec, int scale, GError **error)
{
  const Frame &f = frame_;
  GstVulkanBufferMemory *scratch = (GstVulkanBufferMemory *) scratch_;
  const AdmScaleGeom &g = geom_[scale];
  AdmShifts sh;
  adm_shifts (g, scale, &sh);
  const RowsPush rp = { (uint32_t) (g.core.bottom - g.core.top), tiles_x_[scale], sh.num_row,
    sh.den_row };
  const VkDescriptorBufferInfo bufs[2] = {
    vk_bind_words (scratch, partial_[scale], partial_words_[scale]),
    slot_words (f.results, f.slot, scale * kScaleResultWords, kScaleResultWords),
  };
  /* 64 region rows per workgroup, per sum. */
  return exec->dispatch (rows_, bufs, 2, &rp, sizeof rp,
      (rp.rows + kRowsPerGroup - 1) / kRowsPerGroup, 1, 6, error);
}

void VkAdmKernel::end (VkExec *exec)
{
  exec->barrier (frame_.results, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

size_t VkAdmKernel::scale0_bands_bytes () const
{
  return (size_t) 8 * band_stride (geom_[0], 0) * geom_[0].h * 4;
}

void VkAdmKernel::copy_scale0_bands (VkExec *exec, GstVulkanBufferMemory *dst)
{
  /* The stages' barriers are global: the scratch memory's own state is
   * not tracked. */
  exec->global_barrier (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  /* The distorted picture's bands follow the reference's. */
  exec->copy ((GstVulkanBufferMemory *) scratch_, (VkDeviceSize) bands_[0] * 4, dst, 0,
      scale0_bands_bytes ());
  exec->barrier (dst, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

void VkAdmKernel::read_accum (const uint32_t *w, AdmAccum *accum)
{
  for (int s = 0; s < 4; s++) {
    for (int b = 0; b < 3; b++) {
      const uint32_t *num = w + s * kScaleResultWords + b * 2, *den = num + 6;
      accum->num[s][b] = (int64_t) ((uint64_t) num[1] << 32 | num[0]);
      accum->den[s][b] = (uint64_t) den[1] << 32 | den[0];
    }
  }
}

} // namespace gpc
