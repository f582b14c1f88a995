/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkvifkernel.h"

#include <math.h>
#include <string.h>

#include <algorithm>

#include "compute/gpcvkplane.h"
#include "vmaf_vif.spv.h"

namespace gpc {

namespace {

/* Push constants, in the shader's order. */
struct VifPush {
  uint32_t ref_offset, dist_offset, ref_stride, dist_stride;
  uint32_t width, height;
  uint32_t limit[VkVifKernel::kLimitWords];
  uint32_t list_cap, queue_offset, tiles_x;
};

/* Workgroups of a tail dispatch (TAIL_GROUPS in the shader). */
const uint32_t kTailGroups = 32;
/* Pixels a workgroup lists for the exact emulation (WG_LIST). */
const uint32_t kGroupList = 64;
/* Words before a scale's list in its exact part (LIST_AT): the count of
 * entries and of strips queued. */
const uint32_t kExactHead = 2;

} // namespace

VkVifKernel *VkVifKernel::create (GstVulkanDevice *device, GError **error,
    const VifKernelOptions &options)
{
  VkVifKernel *k = new VkVifKernel ();
  k->device_ = (GstVulkanDevice *) gst_object_ref (device);
  k->exact_only_ = options.exact_only;
  k->tails_last_ = options.tails_last;
  k->exact_capacity_ = options.exact_capacity;
  /* On an H200, scale 0 of a 2160p frame takes 460 us with strips of 4
   * tiles, 520 us with single tiles, 457 us with 8 (and the coarse scales
   * get slower: too few workgroups). */
  k->strip_ = options.strip ? options.strip : 4;
  for (int sc = 0; sc < kVifScales; sc++) {
    const uint32_t all = options.strip_along ? options.strip_along : options.strip;
    k->strip_along_[sc] = options.strip_along_scale[sc] ? options.strip_along_scale[sc] : all;
  }
  /* On an H200, scale 0 of a 2160p 10-bit frame takes 424 us in the
   * symmetric form with wrapped full sums in both passes, against 461 us
   * without either (and 532 us with wrapped sums alone). */
  k->symmetric_ = options.symmetric >= 0 ? options.symmetric != 0 : true;
  k->wrap_ = options.wrap >= 0 ? (uint32_t) options.wrap : 3;
  if (options.along_rows > 15) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "VIF strips along the rows at scales %d: a mask of the 4 scales", options.along_rows);
    delete k;
    return nullptr;
  }
  /* Scales 0 and 1 along a row, in strips of 32 x 8 tiles: on an H200, a
   * 2160p 10-bit frame takes 646 us (levels added up) against 729 us with
   * every scale down a column (scale 0 alone: 357 against 422 us). Along a
   * row, strips of 6 or 16 such tiles take 657 and 645 us, 32 x 16 tiles
   * 700 us (strips of 8), scale 0 alone along a row 651 us, and every scale
   * (32 x 16, strips of 4) 735 us: the coarse scales get too few
   * workgroups. Along a row the default strip length depends on the
   * scale's width (strip()). */
  k->along_rows_ = options.along_rows >= 0 ? (uint32_t) options.along_rows : 3;
  /* Scale 0's tile: (tile_h + 16) x (tile_w + 16) samples, 4 x tile_h x
   * (tile_w + 16) vertical results and 3 x 64 words of pixels left to the
   * exact emulation: 11 KiB at 32 x 8, within Vulkan's
   * guaranteed 16 KiB. Larger tiles have less halo, but on an H200 a 64 x 16
   * tile (42 KiB) runs scale 0 in 790 us per 2160p frame against 588 us at
   * 32 x 8: fewer workgroups fit a multiprocessor. Along a row the samples
   * are (tile_h + 16) x max (tile_w, 16), and the decimation's vertical
   * results tile_h / 2 x (tile_w + 16) more: 10.5 KiB at 32 x 8. */
  const uint32_t shared = device->physical_device->properties.limits.maxComputeSharedMemorySize;
  auto shared_words = [] (bool along, uint32_t tw, uint32_t th) {
    const uint32_t in = along ? (th + 16) * std::max (tw, 16u) : (th + 16) * (tw + 16);
    const uint32_t dec = along ? th / 2 * (tw + 16) : 1;
    return in + 4 * th * (tw + 16) + dec + 3 * kGroupList + 11;
  };
  /* 256 invocations where the device allows (Vulkan guarantees 128). */
  const VkPhysicalDeviceLimits &limits = device->physical_device->properties.limits;
  k->threads_ = std::min ({ 256u, limits.maxComputeWorkGroupInvocations,
      limits.maxComputeWorkGroupSize[0] });
  if (options.threads) {
    if (options.threads < 32 || options.threads > k->threads_) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
          "VIF workgroup of %u invocations: the device takes 32 to %u", options.threads,
          k->threads_);
      delete k;
      return nullptr;
    }
    k->threads_ = options.threads;
  }
  k->tile_w_ = 32;
  k->tile_h_ = 8;
  if (options.tile_w && options.tile_h) {
    const bool some_down = k->along_rows_ != 15, some_along = k->along_rows_ != 0;
    if ((options.tile_w | options.tile_h) & 1
        || (some_down && shared_words (false, options.tile_w, options.tile_h) * 4 > shared)
        || (some_along && shared_words (true, options.tile_w, options.tile_h) * 4 > shared)) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
          "VIF tile %ux%u: sides must be even and fit %u bytes of shared memory",
          options.tile_w, options.tile_h, shared);
      delete k;
      return nullptr;
    }
    k->tile_w_ = options.tile_w;
    k->tile_h_ = options.tile_h;
  }
  /* Two outputs down a column in the symmetric form: on an H200, 420 us
   * for scale 0 of a 2160p 10-bit frame against 426 us with one; two along
   * a row take 453 us. */
  k->block_v_ = options.block_v ? options.block_v : 2;
  k->block_h_ = options.block_h ? options.block_h : 1;
  for (uint32_t b : { k->block_v_, k->block_h_ }) {
    if ((b != 1 && b != 2 && b != 4 && b != 8) || k->tile_h_ % k->block_v_
        || k->tile_w_ % k->block_h_) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
          "VIF blocks %ux%u: 1, 2, 4 or 8 dividing the tile %ux%u", k->block_h_, k->block_v_,
          k->tile_w_, k->tile_h_);
      delete k;
      return nullptr;
    }
  }
  k->staging_ = new VkBufferCache (device, VkMemKind::HostWrite);
  k->devcache_ = new VkBufferCache (device, VkMemKind::Device);
  /* 8-bit 1080p's pipelines now, so that a broken driver fails at start. */
  LumaLayout l8 = { LUMA_U8, 8, 0, 0 };
  for (int s = 0; s < 2 * kVifScales; s++) {
    if (!k->pipeline_for (s % kVifScales, 1920u >> (s % kVifScales), l8, s >= kVifScales, error)) {
      delete k;
      return nullptr;
    }
  }
  return k;
}

VkVifKernel::~VkVifKernel ()
{
  for (auto &k : kernels_)
    delete k.second;
  gst_clear_buffer (&table_);
  delete staging_;
  delete devcache_;
  if (device_)
    gst_object_unref (device_);
}

VkKernel *VkVifKernel::pipeline_for (int scale, uint32_t width, const LumaLayout &l, bool tail,
    GError **error)
{
  /* Coarser scales read our packed 16-bit pictures: one pipeline each. */
  const uint32_t packing = scale == 0 ? (uint32_t) l.packing : 0;
  const uint32_t shift = scale == 0 ? l.shift : 0;
  const uint32_t bpc = scale == 0 ? l.bpc : 16;
  const uint32_t n = strip (scale, width);
  const uint64_t key =
      ((((uint64_t) packing * 32 + shift) * 32 + bpc) * 4 + (uint32_t) scale) * 2 + tail
      + ((uint64_t) n << 32);
  auto it = kernels_.find (key);
  if (it != kernels_.end ())
    return it->second;
  VkKernel::Spec spec = { vmaf_vif_spv, sizeof (vmaf_vif_spv), 6, sizeof (VifPush),
    { packing, shift, (uint32_t) scale, tile_w_, tile_h_, threads_,
      exact_only_ ? 1u : 0u, bpc, block_v_, block_h_, tail ? 1u : 0u, n,
      symmetric_ ? 1u : 0u, wrap_, along (scale) ? 1u : 0u } };
  VkKernel *k = VkKernel::create (device_, spec, error);
  if (k)
    kernels_[key] = k;
  return k;
}

void VkVifKernel::fill_table (uint8_t *dst)
{
  memcpy (dst, vif_log2_table (), kVifLog2TableSize * 2);
  /* Per binade [2^E, 2^(E+1)) of sigma1_sq, what adding libvmaf's epsilon
   * adds in double precision (exact in a float: at most 18 significant
   * bits), for the shader's fast path. */
  const double eps = 65536 * 1.0e-10;
  for (int e = 0; e < 32; e++) {
    const double base = (double) (1u << e);
    const float added = e >= 17 ? (float) ((base + eps) - base) : 0.0f;
    memcpy (dst + kVifLog2TableSize * 2 + e * 4, &added, 4);
  }
}

void VkVifKernel::limit_words (double gain_limit, uint32_t out[kLimitWords])
{
  uint64_t bits;
  memcpy (&bits, &gain_limit, sizeof bits);
  const float f = (float) gain_limit;
  out[0] = (uint32_t) bits;
  out[1] = (uint32_t) (bits >> 32);
  out[2] = gain_limit == (double) (uint32_t) gain_limit ? (uint32_t) gain_limit : 0;
  memcpy (&out[3], &f, 4);
  /* libvmaf's g * g at g = limit, as its integer part and its fraction
   * times 2^64: both exact for a limit in [1, 100] (the square's last
   * place is at least 2^-52). */
  const double sq = gain_limit * gain_limit;
  const double whole = floor (sq);
  const uint64_t frac = (uint64_t) ldexp (sq - whole, 64);
  out[4] = (uint32_t) whole;
  out[5] = (uint32_t) frac;
  out[6] = (uint32_t) (frac >> 32);
}

bool VkVifKernel::ensure_table (VkExec *exec, GError **error)
{
  if (table_)
    return true;
  table_ = vk_upload_bytes (exec, staging_, devcache_, kTableBytes, fill_table, error);
  return table_ != nullptr;
}

bool VkVifKernel::record (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
    GstVulkanBufferMemory *results, uint32_t slot, uint32_t w, uint32_t h,
    const LumaLayout &l, double gain_limit, GError **error)
{
  return vk_record_alone (exec, this, error, ref, dist, results, slot, w, h, l, gain_limit);
}

bool VkVifKernel::begin (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
    GstVulkanBufferMemory *results, uint32_t slot, uint32_t w, uint32_t h,
    const LumaLayout &l, double gain_limit, GError **error)
{
  if (w < kVifMinSize || h < kVifMinSize || !(gain_limit >= 1.0)
      || !(gain_limit <= kVifDefaultGainLimit)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "VIF needs at least %ux%u samples and a gain limit in [1, 100] (got %ux%u, %g)",
        kVifMinSize, kVifMinSize, w, h, gain_limit);
    return false;
  }
  if (!ensure_table (exec, error))
    return false;
  Frame &f = frame_;
  f = {};
  f.ref = ref;
  f.dist = dist;
  f.results = results;
  f.slot = slot;
  f.width = w;
  f.height = h;
  f.layout = l;
  f.gain_limit = gain_limit;
  /* The scratch buffer: the coarser scales' pictures, one word per sample,
   * and per scale the pixels for the exact emulation: two counts, its list
   * and its strip queue (see the shader). Each part starts where any device
   * can bind it. Kept until the fence, then back to the cache. */
  uint64_t words = 0;
  for (int s = 0; s < kVifScales; s++) {
    const uint32_t sw = w >> s, sh = h >> s;
    const uint32_t strip_w = along (s) ? tile_w_ * strip (s, sw) : tile_w_;
    const uint32_t strip_h = along (s) ? tile_h_ : tile_h_ * strip (s, sw);
    f.groups_x[s] = (sw + strip_w - 1) / strip_w;
    f.groups_y[s] = (sh + strip_h - 1) / strip_h;
    f.list_cap[s] = exact_capacity_ ? exact_capacity_ : sw * sh / 64 + 256;
    f.queue_offset[s] = kExactHead + 3 * f.list_cap[s];
    f.exact_words[s] = f.queue_offset[s] + f.groups_x[s] * f.groups_y[s];
    if (s > 0) {
      f.pictures_at[s] = (uint32_t) words;
      words = vk_bind_round_words (words + (uint64_t) sw * sh);
    }
    f.exact_at[s] = (uint32_t) words;
    words = vk_bind_round_words (words + f.exact_words[s]);
  }
  GstBuffer *scratch_buf = devcache_->acquire ((gsize) words * 4, error);
  if (!scratch_buf)
    return false;
  exec->keep (GST_MINI_OBJECT_CAST (scratch_buf));
  f.scratch = vk_buffer_memory (scratch_buf);
  gst_buffer_unref (scratch_buf);

  /* The zeroed slot and counters before the first dispatch; the stages'
   * barriers order the rest (vk_record_levels). */
  exec->fill (results, (VkDeviceSize) slot * kResultWords * 4, kResultWords * 4, 0);
  exec->barrier (results, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  for (int s = 0; s < kVifScales; s++)
    exec->fill (f.scratch, (VkDeviceSize) f.exact_at[s] * 4, kExactHead * 4, 0);
  exec->barrier (f.scratch, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  return true;
}

bool VkVifKernel::record_stage (VkExec *exec, unsigned k, GError **error)
{
  /* Scale k writes scale k + 1's pictures, which the next stage reads; each
   * tail reads what its scale's main dispatch listed and only adds to the
   * results. A tail is a few long invocations (emulated double divisions),
   * recorded first beside the next scale's main dispatch, where it ends
   * within the level: on an H200 a 2160p 10-bit frame's last level (with
   * the motion SAD) took 34.9-35.1 us against 36.8-37.0 with all four
   * tails there, the frame 0.599 against 0.600-0.601 ms. */
  for (int s = 0; s < kVifScales; s++) {
    const unsigned tail_stage = tails_last_ ? (unsigned) kVifScales : (unsigned) s + 1;
    if (tail_stage == k && !dispatch (exec, s, true, error))
      return false;
  }
  return k >= (unsigned) kVifScales || dispatch (exec, (int) k, false, error);
}

void VkVifKernel::end (VkExec *exec)
{
  exec->barrier (frame_.results, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
}

bool VkVifKernel::dispatch (VkExec *exec, int s, bool tail, GError **error)
{
  const Frame &f = frame_;
  const uint32_t sw = f.width >> s, sh = f.height >> s;
  VifPush pc = {};
  if (s == 0) {
    pc.ref_offset = f.ref.offset;
    pc.dist_offset = f.dist.offset;
    pc.ref_stride = f.ref.stride;
    pc.dist_stride = f.dist.stride;
  } else {
    pc.ref_stride = sw;
  }
  pc.width = sw;
  pc.height = sh;
  limit_words (f.gain_limit, pc.limit);
  pc.list_cap = f.list_cap[s];
  pc.queue_offset = f.queue_offset[s];
  pc.tiles_x = f.groups_x[s];
  GstVulkanBufferMemory *table = vk_buffer_memory (table_);
  /* Each dispatch binds only what it touches, so that those of one stage
   * (a tail beside the next scale's main dispatch) never share bytes that
   * one of them writes. The next scale's pictures: where a dispatch writes
   * none (tails, scale 3), that binding is the dispatch's own exact part,
   * which no other dispatch of its stage binds. */
  const VkDescriptorBufferInfo pictures =
      vk_bind_words (f.scratch, f.pictures_at[s], (uint64_t) sw * sh);
  const VkDescriptorBufferInfo exact = vk_bind_words (f.scratch, f.exact_at[s], f.exact_words[s]);
  const bool writes_next = !tail && s + 1 < kVifScales;
  VkDescriptorBufferInfo bufs[6] = {
    s == 0 ? VkDescriptorBufferInfo { f.ref.mem->buffer, 0, VK_WHOLE_SIZE } : pictures,
    s == 0 ? VkDescriptorBufferInfo { f.dist.mem->buffer, 0, VK_WHOLE_SIZE } : pictures,
    writes_next ? vk_bind_words (f.scratch, f.pictures_at[s + 1], (uint64_t) (sw / 2) * (sh / 2))
                : exact,
    { table->buffer, 0, VK_WHOLE_SIZE },
    vk_bind_words (f.results, (uint64_t) f.slot * kResultWords + s * kScaleResultWords,
        kScaleResultWords),
    exact,
  };
  VkKernel *k = pipeline_for (s, sw, f.layout, tail, error);
  return k && exec->dispatch (k, bufs, 6, &pc, sizeof pc, tail ? kTailGroups : f.groups_x[s],
      tail ? 1 : f.groups_y[s], 1, error);
}

void VkVifKernel::read_accum (const uint32_t *words, VifAccum accum[kVifScales])
{
  for (int s = 0; s < kVifScales; s++) {
    uint64_t v[4];
    for (int i = 0; i < 4; i++)
      v[i] = words[s * kScaleResultWords + 2 * i]
          | ((uint64_t) words[s * kScaleResultWords + 2 * i + 1] << 32);
    accum[s] = { v[0], v[1], v[2], v[3] };
  }
}

} // namespace gpc
