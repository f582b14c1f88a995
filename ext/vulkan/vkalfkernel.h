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

namespace gpc {

/* One plane in a storage buffer. */
struct AlfPlane {
  GstVulkanBufferMemory *mem;
  uint32_t offset; /* bytes; for outputs a multiple of 4 */
  uint32_t stride; /* bytes; for outputs a multiple of 4 */
};

class VkAlfKernel {
 public:
  static VkAlfKernel *create (GstVulkanDevice *device, GError **error);
  ~VkAlfKernel () { delete kernel_; }

  /* Byte offset of the CTB array in a parameter buffer (the picture block
   * comes first, padded to any storage-buffer offset alignment). */
  static constexpr uint32_t kCtbOffset = 62976;
  static gsize params_size (const VvcAlfParams &p)
  {
    return kCtbOffset + p.ctbs.size () * sizeof (VvcAlfCtbParams);
  }
  /* Writes `p` laid out for the shader into mapped memory of
   * params_size() bytes. In this copy reserved[0] and reserved[1..2] of the
   * picture block are bit masks of the luma sets / chroma filters whose
   * clip values are all 2^B (clipping is then the identity for valid
   * samples, and the shader skips it). */
  static void pack_params (const VvcAlfParams &p, uint8_t *dst);

  /* Records the upload of `p` into a device-local buffer taken from
   * `device_cache` (through a staging buffer of `staging_cache`) and the
   * barrier that makes it readable by the kernel. Returns the buffer (a new
   * reference; the exec keeps what it needs) or NULL with `error` set. */
  static GstBuffer *upload_params (VkExec *exec, const VvcAlfParams &p,
      VkBufferCache *staging_cache, VkBufferCache *device_cache, GError **error);

  /* Only the dispatch: `in` and `params` must be readable and `out`
   * writable by compute shaders (barriers are the caller's). Planes 1 and 2
   * are ignored for 4:0:0. `wide`: 16-bit sample containers, else 8-bit. */
  bool dispatch (VkExec *exec, const AlfPlane in[3], const AlfPlane out[3],
      GstVulkanBufferMemory *params, const VvcAlfPicParams &pic, bool wide, GError **error);

 private:
  VkKernel *kernel_ = nullptr;
};

} // namespace gpc
