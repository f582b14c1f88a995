/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "prores-decoder.h"

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

  /* Work planes padded to whole macroblocks of whole pictures. */
  const uint32_t fields = h.interlaced () ? 2 : 1;
  const uint32_t pad_w = h.mb_width () * 16;
  const uint32_t pad_h = h.picture_mb_height () * 16 * fields;
  const uint32_t pad_cw = h.is_444 () ? pad_w : pad_w / 2;
  std::vector<uint16_t> work[4];
  uint32_t work_w[4] = { pad_w, pad_cw, pad_cw, pad_w };
  for (uint32_t p = 0; p < out->num_planes; p++)
    work[p].assign ((size_t) work_w[p] * pad_h, 0);

  out->slices_total = 0;
  out->slices_failed = 0;
  std::string first_error;
  for (uint32_t pi = 0; pi < frame.num_pictures; pi++) {
    const Picture &pic = frame.picture[pi];
    SliceJob job {};
    job.chroma_444 = h.is_444 ();
    job.bit_depth = (int32_t) depth;
    job.alpha_bits = (int32_t) alpha_bits;
    job.scan = h.interlaced () ? kInterlacedScan : kProgressiveScan;
    job.qmat_luma = h.qmat_luma;
    job.qmat_chroma = h.qmat_chroma;
    for (uint32_t p = 0; p < 4; p++) {
      if (p < out->num_planes) {
        job.plane[p] = work[p].data () + (size_t) pic.bottom_field * work_w[p];
        job.stride[p] = (ptrdiff_t) work_w[p] * fields;
      } else {
        job.plane[p] = nullptr;
        job.stride[p] = 0;
      }
    }
    for (uint32_t i = 0; i < pic.slice_count; i++) {
      const SlicePos sp = slice_position (i, h.mb_width (), pic.log2_slice_mb_width);
      job.data = data + pic.slice_offset[i];
      job.size = pic.slice_size[i];
      job.mb_x = (int32_t) sp.mb_x;
      job.mb_y = (int32_t) sp.mb_y;
      job.mb_count = (int32_t) sp.mb_count;
      SliceStatus ss = decode_slice (job);
      out->slices_total++;
      if (ss != SliceStatus::kOk) {
        if (out->slices_failed++ == 0) {
          char buf[160];
          snprintf (buf, sizeof buf, "picture %u slice %u (mb %u,%u): %s", pi, i, sp.mb_x,
              sp.mb_y, slice_status_name (ss));
          first_error = buf;
        }
      }
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
        out->plane[p][(size_t) y * out->plane_width[p] + x] = work[p][(size_t) y * work_w[p] + x];
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
