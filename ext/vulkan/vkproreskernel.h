/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The ProRes slice decoding kernel (shaders/prores_decode.comp) with its
 * input layout: used by vkproresdec and by its benchmark, so both run the
 * same dispatch.
 *
 * Input (one host upload per frame): GpuFrameParams at byte 0, GpuSliceDesc[]
 * at byte 192, then the frame's bytes, then 16 zero bytes. Output: up to four
 * planes (Y, Cb, Cr, A) of 16-bit samples, two per uint32, each anywhere in a
 * storage buffer; the kernel crops to rows x row_words.
 */
#pragma once

#include <map>
#include <vector>

#include "compute/gpcvkexec.h"
#include "compute/gpcvkkernel.h"
#include "gpc-parallel-copy.h"
#include "prores-gpu-layout.h"

namespace gpc {

struct ProResPlanes {
  GstVulkanBufferMemory *mem[4]; /* Y, Cb, Cr, A; A may be null without alpha */
  uint32_t offset[4];            /* first word of the plane (bytes / 4) */
  uint32_t stride[4];            /* words per row */
  uint32_t row_words[4];         /* words of a row the kernel may write */
  uint32_t rows;                 /* rows the kernel may write */
};

class VkProResKernel {
 public:
  static VkProResKernel *create (GstVulkanDevice *device, GError **error);
  ~VkProResKernel ();

  /* Bytes of the upload for a frame of `frame_size` bytes and `n` slices. */
  static size_t upload_size (size_t n_slices, size_t frame_size);
  /* Byte offset of the frame data in the upload. */
  static size_t data_offset (size_t n_slices);
  /* Writes the upload (upload_size bytes at dst); the frame's bytes through
   * `copier` when given. */
  static void fill_upload (uint8_t *dst, const prores::GpuFrameParams &fp,
      const std::vector<prores::GpuSliceDesc> &slices, const uint8_t *frame, size_t frame_size,
      ParallelCopy *copier = nullptr);

  /* Records: zero the status slot (from the host through `status_host`,
   * the mapped status buffer, when given; else on the GPU), make the input
   * readable and the planes writable (barriers only where earlier work must
   * be waited for), decode every slice, make the status visible to the
   * host (unless !host_barrier: the caller does it, once for a batch). `status` holds 4 words per slot: failed slices, first failed + 1,
   * its status. */
  bool record (VkExec *exec, GstVulkanBufferMemory *input,
      const prores::GpuFrameParams &fp, size_t frame_size, const ProResPlanes &out,
      GstVulkanBufferMemory *status, uint32_t slot, uint32_t *status_host, GError **error,
      bool host_barrier = true);

  /* Only the dispatch (barriers are the caller's). */
  bool dispatch (VkExec *exec, GstVulkanBufferMemory *input,
      const prores::GpuFrameParams &fp, size_t frame_size, const ProResPlanes &out,
      GstVulkanBufferMemory *status, uint32_t slot, GError **error);

  /* Records the AYUV64 packing of four 12-bit planes (in `planes`, each
   * plane's mem the same buffer) into `out` (offset and stride in words);
   * barriers included. */
  bool record_pack_ayuv64 (VkExec *exec, const ProResPlanes &planes, GstVulkanBufferMemory *out,
      uint32_t out_offset, uint32_t out_stride, uint32_t width, uint32_t height, GError **error);

 private:
  VkKernel *pipeline_for (uint32_t depth, bool x86, bool c444, GError **error);

  GstVulkanDevice *device_ = nullptr;
  uint32_t max_groups_x_ = 65535;
  /* Defaults measured on an H100 (docs/performance.md): 128 invocations with
   * one subgroup per entropy decoder beat 64 / 256 and the packed layout at
   * 1080p and 2160p HQ. 128 is within every Vulkan device's limits. */
  uint32_t wg_ = 128;    /* invocations per slice (workgroup) */
  uint32_t spread_ = 1;  /* entropy decoders: 0 lanes 0-2 of one subgroup, 1 one subgroup each */
  std::map<uint32_t, VkKernel *> kernels_;
  VkKernel *pack_ = nullptr;
};

} // namespace gpc
