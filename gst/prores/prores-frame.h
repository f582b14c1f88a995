/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes frame parsing (SMPTE RDD 36 section 5): the 'icpf' frame container,
 * the frame header (dimensions, chroma format, interlacing, colour
 * description, alpha, quantisation matrices), the one or two picture headers
 * and their slice index tables. Every read is bounds checked; a bad frame
 * gives a Status and a message, never a crash.
 *
 * Leniency follows FFmpeg (whose output we must match): bitstream versions 0
 * and 1 are accepted whatever the chroma format (Debian's encoders write
 * version 0 for 4:4:4), the slice count written in the picture header is
 * ignored and derived from the dimensions (as QuickTime does), slices may
 * extend past the picture's declared size as long as they stay in the frame.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

namespace gpc {
namespace prores {

enum class Status {
  kOk = 0,
  kTruncated,       /* the data ends before a structure does */
  kBadSignature,    /* no 'icpf' at offset 4 */
  kBadFrameHeader,  /* header size, version, dimensions, alpha type... */
  kBadPictureHeader,
  kBadSliceTable,   /* slice sizes inconsistent with the data */
  kBadSlice,        /* a slice failed to decode */
  kUnsupported,
};

const char *status_name (Status s);

enum class ChromaFormat { k422 = 2, k444 = 3 };
enum class Interlace { kProgressive = 0, kTopFieldFirst = 1, kBottomFieldFirst = 2 };

struct FrameHeader {
  uint32_t frame_size;   /* the container's size field (FFmpeg does not use it) */
  uint32_t header_size;  /* frame header bytes (from offset 8) */
  uint32_t version;      /* bitstream version: 0 or 1 */
  char creator[5];       /* encoder identifier, e.g. "Lavc", "fmpg", "apl0" */
  uint32_t width, height;
  uint32_t chroma_format_code; /* raw 2 bits; 3 means 4:4:4, anything else 4:2:2 */
  uint32_t interlace_code;     /* raw 2 bits: 0 progressive, 1 TFF, 2 BFF (3: as FFmpeg, BFF) */
  uint32_t aspect_ratio_info, frame_rate_code;
  uint32_t color_primaries, transfer_characteristic, matrix_coefficients;
  uint32_t alpha_info;         /* 0 none, 1: 8-bit, 2: 16-bit */
  bool load_luma_matrix, load_chroma_matrix;
  uint8_t qmat_luma[64];       /* raster order; 4 everywhere when not loaded */
  uint8_t qmat_chroma[64];     /* = luma matrix when not loaded (as FFmpeg) */

  ChromaFormat chroma_format () const {
    return chroma_format_code == 3 ? ChromaFormat::k444 : ChromaFormat::k422;
  }
  bool is_444 () const { return chroma_format () == ChromaFormat::k444; }
  bool interlaced () const { return interlace_code != 0; }
  bool top_field_first () const { return interlace_code == 1; }
  uint32_t alpha_bits () const { return alpha_info == 1 ? 8 : alpha_info == 2 ? 16 : 0; }
  uint32_t mb_width () const { return (width + 15) >> 4; }
  /* Macroblock rows of one picture (a field when interlaced). */
  uint32_t picture_mb_height () const {
    return interlaced () ? (height + 31) >> 5 : (height + 15) >> 4;
  }
};

/* Where the slices of one picture lie; offsets are from the frame start. */
struct Picture {
  uint32_t offset;        /* picture header position */
  uint32_t header_size;
  uint32_t data_size;     /* declared picture size (header + index + slices) */
  uint32_t log2_slice_mb_width;  /* 0..3 */
  uint32_t log2_slice_mb_height; /* always 0 */
  uint32_t written_slice_count;  /* as written; not used */
  uint32_t slice_count;          /* derived from the dimensions */
  uint32_t bottom_field;         /* 1 when this picture holds the odd frame rows */
  std::vector<uint32_t> slice_offset; /* per slice, from the frame start */
  std::vector<uint32_t> slice_size;
};

struct Frame {
  FrameHeader header;
  uint32_t num_pictures = 0; /* 1, or 2 for an interlaced frame with both fields */
  Picture picture[2];
};

/* Slice geometry by closed form: the n-th slice of a picture whose rows are
 * mb_width macroblocks, cut into slices of 2^log2_w macroblocks and then,
 * at the end of each row, into the powers of two of the rest (largest
 * first). GLSL-friendly: no tables, a loop of at most 3 steps. */
struct SlicePos {
  uint32_t mb_x, mb_y, mb_count;
};
static inline uint32_t slices_per_row (uint32_t mb_width, uint32_t log2_w)
{
  return (mb_width >> log2_w) + (uint32_t) __builtin_popcount (mb_width & ((1u << log2_w) - 1));
}
static inline SlicePos slice_position (uint32_t index, uint32_t mb_width, uint32_t log2_w)
{
  const uint32_t per_row = slices_per_row (mb_width, log2_w);
  const uint32_t row = index / per_row, k = index % per_row;
  const uint32_t full = mb_width >> log2_w;
  if (k < full)
    return SlicePos { k << log2_w, row, 1u << log2_w };
  uint32_t x = full << log2_w;
  uint32_t rest = mb_width & ((1u << log2_w) - 1);
  for (uint32_t j = full; rest != 0; j++) {
    const uint32_t size = 1u << (31 - __builtin_clz (rest)); /* highest set bit */
    if (j == k)
      return SlicePos { x, row, size };
    x += size;
    rest -= size;
  }
  return SlicePos { x, row, 0 }; /* not reached for index < slice count */
}

/* Parses the frame header only (for caps: cheap, no slice table). */
Status parse_frame_header (const uint8_t *data, size_t size, FrameHeader *hdr, std::string *error);

/* Parses everything up to the slice tables. */
Status parse_frame (const uint8_t *data, size_t size, Frame *frame, std::string *error);

/* What an element needs at caps time, without decoding. */
struct ProbeInfo {
  uint32_t width, height;
  ChromaFormat chroma_format;
  Interlace interlace;
  bool top_field_first;
  uint32_t alpha_bits;  /* 0, 8, 16 */
  uint32_t bit_depth;   /* output depth FFmpeg would use without container info */
  const char *profile;  /* best guess: "4444" for 4:4:4, "422" otherwise */
  char creator[5];
  /* Frame rate from frame_rate_code (RDD 36 table), 0/0 when unspecified. */
  uint32_t fps_n, fps_d;
  /* aspect_ratio_information: 0 unknown, 1 square pixels, 2 4:3, 3 16:9
   * (display aspect ratio). */
  uint32_t aspect_ratio_info;
  /* Colour description, ISO/IEC 23091-2 code points as in H.264/HEVC VUI
   * (0 / 2 mean unspecified): GStreamer's gst_video_color_primaries_from_iso()
   * etc. map them. */
  uint32_t color_primaries, transfer_characteristic, matrix_coefficients;
};
Status probe (const uint8_t *data, size_t size, ProbeInfo *info, std::string *error);

/* The output depth that FFmpeg picks from the container's FourCC / profile
 * (12 for 'ap4h' / 'ap4x' = 4444 / 4444 XQ, else 10), or 0 if unknown. */
uint32_t bit_depth_for_fourcc (const char fourcc[4]);
/* Same for GStreamer's video/x-prores "variant" caps field. */
uint32_t bit_depth_for_variant (const char *variant);

} // namespace prores
} // namespace gpc
