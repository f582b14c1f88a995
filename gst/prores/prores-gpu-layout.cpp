/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "prores-gpu-layout.h"

#include <string.h>

namespace gpc {
namespace prores {

static void pack_qmat (const uint8_t m[64], uint32_t out[16])
{
  for (int w = 0; w < 16; w++)
    out[w] = (uint32_t) m[4 * w] | (uint32_t) m[4 * w + 1] << 8 | (uint32_t) m[4 * w + 2] << 16 |
        (uint32_t) m[4 * w + 3] << 24;
}

void build_gpu_layout (const Frame &frame, uint32_t bit_depth, bool skip_alpha,
    IdctFlavor flavor, GpuFrameParams *fp, std::vector<GpuSliceDesc> *slices)
{
  const FrameHeader &h = frame.header;
  memset (fp, 0, sizeof *fp);
  fp->width = h.width;
  fp->height = h.height;
  fp->mb_width = h.mb_width ();
  fp->picture_mb_height = h.picture_mb_height ();
  fp->chroma_444 = h.is_444 () ? 1 : 0;
  fp->bit_depth = bit_depth ? bit_depth : (h.is_444 () ? 12 : 10);
  fp->alpha_bits = skip_alpha ? 0 : h.alpha_bits ();
  fp->interlaced = h.interlaced () ? 1 : 0;
  /* FFmpeg 5.1 has SIMD only for the 10-bit transform. */
  fp->idct_x86 = flavor == IdctFlavor::kX86 && fp->bit_depth == 10 ? 1 : 0;
  fp->padded_height = fp->picture_mb_height * 16 * (fp->interlaced ? 2 : 1);
  const uint32_t luma_w = fp->mb_width * 16;
  fp->plane_stride[0] = luma_w;
  fp->plane_stride[1] = fp->plane_stride[2] = fp->chroma_444 ? luma_w : luma_w / 2;
  fp->plane_stride[3] = fp->alpha_bits ? luma_w : 0;
  pack_qmat (h.qmat_luma, fp->qmat_luma);
  pack_qmat (h.qmat_chroma, fp->qmat_chroma);

  slices->clear ();
  for (uint32_t p = 0; p < frame.num_pictures; p++) {
    const Picture &pic = frame.picture[p];
    for (uint32_t i = 0; i < pic.slice_count; i++) {
      const SlicePos sp = slice_position (i, fp->mb_width, pic.log2_slice_mb_width);
      slices->push_back (GpuSliceDesc { pic.slice_offset[i], pic.slice_size[i],
          sp.mb_x | sp.mb_y << 16, sp.mb_count | pic.bottom_field << 8 });
    }
  }
  fp->num_slices = (uint32_t) slices->size ();
}

} // namespace prores
} // namespace gpc
