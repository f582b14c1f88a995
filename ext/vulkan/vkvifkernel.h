/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * VMAF's integer VIF on the GPU (shaders/vmaf_vif.comp: per scale a main
 * dispatch, and after the four a tail dispatch each for the pixels that
 * need the exact double emulation): per frame pair, the four scales'
 * integer sums of gst/vmaf's CPU reference, bit for bit, read back as 128
 * bytes. Used by vkvmaf and by the
 * tests, so both run the same dispatches.
 */
#pragma once

#include <map>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkkernel.h"
#include "vkmotionkernel.h"
#include "vkstages.h"
#include "vmaf-motion-layout.h"
#include "vmaf-vif-ref.h"

namespace gpc {

struct VifKernelOptions {
  /* Tests: every pixel's gain through the exact double emulation instead of
   * the integer fast path. */
  bool exact_only = false;
  /* Tile of a workgroup (even sides; scale 0's shared memory must fit the
   * device), for tests and benchmark sweeps; 0 keeps the device's default. */
  uint32_t tile_w = 0, tile_h = 0;
  /* Invocations of a workgroup (32 to the device's limit); 0: the default. */
  uint32_t threads = 0;
  /* Outputs one invocation filters down a column / along a row (1, 2, 4 or
   * 8, dividing the tile's height / width), for sweeps: more reuse each
   * input's products, but hold more sums in registers (0: 2 down a column,
   * 1 along a row; on lavapipe 8 x 8 runs 5 times slower). */
  uint32_t block_v = 0, block_h = 0;
  /* Entries of a scale's list of pixels for the exact emulation (0: one
   * per 64 pixels, and 256 more); tests make it small, so that tiles whose
   * pixels do not fit take the tail's other path. */
  uint32_t exact_capacity = 0;
  /* Tiles in the strip of a workgroup (the input it loads slides down or
   * along: fewer loads, fewer workgroups), down a column and along a row;
   * 0: the default, 4 down a column; along a row `strip` if given, else
   * 8 or, on wide scales, 12 (strip() in the kernel).
   * strip_along_scale[s], where not 0, sets scale s's along a row. */
  uint32_t strip = 0, strip_along = 0;
  uint32_t strip_along_scale[kVifScales] = {};
  /* The filters' form, for sweeps and tests (-1 keeps the default, both
   * on): symmetric taps added before their multiply (one output per
   * invocation only; 0 off, 1 on), and moments summed with their wrapped
   * full terms instead of their low parts (WRAP in the shader: bit 0 the
   * vertical pass, bit 1 the horizontal; 0 to 3). */
  int symmetric = -1;
  int wrap = -1;
  /* The scales whose strips go along a row rather than down a column, bit
   * s for scale s (0 to 15; -1 keeps the default, 3: scales 0 and 1):
   * along a row the vertical results of the columns a tile shares with
   * the previous one are kept, no column is filtered vertically twice. */
  int along_rows = -1;
  /* Sweeps: all four tails in the last stage, as before they moved each
   * beside the next scale's main dispatch. */
  bool tails_last = false;
};

class VkVifKernel : public VkStaged {
 public:
  /* 32-bit words of one result slot: per scale, at kScaleResultWords
   * apart (each scale's dispatches bind only their own), num_log, den_log,
   * num_non_log, den_non_log as (low, high) pairs. */
  static constexpr uint32_t kScaleResultWords = kVkBindAlign / 4;
  static constexpr uint32_t kResultWords = kVifScales * kScaleResultWords;

  static VkVifKernel *create (GstVulkanDevice *device, GError **error,
      const VifKernelOptions &options = VifKernelOptions ());
  ~VkVifKernel ();

  /* Records, for the luma planes `ref` and `dist` (layout `layout`, both
   * ready for SHADER_READ, width and height >= kVifMinSize): zero result
   * slot `slot` of `results` (host-visible, kResultWords words per slot),
   * the four scales, and a HOST_READ barrier on `results`. gain_limit:
   * libvmaf's vif_enhn_gain_limit in [1, 100] (100 by default, 1 in the
   * neg models). No host wait. The coarser scales' pictures live in a
   * scratch buffer of the kernel's, one per submission in flight (recycled
   * when its fence has signalled); the first call also uploads the shader's
   * tables. */
  bool record (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
      GstVulkanBufferMemory *results, uint32_t slot, uint32_t width, uint32_t height,
      const LumaLayout &layout, double gain_limit, GError **error);

  /* record() in parts, to run beside other kernels (vkstages.h): begin()
   * checks the arguments and records what comes before the dispatches, the
   * stages (the four scales' main dispatches, each reading the picture the
   * one before wrote, and each scale's tail, which reads the list its main
   * dispatch wrote and only adds to the results, one stage later), end()
   * the HOST_READ barrier.
   * One frame at a time, from begin() to end(). */
  static constexpr unsigned kStages = kVifScales + 1;
  bool begin (VkExec *exec, const MotionPlane &ref, const MotionPlane &dist,
      GstVulkanBufferMemory *results, uint32_t slot, uint32_t width, uint32_t height,
      const LumaLayout &layout, double gain_limit, GError **error);
  unsigned stages () const override { return kStages; }
  bool record_stage (VkExec *exec, unsigned k, GError **error) override;
  void end (VkExec *exec);

  /* The sums of one slot (its kResultWords words, after the fence). */
  static void read_accum (const uint32_t *words, VifAccum accum[kVifScales]);

  /* The shader's table buffer (shaders/vmaf_vif_gain.glsl): kTableBytes
   * written by fill_table(). */
  static constexpr gsize kTableBytes = kVifLog2TableSize * 2 + 32 * 4;
  static void fill_table (uint8_t *dst);

  /* The gain limit as the shaders take it: double bits (low, high), the
   * limit when it is an integer (else 0), float bits, then limit * limit
   * (a double) as its integer part and its fraction * 2^64 (low, high). */
  static constexpr int kLimitWords = 7;
  static void limit_words (double gain_limit, uint32_t out[kLimitWords]);

 private:
  /* The pipeline of a scale `width` samples wide (its strip length). */
  VkKernel *pipeline_for (int scale, uint32_t width, const LumaLayout &layout, bool tail,
      GError **error);
  bool ensure_table (VkExec *exec, GError **error);
  bool dispatch (VkExec *exec, int scale, bool tail, GError **error);

  /* The frame between begin() and end(): its arguments, its scratch buffer
   * (kept by the submission) and where each scale's parts lie in it. */
  struct Frame {
    MotionPlane ref, dist;
    GstVulkanBufferMemory *results, *scratch;
    uint32_t slot, width, height;
    LumaLayout layout;
    double gain_limit;
    /* Words of scratch, each part at a multiple of kVkBindAlign: scale s's
     * pictures (s >= 1) and its part for the exact emulation. */
    uint32_t pictures_at[kVifScales], exact_at[kVifScales], exact_words[kVifScales];
    uint32_t groups_x[kVifScales], groups_y[kVifScales], list_cap[kVifScales];
    uint32_t queue_offset[kVifScales]; /* words, in the exact part */
  };
  Frame frame_ = {};

  GstVulkanDevice *device_ = nullptr;
  bool exact_only_ = false;
  bool tails_last_ = false;
  uint32_t threads_ = 256;
  uint32_t tile_w_ = 32;
  uint32_t tile_h_ = 8;
  uint32_t block_v_ = 2, block_h_ = 1;
  uint32_t exact_capacity_ = 0;
  uint32_t strip_ = 4;
  uint32_t strip_along_[kVifScales] = {}; /* 0: by the scale's width */
  bool symmetric_ = true;
  uint32_t wrap_ = 3;
  uint32_t along_rows_ = 3; /* bit mask of scales */
  bool along (int scale) const { return (along_rows_ >> scale) & 1; }
  /* Tiles in a strip of scale `scale`, `width` samples wide. Along a row,
   * longer strips reload fewer halos but make fewer workgroups. On an
   * H200, the levels of a 10-bit frame added up to (strips of 12 against
   * 8, same run) 618-619 against 625 us at 2160p, but 232.5 against 218
   * us at 1080p (scale 1 of 2160p, 1920 wide, in strips of 2 to 7: no
   * gain): 12 where a row holds at least 8 such strips. */
  uint32_t strip (int scale, uint32_t width) const
  {
    if (!along (scale))
      return strip_;
    if (strip_along_[scale])
      return strip_along_[scale];
    return width >= 8 * 12 * tile_w_ ? 12 : 8;
  }
  VkBufferCache *staging_ = nullptr;
  VkBufferCache *devcache_ = nullptr;
  GstBuffer *table_ = nullptr;
  std::map<uint64_t, VkKernel *> kernels_;
};

} // namespace gpc
