/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The ProRes slice decoding kernel with its input layout: used by
 * vkproresdec and by its benchmark, so both run the same dispatch. Two
 * paths, bit-exact with each other (docs/prores-gpu.md):
 *  - split (the element's): shaders/prores_vld.comp (one invocation per
 *    slice component, coefficients to a scratch buffer) then
 *    shaders/prores_idct.comp (one workgroup per slice), a buffer barrier
 *    between, same command buffer;
 *  - fused: shaders/prores_decode.comp, one workgroup per slice decodes,
 *    transforms and stores it.
 * The element runs the defaults of Options; the benchmark and the kernel
 * test choose others.
 *
 * Input (one host upload per frame): GpuFrameParams at byte 0, GpuSliceDesc[]
 * at byte 192, then the frame's bytes, then 16 zero bytes. Output: up to four
 * planes (Y, Cb, Cr, A) of 16-bit samples, two per uint32, each anywhere in a
 * storage buffer; the kernel crops to rows x row_words.
 */
#pragma once

#include <map>
#include <vector>

#include "compute/gpcvkbuffer.h"
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
  enum class Path { Fused, Split };
  /* The path and workgroup layouts. The defaults are the fastest measured
   * on the H100 (docs/performance.md): the split path with 128-invocation
   * VLD and 64-invocation IDCT workgroups (2160p HQ kernel 1213 us against
   * 2377 us fused); for the fused path, 128 invocations a slice with one
   * subgroup per entropy decoder beat 64 / 256 and the packed layout. */
  struct Options {
    Path path = Path::Split;
    uint32_t wg = 128;      /* fused: invocations per slice, 64, 128 or 256 */
    uint32_t spread = 1;    /* fused: entropy decoders on lanes 0-2 (0) or one subgroup each
                             * (1, needs wg >= 128) */
    uint32_t vld_wg = 128;  /* split pass 1: a multiple of 32 up to 256 */
    uint32_t idct_wg = 64;  /* split pass 2: 64, 128 or 256 */
  };
  /* Fails (error set) for options out of range or beyond the device. */
  static VkProResKernel *create (GstVulkanDevice *device, const Options &options, GError **error);
  static VkProResKernel *create (GstVulkanDevice *device, GError **error) {
    return create (device, Options (), error);
  }
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

  Path path () const { return path_; }
  void set_path (Path p) { path_ = p; }
  /* "fused" / "split" to a Path; false for anything else. */
  static bool parse_path (const char *s, Path *p);

  /* Batches (split path): between begin_batch() and end_batch(),
   * dispatch() and record() record pass 1 only and keep pass 2, which
   * end_batch() records after one barrier. A barrier waits for all the
   * compute work recorded before it, so frames whose passes alternate run
   * one after the other; this way the passes 1 of a batch (serial entropy
   * decoding, latency-bound) run together. Frames of a batch must not need
   * their decoded planes before end_batch() (no AYUV64 packing). The
   * fused path records everything at once either way. */
  void begin_batch () { batching_ = true; }
  bool end_batch (VkExec *exec, GError **error);

  /* Drops the split path's free scratch buffers (after a size change). */
  void trim () { scratch_cache_->trim (); }

  /* Only the dispatch (barriers are the caller's, but for the split
   * path's own scratch buffer, taken from the kernel's cache and kept by
   * `exec` until the GPU is done). */
  bool dispatch (VkExec *exec, GstVulkanBufferMemory *input,
      const prores::GpuFrameParams &fp, size_t frame_size, const ProResPlanes &out,
      GstVulkanBufferMemory *status, uint32_t slot, GError **error);

  /* Records the AYUV64 packing of four 12-bit planes (in `planes`, each
   * plane's mem the same buffer) into `out` (offset and stride in words);
   * barriers included. */
  bool record_pack_ayuv64 (VkExec *exec, const ProResPlanes &planes, GstVulkanBufferMemory *out,
      uint32_t out_offset, uint32_t out_stride, uint32_t width, uint32_t height, GError **error);

 private:
  /* Which shader: the fused one, or a pass of the split path. */
  enum Stage { kFused = 0, kVld = 1, kIdct = 2 };
  VkKernel *pipeline_for (Stage stage, uint32_t depth, bool x86, bool c444, GError **error);
  bool dispatch_split (VkExec *exec, const VkDescriptorBufferInfo *bufs, const void *push,
      const prores::GpuFrameParams &fp, GError **error);

  GstVulkanDevice *device_ = nullptr;
  uint32_t max_groups_x_ = 65535;
  uint32_t wg_ = 128;    /* see Options */
  uint32_t spread_ = 1;
  Path path_ = Path::Split;
  uint32_t vld_wg_ = 128;
  uint32_t idct_wg_ = 64;
  VkBufferCache *scratch_cache_ = nullptr; /* split path coefficients */
  struct Deferred; /* a pass 2 kept for end_batch() */
  bool batching_ = false;
  std::vector<Deferred> deferred_;
  std::map<uint32_t, VkKernel *> kernels_;
  VkKernel *pack_ = nullptr;
};

} // namespace gpc
