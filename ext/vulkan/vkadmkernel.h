/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * VMAF's integer ADM on the GPU (shaders/vmaf_adm_*.comp): per frame pair,
 * the 64-bit integer sums of gpc::AdmAccum, bit-exact with the CPU reference
 * gst/vmaf/vmaf-adm-ref.cpp; gpc::adm_finish() turns them into libvmaf's
 * values on the host. Scale 0's wavelet step of both pictures; per scale
 * its masked sums (decoupling, CSF and masking fused in shared-memory
 * tiles, per-row partial sums) beside the next scale's wavelet step; per
 * scale one that finishes the rows into the result slot (64-bit atomics
 * from 32-bit ones), except scale 3, whose masked sums do it.
 */
#pragma once

#include <map>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkkernel.h"
#include "vkmotionkernel.h"
#include "vkstages.h"
#include "vmaf-adm-ref.h"
#include "vmaf-motion-layout.h"

namespace gpc {

class VkAdmKernel : public VkStaged {
 public:
  /* uint32 words of one result slot: per scale, at kScaleResultWords apart
   * (each scale's dispatches bind only their own), num[3] then den[3], each
   * a (low, high) pair. */
  static constexpr uint32_t kScaleResultWords = kVkBindAlign / 4;
  static constexpr uint32_t kResultWords = 4 * kScaleResultWords;

  /* NULL with error for options the GPU path does not take: those libvmaf
   * refuses, and enhancement-gain limits that are not integers (libvmaf's
   * models use 100 and 1). */
  static VkAdmKernel *create (GstVulkanDevice *device, const AdmParams &params,
      GError **error);
  ~VkAdmKernel ();

  const AdmParams &params () const { return params_; }

  /* Records the whole feature for one frame pair of width x height luma
   * (both planes in `layout`): fills result slot `slot` of `results`
   * (kResultWords words each) and makes it visible to the host. The
   * planes must already be readable by compute shaders. The kernel keeps
   * per-size scratch memory (about 7 bytes per input sample), made on the
   * first frame and again when the size changes; frames of one kernel must
   * be recorded on one queue. */
  bool record (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
      GstVulkanBufferMemory *results, uint32_t slot, uint32_t width, uint32_t height,
      const LumaLayout &layout, GError **error);

  /* record() in parts, to run beside other kernels (vkstages.h): begin()
   * checks the arguments and readies the scratch memory and the result
   * slot, the stages (scale 0's wavelet step; per scale its masked sums with
   * the next scale's step, and the previous scale's row sums into the slot),
   * end() the HOST_READ barrier. One frame at a time, from begin() to
   * end(). */
  static constexpr unsigned kStages = 5;
  bool begin (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
      GstVulkanBufferMemory *results, uint32_t slot, uint32_t width, uint32_t height,
      const LumaLayout &layout, GError **error);
  unsigned stages () const override { return kStages; }
  bool record_stage (VkExec *exec, unsigned k, GError **error) override;
  void end (VkExec *exec);

  /* For tests of scale 0's wavelet step: after a frame's stages, records
   * the copy of that step's bands a, h, v, d of the reference, then of the
   * distorted picture (16-bit pairs, rows of (w + 1) / 2 words for bands w
   * samples wide), scale0_bands_bytes () bytes, to the start of `dst`, and
   * makes it visible to the host. */
  void copy_scale0_bands (VkExec *exec, GstVulkanBufferMemory *dst);
  size_t scale0_bands_bytes () const;

  /* The sums of one slot, from its mapped words. */
  static void read_accum (const uint32_t *slot_words, AdmAccum *accum);

 private:
  VkKernel *dwt_for (const LumaLayout &layout, GError **error);
  bool dispatch_rows (VkExec *exec, int scale, GError **error);
  bool ensure_scratch (uint32_t width, uint32_t height, GError **error);

  GstVulkanDevice *device_ = nullptr;
  AdmParams params_;
  AdmConsts consts_ {};
  std::map<uint32_t, VkKernel *> dwt_;
  VkKernel *masked_[4] = {}; /* per scale */
  VkKernel *rows_ = nullptr;
  GstMemory *scratch_ = nullptr;
  uint32_t scratch_w_ = 0, scratch_h_ = 0;
  /* Per scale: word offsets in scratch of bands a, h, v, d of both
   * pictures (the reference's, then the distorted's) and of the row partial
   * sums, their sizes, and tiles per region row. Each part starts at a
   * multiple of kVkBindAlign, the scales' bands one after the other. */
  uint32_t bands_[4] = {}, band_words_[4] = {}, partial_[4] = {}, partial_words_[4] = {};
  uint32_t tiles_x_[4] = {};
  /* Word offset in scratch (right after scale 3's partial sums) and number
   * of scale 3's counts of finished tiles (vmaf_adm_masked.comp), one per
   * row of tiles. */
  uint32_t counters_ = 0, n_counters_ = 0;
  AdmScaleGeom geom_[4] = {};

  /* The frame between begin() and end(). */
  struct Frame {
    MotionPlane ref, dist;
    GstVulkanBufferMemory *results;
    uint32_t slot, width, height;
    LumaLayout layout;
    VkKernel *dwt;
  };
  Frame frame_ = {};
};

} // namespace gpc
