/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The VVC ALF kernel (shaders/vvc_alf.comp) with its parameters: used by
 * vkvvcalf, its tests and the benchmark, so all run the same dispatch.
 */
#pragma once

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkkernel.h"
#include "vvcalf-params.h"

#include <string>
#include <vector>

namespace gpc {

/* Techniques of the kernel, chosen per pipeline through specialization
 * constants (docs/vvcalf-gpu.md, "Kernel variants"). Every combination is
 * bit-exact; they differ only in speed. */
struct AlfOptions {
  bool tables = false; /* transposition / activity / direction tables packed in integers, not const arrays */
  bool coef_buffer = false; /* luma coefficients read from the parameter buffer, not copied to shared memory */
  bool hoist = false; /* uniform-window test hoisted out of the taps: straight shared-memory reads */
  bool split = false; /* luma and chroma tiles in two dispatches of two specialised pipelines */
  bool consttap = false; /* with hoist: rows off the line-buffer boundary use literal tap distances */
  bool rows2 = false; /* 2 luma rows per invocation (32x32 luma tiles) instead of 1 (32x16) */
  bool pack16 = false; /* loaded samples packed two per 32-bit word of shared memory */
  bool wordload = false; /* areas inside their window copied as whole words, not sample by sample */
  bool pretrans = false; /* luma coefficients pretransposed by the CPU, coefficient and clip in one word */

  /* The fastest known combination: what the element uses by default. */
  static AlfOptions best ();
  /* Parses a variant: "default", "baseline" (every technique off: the
   * kernel before the variants existed), or technique names joined by '+'
   * on top of the baseline ("tables+hoist"), or "default" followed by
   * "+name" / "-name" to add or remove one ("default-split"). Names:
   * tables, coefbuf, hoist, split, consttap, rows2, pack16, wordload, pretrans. */
  static bool parse (const char *variant, AlfOptions *out, std::string &error);
  /* The canonical '+'-joined name ("baseline" when none is on). */
  std::string name () const;
  /* One line saying what differs from the baseline. */
  std::string describe () const;
};

/* One plane in a storage buffer. */
struct AlfPlane {
  GstVulkanBufferMemory *mem;
  uint32_t offset; /* bytes; for outputs a multiple of 4 */
  uint32_t stride; /* bytes; for outputs a multiple of 4 */
};

class VkAlfKernel {
 public:
  /* AlfOptions::best(), the element's variant; benchmarks pick others
   * through the second form. */
  static VkAlfKernel *create (GstVulkanDevice *device, GError **error);
  static VkAlfKernel *create (GstVulkanDevice *device, const AlfOptions &options, GError **error);
  ~VkAlfKernel ()
  {
    delete kernel_;
    delete chroma_kernel_;
  }
  const AlfOptions &options () const { return options_; }

  /* The variants a benchmark sweeps ("all"): the baseline, each technique
   * alone on it, the default, the default without each of its techniques /
   * with each other one, every technique at once, and every technique but
   * coefbuf. */
  static std::vector<std::string> sweep_variants ();

  /* Byte offset of the CTB array in a parameter buffer (the picture block
   * comes first, padded to any storage-buffer offset alignment). */
  static constexpr uint32_t kCtbOffset = 178176;
  static gsize params_size (const VvcAlfParams &p)
  {
    return kCtbOffset + p.ctbs.size () * sizeof (VvcAlfCtbParams);
  }
  /* Writes `p` laid out for the shader into mapped memory of
   * params_size() bytes. In this copy reserved[0] and reserved[1..2] of the
   * picture block are bit masks of the luma sets / chroma filters whose
   * clip values are all 2^B (clipping is then the identity for valid
   * samples, and the shader skips it), and the block ends with the
   * pretransposed luma table (luma_tap in the shader) of the sets that
   * the CTBs use. */
  static void pack_params (const VvcAlfParams &p, uint8_t *dst);

  /* Records the upload of `p` into a device-local buffer taken from
   * `device_cache` (through a staging buffer of `staging_cache`) and the
   * barrier that makes it readable by the kernel. Returns the buffer (a new
   * reference; the exec keeps what it needs) or NULL with `error` set. */
  static GstBuffer *upload_params (VkExec *exec, const VvcAlfParams &p,
      VkBufferCache *staging_cache, VkBufferCache *device_cache, GError **error);

  /* Only the dispatch: `in` and `params` must be readable and `out`
   * writable by compute shaders (barriers are the caller's). Planes 1 and 2
   * are ignored for 4:0:0. `wide`: 16-bit sample containers, else 8-bit.
   * `passes` (split kernels only, for the benchmark's per-pass times):
   * kLumaPass, kChromaPass or both. */
  static const unsigned kLumaPass = 1, kChromaPass = 2;
  bool dispatch (VkExec *exec, const AlfPlane in[3], const AlfPlane out[3],
      GstVulkanBufferMemory *params, const VvcAlfPicParams &pic, bool wide, GError **error,
      unsigned passes = kLumaPass | kChromaPass);

 private:
  AlfOptions options_;
  VkKernel *kernel_ = nullptr;        /* both passes, or luma with `split` */
  VkKernel *chroma_kernel_ = nullptr; /* with `split` */
};

} // namespace gpc
