/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The records the host gives the per-slice decoding kernel, and the CPU
 * reference of that kernel's entry point. The host parses the frame
 * (prores-frame.h), fills one GpuFrameParams and one GpuSliceDesc per slice of
 * every picture, uploads them with the frame's bytes, and dispatches one
 * workgroup (or invocation) per slice. decode_frame() in prores-decoder.cpp
 * goes through exactly these records, so the CPU reference tests them too.
 *
 * Both structs hold only uint32_t and are laid out identically under
 * std430 (no vec3, no padding): declare them the same way in GLSL.
 */
#pragma once

#include <stdint.h>

#include <vector>

#include "prores-frame.h"
#include "prores-slice.h"

namespace gpc {
namespace prores {

struct GpuFrameParams {
  uint32_t width, height;        /* coded picture size */
  uint32_t mb_width;             /* macroblocks per row */
  uint32_t picture_mb_height;    /* macroblock rows per picture (field when interlaced) */
  uint32_t chroma_444;           /* 0: 4:2:2, 1: 4:4:4 */
  uint32_t bit_depth;            /* 10 or 12 */
  uint32_t alpha_bits;           /* 0, 8 or 16 (0 also when alpha is skipped) */
  uint32_t interlaced;           /* 0 or 1: selects the scan and the field rows */
  uint32_t idct_x86;             /* 1: FFmpeg's x86 SIMD IDCT arithmetic (10-bit only), 0: its C code */
  uint32_t num_slices;           /* over all pictures */
  uint32_t padded_height;        /* rows of every padded plane (whole macroblocks, both fields) */
  uint32_t plane_stride[4];      /* samples per row of the padded Y, Cb, Cr, A planes */
  uint32_t qmat_luma[16];        /* 64 matrix bytes, raster order, 4 per word, byte i at bits 8*(i%4) */
  uint32_t qmat_chroma[16];
};

struct GpuSliceDesc {
  uint32_t offset; /* first byte of the slice, from the frame start */
  uint32_t size;   /* bytes */
  uint32_t mb_xy;  /* mb_x | mb_y << 16, in picture (field) macroblocks */
  uint32_t info;   /* mb_count (1, 2, 4, 8) | bottom_field << 8 */
};

static inline uint32_t qmat_byte (const uint32_t packed[16], uint32_t i)
{
  return (packed[i >> 2] >> (8 * (i & 3))) & 0xff;
}

/* Fills the records for a parsed frame. bit_depth as DecodeOptions. */
void build_gpu_layout (const Frame &frame, uint32_t bit_depth, bool skip_alpha,
    IdctFlavor flavor, GpuFrameParams *params, std::vector<GpuSliceDesc> *slices);

/* The kernel's work for one slice: planes are the padded planes of
 * GpuFrameParams (Y, Cb, Cr, A; A may be null without alpha). */
static inline SliceStatus decode_slice_desc (const uint8_t *frame_data,
    const GpuFrameParams &fp, const GpuSliceDesc &sd, uint16_t *const planes[4])
{
  uint8_t qm_luma[64], qm_chroma[64];
  for (uint32_t i = 0; i < 64; i++) {
    qm_luma[i] = (uint8_t) qmat_byte (fp.qmat_luma, i);
    qm_chroma[i] = (uint8_t) qmat_byte (fp.qmat_chroma, i);
  }
  const uint32_t bottom = (sd.info >> 8) & 1;
  const uint32_t fields = fp.interlaced ? 2 : 1;
  SliceJob job {};
  job.data = frame_data + sd.offset;
  job.size = sd.size;
  job.mb_x = (int32_t) (sd.mb_xy & 0xffff);
  job.mb_y = (int32_t) (sd.mb_xy >> 16);
  job.mb_count = (int32_t) (sd.info & 0xff);
  job.chroma_444 = (int32_t) fp.chroma_444;
  job.bit_depth = (int32_t) fp.bit_depth;
  job.idct_flavor = fp.idct_x86 ? IdctFlavor::kX86 : IdctFlavor::kC;
  job.alpha_bits = (int32_t) fp.alpha_bits;
  job.scan = fp.interlaced ? kInterlacedScan : kProgressiveScan;
  job.qmat_luma = qm_luma;
  job.qmat_chroma = qm_chroma;
  for (int p = 0; p < 4; p++) {
    const bool present = planes[p] && (p < 3 || fp.alpha_bits);
    job.plane[p] = present ? planes[p] + (ptrdiff_t) bottom * fp.plane_stride[p] : nullptr;
    job.stride[p] = (ptrdiff_t) fp.plane_stride[p] * fields;
  }
  return decode_slice (job);
}

} // namespace prores
} // namespace gpc
