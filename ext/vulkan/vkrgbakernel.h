/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The Y'CbCr / grey to RGBA kernel (shaders/yuv_to_rgba.comp) with its
 * parameters: storage-buffer planes in, an R8G8B8A8_UNORM storage image out.
 */
#pragma once

#include "compute/gpcvkexec.h"
#include "compute/gpcvkkernel.h"
#include "rgba-convert-video.h"

namespace gpc {

/* A plane in a storage buffer. */
struct RgbaPlane {
  GstVulkanBufferMemory *mem;
  uint32_t offset; /* bytes, multiple of 4 */
  uint32_t stride; /* bytes, multiple of 4 */
};

class VkRgbaKernel {
 public:
  static VkRgbaKernel *create (GstVulkanDevice *device, GError **error);
  ~VkRgbaKernel ();

  /* Records the conversion of `planes` (Y, Cb, Cr, A; planes a layout does
   * not read may repeat plane 0) into `view`'s image: the image goes to
   * VK_IMAGE_LAYOUT_GENERAL for the shader's writes (its barrier state
   * updated, so that whoever reads it next on the queue synchronises) and
   * `view` is kept until the submission's fence. With `swap_rb` the texels
   * hold B, G, R, A (a BGRA picture's bytes, for a raw copy into a
   * B8G8R8A8 image or a buffer). */
  bool record (VkExec *exec, const RgbaPlane planes[4], GstVulkanImageView *view,
      const RgbaFormat &format, const RgbaCoeffs &coeffs, uint32_t width, uint32_t height,
      bool swap_rb, GError **error);

  /* Usage of the images the shader writes (storage for the shader,
   * transfers for vulkandownload, vulkansink's blit and our own download,
   * sampled for vulkancolorconvert). */
  static constexpr VkImageUsageFlags kImageUsage = VK_IMAGE_USAGE_STORAGE_BIT |
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
      VK_IMAGE_USAGE_SAMPLED_BIT;

 private:
  VkKernel *kernel_ = nullptr;
};

} // namespace gpc
