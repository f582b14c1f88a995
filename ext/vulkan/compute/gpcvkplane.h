/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Video planes as compute shaders read them: a storage buffer, a byte offset
 * and a row stride, both multiples of 4. A plane already in such a buffer is
 * bound in place; other Vulkan buffers and Vulkan images are copied on the
 * GPU (never read back); system-memory planes are uploaded through a staging
 * buffer. Every recorded command keeps what it uses alive until the
 * submission's fence, and leaves the plane ready for SHADER_READ.
 */
#pragma once

#include "gpcvk.h"
#include "gpcvkbuffer.h"
#include "gpcvkexec.h"

#include <functional>
#include <vector>

namespace gpc {

struct StoragePlane {
  GstVulkanBufferMemory *mem = nullptr;
  uint32_t offset = 0; /* bytes, multiple of 4 */
  uint32_t stride = 0; /* bytes, multiple of 4 */
  /* Keeps `mem` alive (the input buffer, or the copy's buffer): a reference
   * the caller owns, for planes read again by later submissions. */
  GstBuffer *holder = nullptr;

  void clear () { gst_clear_buffer (&holder); mem = nullptr; }
};

/* Plane `mem` (byte `offset`, `stride`, `rows` rows of `row_bytes`) of
 * `buf`. Vulkan images must hold `texel_bytes`-byte texels (R8 or R16). */
bool vk_plane_for_compute (VkExec *exec, VkBufferCache *device_cache, GstBuffer *buf,
    GstMemory *mem, gsize offset, gint stride, gsize row_bytes, guint rows,
    guint texel_bytes, StoragePlane *out, GError **error);

/* Uploads `size` bytes that `fill` writes into a staging buffer to a
 * device-local storage buffer, ready for SHADER_READ; returns that buffer (a
 * reference the caller owns), kept alive until the submission's fence. */
GstBuffer *vk_upload_bytes (VkExec *exec, VkBufferCache *staging_cache,
    VkBufferCache *device_cache, gsize size, const std::function<void (uint8_t *)> &fill,
    GError **error);

/* A plane in host memory. */
struct HostPlane {
  const uint8_t *data;
  gsize stride;
  gsize row_bytes;
  guint rows;
};

/* Uploads `n` host planes into one device buffer (planes one after the
 * other, strides rounded up to 4); out[i] all share that buffer. */
bool vk_upload_planes (VkExec *exec, VkBufferCache *staging_cache, VkBufferCache *device_cache,
    const HostPlane *planes, guint n, StoragePlane *out, GError **error);

} // namespace gpc
