/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "prores-decoder.h"

#include "prores-gpu-layout.h"

#include <cstdio>

namespace gpc {
namespace prores {

std::string DecodedFrame::pix_fmt () const
{
  char buf[32];
  snprintf (buf, sizeof buf, "%s%sp%ule", num_planes == 4 ? "yuva" : "yuv",
      chroma_444 ? "444" : "422", bit_depth);
  return buf;
}

Status decode_frame (const uint8_t *data, size_t size, const DecodeOptions &opts,
    DecodedFrame *out, std::string *error)
{
  Frame frame;
  Status s = parse_frame (data, size, &frame, error);
  if (s != Status::kOk)
    return s;
  const FrameHeader &h = frame.header;

  const uint32_t depth = opts.bit_depth ? opts.bit_depth : (h.is_444 () ? 12 : 10);
  if (depth != 10 && depth != 12) {
    if (error)
      *error = "output bit depth must be 10 or 12";
    return Status::kUnsupported;
  }
  const uint32_t alpha_bits = opts.skip_alpha ? 0 : h.alpha_bits ();

  out->width = h.width;
  out->height = h.height;
  out->bit_depth = depth;
  out->chroma_444 = h.is_444 ();
  out->interlaced = h.interlaced ();
  out->top_field_first = h.top_field_first ();
  out->alpha_bits = alpha_bits;
  out->num_planes = alpha_bits ? 4 : 3;

  /* Same records and entry point as the GPU kernel (prores-gpu-layout.h). */
  GpuFrameParams fp;
  std::vector<GpuSliceDesc> slices;
  build_gpu_layout (frame, depth, opts.skip_alpha, opts.idct_flavor, &fp, &slices);

  /* Planes padded to whole macroblocks of whole pictures. */
  std::vector<uint16_t> work[4];
  uint16_t *planes[4] = {};
  for (uint32_t p = 0; p < out->num_planes; p++) {
    work[p].assign ((size_t) fp.plane_stride[p] * fp.padded_height, 0);
    planes[p] = work[p].data ();
  }

  out->pictures = frame.num_pictures;
  out->slices_total = fp.num_slices;
  out->slices_failed = 0;
  std::string first_error;
  for (uint32_t i = 0; i < fp.num_slices; i++) {
    const GpuSliceDesc &sd = slices[i];
    SliceStatus ss = decode_slice_desc (data, fp, sd, planes);
    if (ss != SliceStatus::kOk && out->slices_failed++ == 0) {
      char buf[160];
      snprintf (buf, sizeof buf, "slice %u (mb %u,%u%s): %s", i, sd.mb_xy & 0xffff,
          sd.mb_xy >> 16, !fp.interlaced ? "" : (sd.info >> 8) & 1 ? " bottom field" : " top field",
          slice_status_name (ss));
      first_error = buf;
    }
  }

  /* Crop into FFmpeg's plane sizes. */
  for (uint32_t p = 0; p < out->num_planes; p++) {
    const bool sub = (p == 1 || p == 2) && !h.is_444 ();
    out->plane_width[p] = sub ? (h.width + 1) / 2 : h.width;
    out->plane_height[p] = h.height;
    out->plane[p].resize ((size_t) out->plane_width[p] * h.height);
    for (uint32_t y = 0; y < h.height; y++)
      for (uint32_t x = 0; x < out->plane_width[p]; x++)
        out->plane[p][(size_t) y * out->plane_width[p] + x] = work[p][(size_t) y * fp.plane_stride[p] + x];
  }
  for (uint32_t p = out->num_planes; p < 4; p++) {
    out->plane[p].clear ();
    out->plane_width[p] = out->plane_height[p] = 0;
  }

  if (out->slices_failed) {
    if (error) {
      char buf[64];
      snprintf (buf, sizeof buf, "%u of %u slices failed; first: ", out->slices_failed,
          out->slices_total);
      *error = buf + first_error;
    }
    return Status::kBadSlice;
  }
  return Status::kOk;
}

} // namespace prores
} // namespace gpc
