/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkrgbakernel.h"

#include "yuv_to_rgba.spv.h"

namespace gpc {

namespace {

/* Push constants, in the shader's order. */
struct RgbaPush {
  uint32_t off[4], stride[4];
  uint32_t width, height;
  uint32_t layout, bytes, sub_x, sub_y, max;
  int32_t c_y, r_cr, g_cb, g_cr, b_cb, y_off, c_off;
  uint32_t swap_rb;
};

} // namespace

/* The shader's local size. */
static const uint32_t kGroupW = 16, kGroupH = 8;

VkRgbaKernel *VkRgbaKernel::create (GstVulkanDevice *device, GError **error)
{
  VkKernel::Spec spec = { yuv_to_rgba_spv, sizeof (yuv_to_rgba_spv), 4, sizeof (RgbaPush), {} };
  spec.n_storage_images = 1;
  VkKernel *k = VkKernel::create (device, spec, error);
  if (!k)
    return nullptr;
  VkRgbaKernel *r = new VkRgbaKernel ();
  r->kernel_ = k;
  return r;
}

VkRgbaKernel::~VkRgbaKernel ()
{
  delete kernel_;
}

bool VkRgbaKernel::record (VkExec *exec, const RgbaPlane planes[4], GstVulkanImageView *view,
    const RgbaFormat &f, const RgbaCoeffs &c, uint32_t w, uint32_t h, bool swap_rb,
    GError **error)
{
  RgbaPush pc = {};
  VkDescriptorBufferInfo bufs[4];
  for (int p = 0; p < 4; p++) {
    pc.off[p] = planes[p].offset;
    pc.stride[p] = planes[p].stride;
    /* Descriptor ranges start at 0: offsets travel as push constants. */
    bufs[p] = { planes[p].mem->buffer, 0, VK_WHOLE_SIZE };
  }
  pc.width = w;
  pc.height = h;
  pc.layout = (uint32_t) f.layout;
  pc.bytes = f.bytes;
  pc.sub_x = f.sub_x;
  pc.sub_y = f.sub_y;
  pc.max = c.max;
  pc.c_y = c.y;
  pc.r_cr = c.r_cr;
  pc.g_cb = c.g_cb;
  pc.g_cr = c.g_cr;
  pc.b_cb = c.b_cb;
  pc.y_off = c.y_off;
  pc.c_off = c.c_off;
  pc.swap_rb = swap_rb;

  /* Everything the image held before is overwritten: its old contents need
   * not survive the transition, but earlier readers (downstream, on this
   * queue) must finish first, which the barrier's source state ensures. */
  exec->barrier (view->image, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
      VK_IMAGE_LAYOUT_GENERAL);
  VkDescriptorImageInfo img = { VK_NULL_HANDLE, view->view, VK_IMAGE_LAYOUT_GENERAL };
  exec->keep (GST_MINI_OBJECT_CAST (view));
  return exec->dispatch (kernel_, bufs, 4, &img, 1, &pc, sizeof pc, (w + kGroupW - 1) / kGroupW,
      (h + kGroupH - 1) / kGroupH, 1, error);
}

} // namespace gpc
