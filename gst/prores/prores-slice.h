/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Decoding of one ProRes slice (SMPTE RDD 36 section 7): slice header,
 * entropy decoding of DC and AC coefficients, dequantisation + IDCT of every
 * block, and the run-length coded alpha plane. This is the CPU reference of
 * the per-slice GPU kernel, with exactly FFmpeg's behaviour on valid streams.
 *
 * Written to be transliterated to GLSL: plain functions, fixed-size arrays,
 * 32-bit integers only (coefficients are int16 values kept in int32 and
 * truncated with sext16 wherever FFmpeg stores them in an int16_t), no
 * allocation, every read bounded by the slice's own byte range.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "gpc-bitreader.h"
#include "prores-idct.h"
#include "prores-tables.h"

namespace gpc {
namespace prores {

constexpr int kMaxSliceMbs = 8;                /* 1 << 3, the largest log2 slice width */
constexpr int kMaxBlocksPerSlice = 4 * kMaxSliceMbs; /* luma, or 4:4:4 chroma */
constexpr int kMinSliceSize = 6;               /* smaller slices are rejected (as FFmpeg) */

enum class SliceStatus : int32_t {
  kOk = 0,
  kTooSmall,        /* fewer than 6 bytes */
  kBadPlaneSizes,   /* component sizes do not fit the slice */
  kBadCodeword,     /* a codeword longer than 31 bits, or all zeros */
  kAcOverrun,       /* AC run past the last coefficient of the slice */
  kOverread,        /* coefficient data ends inside a codeword */
};

static inline const char *slice_status_name (SliceStatus s)
{
  switch (s) {
    case SliceStatus::kOk: return "ok";
    case SliceStatus::kTooSmall: return "slice smaller than its header";
    case SliceStatus::kBadPlaneSizes: return "component sizes exceed the slice size";
    case SliceStatus::kBadCodeword: return "invalid codeword (longer than 31 bits)";
    case SliceStatus::kAcOverrun: return "AC run past the end of the slice";
    case SliceStatus::kOverread: return "coefficient data truncated inside a codeword";
  }
  return "unknown";
}

struct SliceHeader {
  int32_t header_size; /* bytes, from the top 5 bits of byte 0 */
  int32_t qscale;      /* effective scale factor: 1..128, or (q - 96) * 4 above 128 */
  int32_t y_size, u_size, v_size, a_size;
};

/* Slice header (RDD 36 7.1). Like FFmpeg: the quantisation index is clipped
 * to 1..224, the V size is explicit only when the header has 8 or more bytes
 * (otherwise it is what remains), and what remains after Y, U, V is alpha. */
static inline SliceStatus parse_slice_header (const uint8_t *d, uint32_t size, SliceHeader *h)
{
  if (size < (uint32_t) kMinSliceSize)
    return SliceStatus::kTooSmall;
  h->header_size = d[0] >> 3;
  int32_t q = d[1] < 1 ? 1 : d[1] > 224 ? 224 : d[1];
  h->qscale = q > 128 ? (q - 96) << 2 : q;
  h->y_size = (d[2] << 8) | d[3];
  h->u_size = (d[4] << 8) | d[5];
  if (h->header_size > 7) {
    if (size < 8)
      return SliceStatus::kBadPlaneSizes;
    h->v_size = (d[6] << 8) | d[7];
  } else {
    h->v_size = (int32_t) size - h->y_size - h->u_size - h->header_size;
  }
  if (h->v_size < 0 || h->header_size + h->y_size + h->u_size + h->v_size > (int32_t) size)
    return SliceStatus::kBadPlaneSizes;
  h->a_size = (int32_t) size - h->header_size - h->y_size - h->u_size - h->v_size;
  return SliceStatus::kOk;
}

/* One codeword of RDD 36's adaptive Rice / exp-Golomb code (7.1.1.1).
 * q = leading zeros. q <= switch: Rice, value = (q << k) + k more bits.
 * Otherwise exp-Golomb: the 1 and the next (q - switch + exp_order - 1) bits
 * form a number n, value = n - 2^exp_order + ((switch + 1) << k).
 * Fails (as FFmpeg) when the exp-Golomb code would be longer than 31 bits. */
static inline bool read_codeword (BitReader &br, uint32_t cb, uint32_t *val)
{
  const uint32_t k = cb_rice_order (cb), e = cb_exp_order (cb), sw = cb_switch_bits (cb);
  const uint32_t w = br.peek (32);
  if (w == 0)
    return false;
  const uint32_t q = gpc_clz32 (w);
  if (q > sw) {
    const uint32_t bits = e - sw + (q << 1);
    if (bits > 31)
      return false;
    *val = br.get (bits) - (1u << e) + ((sw + 1) << k);
  } else if (k) {
    br.skip (q + 1);
    *val = (q << k) + br.get (k);
  } else {
    br.skip (q + 1);
    *val = q;
  }
  return true;
}

static inline int32_t to_signed (uint32_t code)
{
  return (int32_t) (code >> 1) ^ -(int32_t) (code & 1);
}

/* DC coefficients of the nblocks blocks of one component (7.1.1.2): the first
 * one coded directly, the next ones as differences whose codebook depends on
 * the previous code and whose sign flips with odd codes. FFmpeg keeps the
 * running DC in an int16_t: so do we (sext16). coeffs: nblocks * 64. */
static inline SliceStatus decode_dc (BitReader &br, int32_t *coeffs, int32_t nblocks)
{
  uint32_t code;
  if (!read_codeword (br, kFirstDcCodebook, &code))
    return SliceStatus::kBadCodeword;
  int32_t dc = sext16 (to_signed (code));
  coeffs[0] = dc;
  code = 5;
  int32_t sign = 0;
  for (int32_t i = 1; i < nblocks; i++) {
    if (!read_codeword (br, kDcCodebook[code < 6 ? code : 6], &code))
      return SliceStatus::kBadCodeword;
    if (code)
      sign ^= -(int32_t) (code & 1);
    else
      sign = 0;
    const int32_t mag = (int32_t) ((code + 1) >> 1);
    dc = sext16 ((int32_t) ((uint32_t) dc + (uint32_t) ((mag ^ sign) - sign)));
    coeffs[i * 64] = dc;
  }
  return br.ok () ? SliceStatus::kOk : SliceStatus::kOverread;
}

/* AC coefficients (7.1.1.3): run/level pairs over the slice's coefficients
 * interleaved block by block (position p = scan_index * nblocks + block),
 * each followed by a sign bit. Runs and levels choose their codebook from the
 * previous run and level. Decoding stops when the data is exhausted or only
 * zero bits remain (fewer than 32).
 *
 * FFmpeg quirk, reproduced: its end test looks at a 32-bit cache last filled
 * when the previous level codeword started, so it only sees the first
 * (32 - bits consumed since then) remaining bits; when those are all zero it
 * stops even if later bits are not. Only long level codes (huge levels) can
 * trigger this, but then the output depends on it. */
static inline SliceStatus decode_ac (BitReader &br, int32_t *coeffs, int32_t nblocks,
    const uint8_t scan[64])
{
  const int32_t log2_nblocks = (int32_t) __builtin_ctz ((uint32_t) nblocks);
  const uint32_t block_mask = (uint32_t) nblocks - 1;
  const uint32_t max_pos = 64u << log2_nblocks;
  uint32_t run = 4, level = 2, pos = block_mask;
  size_t cache_fill_pos = br.pos; /* where FFmpeg last refilled its 32-bit cache */
  for (;;) {
    const size_t left = br.bits_left ();
    if (left == 0)
      break;
    if (left < 32) {
      const size_t valid = 32 - (br.pos - cache_fill_pos); /* 0..32 */
      const unsigned visible = (unsigned) (left < valid ? left : valid);
      if (br.peek (visible) == 0)
        break;
    }
    if (!read_codeword (br, kRunCodebook[run < 15 ? run : 15], &run))
      return SliceStatus::kBadCodeword;
    pos += run + 1;
    if (pos >= max_pos)
      return SliceStatus::kAcOverrun;
    cache_fill_pos = br.pos;
    if (!read_codeword (br, kLevelCodebook[level < 9 ? level : 9], &level))
      return SliceStatus::kBadCodeword;
    level += 1;
    const bool negative = br.get (1) != 0;
    const int32_t v = (int32_t) (negative ? 0u - level : level);
    coeffs[((pos & block_mask) << 6) + scan[pos >> log2_nblocks]] = sext16 (v);
    if (!br.ok ())
      return SliceStatus::kOverread;
  }
  return SliceStatus::kOk;
}

/* Entropy decoding of one component of a slice into nblocks zeroed blocks. */
static inline SliceStatus decode_component_coeffs (const uint8_t *data, uint32_t size,
    int32_t nblocks, const uint8_t scan[64], int32_t *coeffs)
{
  for (int32_t i = 0; i < nblocks * 64; i++)
    coeffs[i] = 0;
  BitReader br (data, size);
  SliceStatus s = decode_dc (br, coeffs, nblocks);
  if (s != SliceStatus::kOk)
    return s;
  return decode_ac (br, coeffs, nblocks, scan);
}

/* Alpha sample conversion to the output depth (as FFmpeg: 16-bit alpha is
 * truncated, 8-bit alpha is replicated into the low bits). */
static inline uint16_t alpha_to_depth (uint32_t a, int32_t alpha_bits, int32_t bit_depth)
{
  if (alpha_bits == 16)
    return (uint16_t) (a >> (16 - bit_depth));
  return (uint16_t) ((a << (bit_depth - 8)) | (a >> (16 - bit_depth)));
}

/* Alpha plane of a slice (7.1.2): differences to the previous value (short
 * signed ones or a full value, modulo 2^bits) alternating with run lengths
 * of repeated values, starting from the all-ones value. num samples in
 * raster order (16 rows of 16 * mb_count). Never fails: like FFmpeg, missing
 * data reads as zero bits and every round writes at least one sample. */
static inline void unpack_alpha (const uint8_t *data, uint32_t size, int32_t num,
    int32_t alpha_bits, int32_t bit_depth, uint16_t *out)
{
  BitReader br (data, size);
  const uint32_t mask = (1u << alpha_bits) - 1;
  const unsigned short_bits = alpha_bits == 16 ? 7 : 4;
  uint32_t a = mask;
  int32_t idx = 0;
  do {
    do {
      int32_t diff;
      if (br.get (1)) {
        diff = (int32_t) br.get ((unsigned) alpha_bits);
      } else {
        int32_t v = (int32_t) br.get (short_bits);
        diff = (v + 2) >> 1;
        if (v & 1)
          diff = -diff;
      }
      a = (a + (uint32_t) diff) & mask;
      out[idx++] = alpha_to_depth (a, alpha_bits, bit_depth);
      if (idx >= num)
        break;
    } while (br.bits_left () > 0 && br.get (1));
    int32_t run = (int32_t) br.get (4);
    if (!run)
      run = (int32_t) br.get (11);
    if (run > num - idx)
      run = num - idx;
    const uint16_t v = alpha_to_depth (a, alpha_bits, bit_depth);
    for (int32_t i = 0; i < run; i++)
      out[idx++] = v;
  } while (idx < num);
}

/* Everything one slice needs: its bytes, its place, the frame's parameters
 * and where the planes are. Plane pointers point at row 0 of the slice's
 * field (frame row 0 or 1) and strides are in samples (doubled for fields). */
struct SliceJob {
  const uint8_t *data;
  uint32_t size;
  int32_t mb_x, mb_y, mb_count;
  int32_t chroma_444;  /* 0: 4:2:2, 1: 4:4:4 */
  int32_t bit_depth;   /* 10 or 12: the output depth, chosen by the profile */
  IdctFlavor idct_flavor; /* kX86 to match Debian's amd64 ffmpeg, kC for its C code */
  int32_t alpha_bits;  /* 0 (no alpha decoded), 8 or 16 */
  const uint8_t *scan; /* kProgressiveScan or kInterlacedScan */
  const uint8_t *qmat_luma, *qmat_chroma;
  uint16_t *plane[4];  /* Y, Cb, Cr, A (A may be null when alpha_bits == 0) */
  ptrdiff_t stride[4];
};

/* Decodes a whole slice into the planes. The planes must have room for the
 * slice's macroblocks in full (16 x 16 luma per macroblock): the caller's
 * planes are padded to whole macroblocks. */
static inline SliceStatus decode_slice (const SliceJob &job)
{
  SliceHeader h;
  SliceStatus s = parse_slice_header (job.data, job.size, &h);
  if (s != SliceStatus::kOk)
    return s;

  int32_t qm_luma[64], qm_chroma[64];
  for (int i = 0; i < 64; i++) {
    qm_luma[i] = scaled_qmat (job.qmat_luma[i], h.qscale);
    qm_chroma[i] = scaled_qmat (job.qmat_chroma[i], h.qscale);
  }

  int32_t coeffs[kMaxBlocksPerSlice * 64];
  const uint8_t *p = job.data + h.header_size;

  /* Luma: 4 blocks per macroblock, top-left, top-right, bottom-left, bottom-right. */
  const int32_t luma_blocks = job.mb_count * 4;
  s = decode_component_coeffs (p, (uint32_t) h.y_size, luma_blocks, job.scan, coeffs);
  if (s != SliceStatus::kOk)
    return s;
  {
    uint16_t *dst = job.plane[0] + (ptrdiff_t) job.mb_y * 16 * job.stride[0] + job.mb_x * 16;
    const ptrdiff_t st = job.stride[0];
    for (int32_t b = 0; b < luma_blocks; b++) {
      const int32_t mb = b >> 2, sub = b & 3;
      uint16_t *d = dst + mb * 16 + (sub & 1) * 8 + (sub >> 1) * 8 * st;
      dequant_idct_put (coeffs + b * 64, qm_luma, job.bit_depth, job.idct_flavor, d, st);
    }
  }

  /* Chroma: 2 blocks per macroblock (4:2:2: top, bottom) or 4 (4:4:4: left
   * column top and bottom, then right column). */
  const int32_t log2_cblocks = job.chroma_444 ? 2 : 1;
  const int32_t chroma_blocks = job.mb_count << log2_cblocks;
  const int32_t mb_cwidth = job.chroma_444 ? 16 : 8;
  for (int c = 1; c <= 2; c++) {
    const ptrdiff_t st = job.stride[c];
    uint16_t *dst = job.plane[c] + (ptrdiff_t) job.mb_y * 16 * st + job.mb_x * mb_cwidth;
    if (h.u_size + h.v_size == 0) {
      /* No chroma coded: FFmpeg fills with 511 (scaled to the depth). */
      const uint16_t grey = (uint16_t) (511 << (job.bit_depth - 10));
      for (int32_t y = 0; y < 16; y++)
        for (int32_t x = 0; x < job.mb_count * mb_cwidth; x++)
          dst[y * st + x] = grey;
      continue;
    }
    const uint8_t *cp = c == 1 ? p + h.y_size : p + h.y_size + h.u_size;
    const int32_t csize = c == 1 ? h.u_size : h.v_size;
    s = decode_component_coeffs (cp, (uint32_t) csize, chroma_blocks, job.scan, coeffs);
    if (s != SliceStatus::kOk)
      return s;
    for (int32_t b = 0; b < chroma_blocks; b++) {
      const int32_t mb = b >> log2_cblocks, sub = b & ((1 << log2_cblocks) - 1);
      uint16_t *d = dst + mb * mb_cwidth + (sub >> 1) * 8 + (sub & 1) * 8 * st;
      dequant_idct_put (coeffs + b * 64, qm_chroma, job.bit_depth, job.idct_flavor, d, st);
    }
  }

  /* Alpha, raster order over the slice's 16 rows. */
  if (job.alpha_bits && job.plane[3] && h.a_size > 0) {
    uint16_t alpha[kMaxSliceMbs * 256];
    const int32_t width = job.mb_count * 16;
    unpack_alpha (p + h.y_size + h.u_size + h.v_size, (uint32_t) h.a_size, width * 16,
        job.alpha_bits, job.bit_depth, alpha);
    const ptrdiff_t st = job.stride[3];
    uint16_t *dst = job.plane[3] + (ptrdiff_t) job.mb_y * 16 * st + job.mb_x * 16;
    for (int32_t y = 0; y < 16; y++)
      for (int32_t x = 0; x < width; x++)
        dst[y * st + x] = alpha[y * width + x];
  }
  return SliceStatus::kOk;
}

} // namespace prores
} // namespace gpc
