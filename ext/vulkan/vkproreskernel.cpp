/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproreskernel.h"

#include "compute/gpcvkcompat.h"

#include <string.h>

#include <algorithm>

#include "prores_decode.spv.h"
#include "prores_idct.spv.h"
#include "prores_vld.spv.h"
#include "prores_pack_ayuv64.spv.h"

namespace gpc {

using prores::GpuFrameParams;
using prores::GpuSliceDesc;

static_assert (sizeof (GpuFrameParams) <= 192, "GpuFrameParams must fit before the slices");
static_assert (sizeof (GpuSliceDesc) == 16, "GpuSliceDesc is 4 words");

namespace {

/* Push constants, in the shaders' order (shaders/prores_io.glsl). */
struct ProResPush {
  uint32_t data_word, data_bytes, num_slices, groups_x, status_slot, rows;
  uint32_t plane_off[4], plane_stride[4], plane_words[4];
  uint32_t stat_word, vld_comps; /* split path only */
};

} // namespace

struct VkProResKernel::Deferred {
  VkKernel *kernel;
  VkDescriptorBufferInfo bufs[7];
  ProResPush pc;
  uint32_t groups_x, groups_y;
  GstVulkanBufferMemory *scratch; /* kept alive by the exec */
};

/* Split path scratch (shaders/prores_scratch.glsl, MB_WORDS there): words
 * per macroblock of the frame, then 4 status words per slice. */
static uint32_t scratch_mb_words (const GpuFrameParams &fp)
{
  return fp.chroma_444 ? 384 : 256;
}

static size_t scratch_coef_words (const GpuFrameParams &fp)
{
  return (size_t) fp.mb_width * fp.picture_mb_height * (fp.interlaced ? 2 : 1) *
      scratch_mb_words (fp);
}

static const size_t kSliceDescOffset = 192; /* SLICE_DESC_WORD * 4 in the shader */
static const size_t kTailPadding = 16;      /* zeros the bit reader may peek into */

size_t VkProResKernel::data_offset (size_t n_slices)
{
  return kSliceDescOffset + n_slices * sizeof (GpuSliceDesc);
}

size_t VkProResKernel::upload_size (size_t n_slices, size_t frame_size)
{
  return data_offset (n_slices) + ((frame_size + 3) & ~(size_t) 3) + kTailPadding;
}

void VkProResKernel::fill_upload (uint8_t *dst, const GpuFrameParams &fp,
    const std::vector<GpuSliceDesc> &slices, const uint8_t *frame, size_t frame_size,
    ParallelCopy *copier)
{
  memset (dst, 0, kSliceDescOffset);
  memcpy (dst, &fp, sizeof fp);
  memcpy (dst + kSliceDescOffset, slices.data (), slices.size () * sizeof (GpuSliceDesc));
  uint8_t *d = dst + data_offset (slices.size ());
  if (copier)
    copier->copy (d, frame, frame_size);
  else
    memcpy (d, frame, frame_size);
  memset (d + frame_size, 0, upload_size (slices.size (), frame_size) -
      data_offset (slices.size ()) - frame_size);
}

VkProResKernel *VkProResKernel::create (GstVulkanDevice *device, const Options &o,
    GError **error)
{
  const VkPhysicalDeviceLimits &lim = device->physical_device->properties.limits;
  auto fits = [&lim] (uint32_t wg) {
    return wg <= lim.maxComputeWorkGroupSize[0] && wg <= lim.maxComputeWorkGroupInvocations;
  };
  const bool pow2 = o.wg == 64 || o.wg == 128 || o.wg == 256;
  const bool idct_pow2 = o.idct_wg == 64 || o.idct_wg == 128 || o.idct_wg == 256;
  const bool vld_ok = o.vld_wg >= 32 && o.vld_wg <= 256 && o.vld_wg % 32 == 0;
  if (!pow2 || !fits (o.wg) || o.spread > 1 || (o.spread && o.wg < 128) || !vld_ok ||
      !fits (o.vld_wg) || !idct_pow2 || !fits (o.idct_wg)) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "ProRes kernel layout not supported here: wg %u, spread %u, vld_wg %u, idct_wg %u",
        o.wg, o.spread, o.vld_wg, o.idct_wg);
    return nullptr;
  }
  VkProResKernel *k = new VkProResKernel ();
  k->device_ = (GstVulkanDevice *) gst_object_ref (device);
  k->max_groups_x_ = std::min<uint32_t> (65535, lim.maxComputeWorkGroupCount[0]);
  k->path_ = o.path;
  k->wg_ = o.wg;
  k->spread_ = o.spread;
  k->vld_wg_ = o.vld_wg;
  k->idct_wg_ = o.idct_wg;
  k->scratch_cache_ = new VkBufferCache (device, VkMemKind::Device);
  /* The 10-bit pipelines now, so that a device that cannot run them fails at start. */
  const bool split = k->path_ == Path::Split;
  if (!k->pipeline_for (split ? kVld : kFused, 10, true, false, error) ||
      (split && !k->pipeline_for (kIdct, 10, true, false, error))) {
    delete k;
    return nullptr;
  }
  return k;
}

VkProResKernel::~VkProResKernel ()
{
  for (auto &it : kernels_)
    delete it.second;
  delete pack_;
  delete scratch_cache_;
  if (device_)
    gst_object_unref (device_);
}

bool VkProResKernel::parse_path (const char *s, Path *p)
{
  if (!g_strcmp0 (s, "fused"))
    *p = Path::Fused;
  else if (!g_strcmp0 (s, "split"))
    *p = Path::Split;
  else
    return false;
  return true;
}

VkKernel *VkProResKernel::pipeline_for (Stage stage, uint32_t depth, bool x86, bool c444,
    GError **error)
{
  const uint32_t d12 = depth == 12, fx86 = x86 && depth == 10, f444 = c444;
  const uint32_t key = stage * 8 + f444 * 4 + d12 * 2 + fx86;
  auto it = kernels_.find (key);
  if (it != kernels_.end ())
    return it->second;
  /* The three shaders share the constant ids (each uses those it needs). */
  VkKernel::Spec spec = { prores_decode_spv, sizeof (prores_decode_spv), 6,
    sizeof (ProResPush), { d12, fx86, wg_, spread_, f444 } };
  if (stage == kVld) {
    spec.spirv = prores_vld_spv;
    spec.spirv_size = sizeof (prores_vld_spv);
    spec.n_storage_buffers = 7;
    spec.spec_constants = { d12, fx86, vld_wg_, 0, f444 };
  } else if (stage == kIdct) {
    spec.spirv = prores_idct_spv;
    spec.spirv_size = sizeof (prores_idct_spv);
    spec.n_storage_buffers = 7;
    spec.spec_constants = { d12, fx86, idct_wg_, 0, f444 };
  }
  VkKernel *k = VkKernel::create (device_, spec, error);
  if (k)
    kernels_[key] = k;
  return k;
}

bool VkProResKernel::dispatch (VkExec *exec, GstVulkanBufferMemory *input,
    const GpuFrameParams &fp, size_t frame_size, const ProResPlanes &out,
    GstVulkanBufferMemory *status, uint32_t slot, GError **error)
{
  ProResPush pc = {};
  pc.data_word = (uint32_t) (data_offset (fp.num_slices) / 4);
  pc.data_bytes = (uint32_t) frame_size;
  pc.num_slices = fp.num_slices;
  pc.groups_x = std::max<uint32_t> (1, std::min (fp.num_slices, max_groups_x_));
  pc.status_slot = slot;
  pc.rows = out.rows;
  for (int p = 0; p < 4; p++) {
    pc.plane_off[p] = out.offset[p];
    pc.plane_stride[p] = out.stride[p];
    pc.plane_words[p] = out.mem[p] ? out.row_words[p] : 0;
  }
  VkDescriptorBufferInfo bufs[7] = {
    { input->buffer, 0, VK_WHOLE_SIZE },
    { out.mem[0]->buffer, 0, VK_WHOLE_SIZE },
    { out.mem[1]->buffer, 0, VK_WHOLE_SIZE },
    { out.mem[2]->buffer, 0, VK_WHOLE_SIZE },
    /* Without alpha the binding still needs a buffer: Y, never written. */
    { (out.mem[3] ? out.mem[3] : out.mem[0])->buffer, 0, VK_WHOLE_SIZE },
    { status->buffer, 0, VK_WHOLE_SIZE },
    { VK_NULL_HANDLE, 0, VK_WHOLE_SIZE }, /* split path: the scratch */
  };
  if (path_ == Path::Split)
    return dispatch_split (exec, bufs, &pc, fp, error);
  VkKernel *k = pipeline_for (kFused, fp.bit_depth, fp.idct_x86 != 0, fp.chroma_444 != 0, error);
  if (!k)
    return false;
  const uint32_t gy = (fp.num_slices + pc.groups_x - 1) / pc.groups_x;
  return exec->dispatch (k, bufs, 6, &pc, sizeof pc, pc.groups_x, std::max<uint32_t> (gy, 1), 1,
      error);
}

/* Pass 1 writes every slice's coefficients and statuses to a scratch
 * buffer of its own (recycled once the GPU is done with it, so that
 * frames recorded together do not wait for each other), pass 2 reads them
 * after a compute-to-compute barrier on that buffer. */
bool VkProResKernel::dispatch_split (VkExec *exec, const VkDescriptorBufferInfo *bufs_in,
    const void *push, const GpuFrameParams &fp, GError **error)
{
  ProResPush pc = *(const ProResPush *) push;
  const bool x86 = fp.idct_x86 != 0, c444 = fp.chroma_444 != 0;
  VkKernel *vld = pipeline_for (kVld, fp.bit_depth, x86, c444, error);
  VkKernel *idct = vld ? pipeline_for (kIdct, fp.bit_depth, x86, c444, error) : nullptr;
  if (!idct)
    return false;
  const size_t coef_words = scratch_coef_words (fp);
  const size_t bytes = (coef_words + 4 * (size_t) std::max<uint32_t> (fp.num_slices, 1)) * 4;
  if (coef_words > G_MAXUINT32 / 2) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "ProRes frame too large for the split path");
    return false;
  }
  GstBuffer *scratch = scratch_cache_->acquire (bytes, error);
  if (!scratch)
    return false;
  GstVulkanBufferMemory *smem = vk_buffer_memory (scratch);
  /* A buffer the cache hands out is free (its last users' fences have
   * signalled): no barrier before pass 1's writes. */
  barrier_set (&smem->barrier.parent, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_WRITE_BIT, exec->queue ());
  exec->keep (GST_MINI_OBJECT_CAST (scratch));
  gst_buffer_unref (scratch);

  VkDescriptorBufferInfo bufs[7];
  memcpy (bufs, bufs_in, sizeof bufs);
  bufs[6] = { smem->buffer, 0, VK_WHOLE_SIZE };
  pc.stat_word = (uint32_t) coef_words;
  pc.vld_comps = fp.alpha_bits ? 4 : 3;

  /* Pass 1: 32 slices' same component per 32 invocations. */
  const uint64_t inv = ((uint64_t) fp.num_slices + 31) / 32 * 32 * pc.vld_comps;
  const uint32_t groups = (uint32_t) std::max<uint64_t> (1, (inv + vld_wg_ - 1) / vld_wg_);
  const uint32_t groups_x = pc.groups_x;
  pc.groups_x = std::min (groups, max_groups_x_);
  if (!exec->dispatch (vld, bufs, 7, &pc, sizeof pc, pc.groups_x,
          (groups + pc.groups_x - 1) / pc.groups_x, 1, error))
    return false;

  /* Pass 2: a workgroup per slice, as the fused shader. */
  pc.groups_x = groups_x;
  const uint32_t gy = std::max<uint32_t> ((pc.num_slices + groups_x - 1) / groups_x, 1);
  if (batching_) {
    Deferred d = { idct, {}, pc, groups_x, gy, smem };
    memcpy (d.bufs, bufs, sizeof bufs);
    deferred_.push_back (d);
    return true;
  }
  exec->barrier (smem, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  return exec->dispatch (idct, bufs, 7, &pc, sizeof pc, groups_x, gy, 1, error);
}

bool VkProResKernel::end_batch (VkExec *exec, GError **error)
{
  batching_ = false;
  if (deferred_.empty ())
    return true;
  /* One barrier for every scratch buffer of the batch. */
  exec->global_barrier (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  bool ok = true;
  for (Deferred &d : deferred_) {
    GstVulkanBarrierMemoryInfo &b = d.scratch->barrier.parent;
    b.pipeline_stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    b.access_flags = VK_ACCESS_SHADER_READ_BIT;
    ok = ok && exec->dispatch (d.kernel, d.bufs, 7, &d.pc, sizeof d.pc, d.groups_x, d.groups_y, 1,
        error);
  }
  deferred_.clear ();
  return ok;
}

/* Makes `m` ready for (stage, access): a barrier only where an earlier
 * access must be waited for. A state of 0 means nothing pending (fresh, or
 * recycled after its users' fences: see gstvkproresdec.cpp), and reads
 * after reads in the same stage need none either. Skipping empty barriers
 * matters on drivers that drain the queue at every barrier: consecutive
 * frames can then overlap on the GPU. */
static void
prepare (VkExec *exec, GstVulkanBufferMemory *m, VkPipelineStageFlags stage, VkAccessFlags access)
{
  const VkAccessFlags writes = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT |
      VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  GstVulkanBarrierMemoryInfo &b = m->barrier.parent;
  const bool nothing_pending = b.pipeline_stages == 0;
  const bool read_after_read = b.pipeline_stages == stage && !(b.access_flags & writes) &&
      !(access & writes);
  if (nothing_pending || read_after_read) {
    barrier_set (&b, stage, access, exec->queue ());
    return;
  }
  exec->barrier (m, stage, access);
}

bool VkProResKernel::record (VkExec *exec, GstVulkanBufferMemory *input,
    const GpuFrameParams &fp, size_t frame_size, const ProResPlanes &out,
    GstVulkanBufferMemory *status, uint32_t slot, uint32_t *status_host, GError **error,
    bool host_barrier)
{
  if (status_host) {
    /* Host writes before the submission are visible to it: no transfer,
     * no barrier. The slot's previous frame has completed. */
    memset (status_host + 4 * slot, 0, 16);
    barrier_set (&status->barrier.parent, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, exec->queue ());
  } else {
    exec->fill (status, (VkDeviceSize) slot * 16, 16, 0);
    exec->barrier (status, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  }
  prepare (exec, input, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  for (int p = 0; p < 4; p++) {
    if (!out.mem[p])
      continue;
    bool seen = false;
    for (int q = 0; q < p; q++)
      seen |= out.mem[q] == out.mem[p];
    if (!seen)
      prepare (exec, out.mem[p], VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
  }
  if (!dispatch (exec, input, fp, frame_size, out, status, slot, error))
    return false;
  if (host_barrier)
    exec->barrier (status, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  return true;
}

namespace {

struct PackPush {
  uint32_t plane_off[4], plane_stride[4];
  uint32_t out_off, out_stride, width, height;
};

} // namespace

bool VkProResKernel::record_pack_ayuv64 (VkExec *exec, const ProResPlanes &planes,
    GstVulkanBufferMemory *out, uint32_t out_offset, uint32_t out_stride, uint32_t width,
    uint32_t height, GError **error)
{
  if (!pack_) {
    VkKernel::Spec spec = { prores_pack_ayuv64_spv, sizeof (prores_pack_ayuv64_spv), 2,
      sizeof (PackPush), {} };
    pack_ = VkKernel::create (device_, spec, error);
    if (!pack_)
      return false;
  }
  PackPush pc = {};
  for (int p = 0; p < 4; p++) {
    pc.plane_off[p] = planes.offset[p];
    pc.plane_stride[p] = planes.stride[p];
  }
  pc.out_off = out_offset;
  pc.out_stride = out_stride;
  pc.width = width;
  pc.height = height;
  exec->barrier (planes.mem[0], VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  exec->barrier (out, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
  VkDescriptorBufferInfo bufs[2] = {
    { planes.mem[0]->buffer, 0, VK_WHOLE_SIZE },
    { out->buffer, 0, VK_WHOLE_SIZE },
  };
  return exec->dispatch (pack_, bufs, 2, &pc, sizeof pc, (width + 63) / 64, (height + 3) / 4, 1,
      error);
}

} // namespace gpc
