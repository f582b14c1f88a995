/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The ALF parameters of one picture in the form the GPU consumes them.
 *
 * Two plain-data blocks, no pointers, copied to GPU buffers as they are:
 *   - VvcAlfPicParams: geometry, boundaries and every filter the picture may
 *     use, already derived (fixed filter sets expanded per class, clip
 *     indices turned into clip values);
 *   - an array of VvcAlfCtbParams, one per CTB in raster order.
 * Every member is a 32-bit integer or an array of them, so the C layout is
 * identical to GLSL std430 (and std140 is NOT used). docs/vvcalf-reference.md
 * describes both blocks and the per-sample algorithm the shader mirrors.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

namespace gpc {

constexpr int kVvcAlfNumFixedSets = 16;
constexpr int kVvcAlfMaxAps = 8;
/* Luma filter sets: 0..15 the fixed sets, 16 + id the luma filters of APS id. */
constexpr int kVvcAlfNumLumaSets = kVvcAlfNumFixedSets + kVvcAlfMaxAps;
constexpr int kVvcAlfNumClasses = 25;
constexpr int kVvcAlfLumaTaps = 12;
constexpr int kVvcAlfChromaTaps = 6;
constexpr int kVvcAlfMaxChromaAlts = 8;
/* Chroma filters: index aps_id * 8 + alt. */
constexpr int kVvcAlfNumChromaFilters = kVvcAlfMaxAps * kVvcAlfMaxChromaAlts;
constexpr int kVvcAlfCcTaps = 7;
constexpr int kVvcAlfCcStride = 8;  /* 7 taps padded to 8 */
constexpr int kVvcAlfMaxCcFilters = 4;
/* CC-ALF filters per component: index aps_id * 4 + (idc - 1). */
constexpr int kVvcAlfNumCcFilters = kVvcAlfMaxAps * kVvcAlfMaxCcFilters;
constexpr int kVvcAlfMaxVirtualBoundaries = 3;

/* VvcAlfCtbParams.flags: same bits as GstVvcAlfCtbFlags. */
enum : int32_t {
  kVvcAlfCtbY = 1 << 0,
  kVvcAlfCtbCb = 1 << 1,
  kVvcAlfCtbCr = 1 << 2,
  kVvcAlfEdgeLeft = 1 << 3,
  kVvcAlfEdgeRight = 1 << 4,
  kVvcAlfEdgeTop = 1 << 5,
  kVvcAlfEdgeBottom = 1 << 6,
  kVvcAlfCornerTopLeft = 1 << 7,
  kVvcAlfCornerBottomRight = 1 << 8,
};

struct VvcAlfPicParams {
  /* Header: 32 words. */
  int32_t width, height;        /* luma samples */
  int32_t chroma_format;        /* 0 = 4:0:0, 1 = 4:2:0, 2 = 4:2:2, 3 = 4:4:4 */
  int32_t shift_x, shift_y;     /* log2 SubWidthC, log2 SubHeightC (0 for 4:0:0) */
  int32_t bit_depth;            /* 8..12 */
  int32_t ctb_log2, ctb_size;   /* CtbSizeY = 1 << ctb_log2 */
  int32_t ctbs_x, ctbs_y;       /* CTB columns and rows */
  int32_t vb_last_row;          /* 1: line-buffer boundary also in the last CTB row (VTM) */
  int32_t num_vb_x, num_vb_y;
  int32_t vb_x[kVvcAlfMaxVirtualBoundaries]; /* luma positions */
  int32_t vb_y[kVvcAlfMaxVirtualBoundaries];
  int32_t reserved[13];
  /* Filters. Clip arrays hold clip VALUES (2^B, 2^(B-3), 2^(B-5), 2^(B-7)). */
  int32_t luma_coeff[kVvcAlfNumLumaSets][kVvcAlfNumClasses][kVvcAlfLumaTaps];
  int32_t luma_clip[kVvcAlfNumLumaSets][kVvcAlfNumClasses][kVvcAlfLumaTaps];
  int32_t chroma_coeff[kVvcAlfNumChromaFilters][kVvcAlfChromaTaps];
  int32_t chroma_clip[kVvcAlfNumChromaFilters][kVvcAlfChromaTaps];
  int32_t cc_coeff[2][kVvcAlfNumCcFilters][kVvcAlfCcStride]; /* [0] Cb, [1] Cr */
};

struct VvcAlfCtbParams {
  int32_t flags;        /* kVvcAlfCtb* | kVvcAlfEdge* | kVvcAlfCorner* */
  int32_t luma_set;     /* 0..23, index into luma_coeff (meaningful with kVvcAlfCtbY) */
  int32_t chroma_filter[2]; /* Cb, Cr: index into chroma_coeff (meaningful with the flag) */
  int32_t cc_filter[2]; /* Cb, Cr: index into cc_coeff[c], -1 = no CC-ALF */
  int32_t reserved[2];
};

static_assert (sizeof (VvcAlfCtbParams) == 32, "GPU layout");
/* Word offsets documented in docs/vvcalf-reference.md and used by the shader. */
static_assert (offsetof (VvcAlfPicParams, luma_coeff) == 32 * 4, "GPU layout");
static_assert (offsetof (VvcAlfPicParams, luma_clip) == 7232 * 4, "GPU layout");
static_assert (offsetof (VvcAlfPicParams, chroma_coeff) == 14432 * 4, "GPU layout");
static_assert (offsetof (VvcAlfPicParams, chroma_clip) == 14816 * 4, "GPU layout");
static_assert (offsetof (VvcAlfPicParams, cc_coeff) == 15200 * 4, "GPU layout");
static_assert (sizeof (VvcAlfPicParams) == 62848, "GPU layout");

struct VvcAlfParams {
  VvcAlfPicParams pic;
  std::vector<VvcAlfCtbParams> ctbs;  /* ctbs_x * ctbs_y, raster order */
};

/* Picture-level helpers shared by the reference and the element. */
inline int vvc_alf_ctb_index (const VvcAlfPicParams &p, int x_luma, int y_luma)
{
  return (y_luma >> p.ctb_log2) * p.ctbs_x + (x_luma >> p.ctb_log2);
}

/* Checks the invariants of a derived parameter block (every index in range,
 * geometry consistent). Whatever passes is safe to run on the CPU reference
 * or on the GPU. Returns "" when fine, else what is wrong. */
std::string vvc_alf_params_check (const VvcAlfParams &params);

} // namespace gpc
