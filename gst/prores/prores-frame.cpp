/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "prores-frame.h"

#include <stdarg.h>
#include <string.h>

#include <cstdio>

namespace gpc {
namespace prores {

const char *status_name (Status s)
{
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kTruncated: return "truncated";
    case Status::kBadSignature: return "bad signature";
    case Status::kBadFrameHeader: return "bad frame header";
    case Status::kBadPictureHeader: return "bad picture header";
    case Status::kBadSliceTable: return "bad slice table";
    case Status::kBadSlice: return "bad slice";
    case Status::kUnsupported: return "unsupported";
  }
  return "unknown";
}

static uint32_t rb16 (const uint8_t *p) { return (uint32_t) p[0] << 8 | p[1]; }
static uint32_t rb32 (const uint8_t *p) { return (uint32_t) p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

static Status fail (std::string *error, Status s, const char *fmt, ...) __attribute__ ((format (printf, 3, 4)));
static Status fail (std::string *error, Status s, const char *fmt, ...)
{
  if (error) {
    char buf[256];
    va_list ap;
    va_start (ap, fmt);
    vsnprintf (buf, sizeof buf, fmt, ap);
    va_end (ap);
    *error = buf;
  }
  return s;
}

/* FFmpeg needs 28 bytes: the 8-byte atom header plus the fixed 20 bytes of
 * the frame header. */
static constexpr size_t kMinFrameSize = 28;

Status parse_frame_header (const uint8_t *data, size_t size, FrameHeader *h, std::string *error)
{
  if (!data || size < kMinFrameSize)
    return fail (error, Status::kTruncated, "frame of %zu bytes is smaller than the %zu-byte minimum",
        size, kMinFrameSize);
  if (memcmp (data + 4, "icpf", 4) != 0)
    return fail (error, Status::kBadSignature, "no 'icpf' frame identifier at offset 4");
  h->frame_size = rb32 (data);

  const uint8_t *b = data + 8;
  const size_t avail = size - 8;
  h->header_size = rb16 (b);
  if (h->header_size > avail)
    return fail (error, Status::kTruncated, "frame header size %u exceeds the %zu bytes left",
        h->header_size, avail);
  h->version = rb16 (b + 2);
  if (h->version > 1)
    return fail (error, Status::kUnsupported, "unsupported bitstream version %u", h->version);
  memcpy (h->creator, b + 4, 4);
  h->creator[4] = 0;
  for (int i = 0; i < 4; i++)
    if (h->creator[i] < 0x20 || h->creator[i] > 0x7e)
      h->creator[i] = '?';
  h->width = rb16 (b + 8);
  h->height = rb16 (b + 10);
  /* FFmpeg's dimension check: non-zero and (w + 128) * (h + 128) < INT_MAX / 8. */
  if (h->width == 0 || h->height == 0 ||
      (uint64_t) (h->width + 128) * (h->height + 128) >= (uint64_t) INT32_MAX / 8)
    return fail (error, Status::kBadFrameHeader, "invalid frame dimensions %ux%u", h->width, h->height);
  h->chroma_format_code = b[12] >> 6;
  h->interlace_code = (b[12] >> 2) & 3;
  h->aspect_ratio_info = b[13] >> 4;
  h->frame_rate_code = b[13] & 15;
  h->color_primaries = b[14];
  h->transfer_characteristic = b[15];
  h->matrix_coefficients = b[16];
  h->alpha_info = b[17] & 15;
  if (h->alpha_info > 2)
    return fail (error, Status::kBadFrameHeader, "invalid alpha channel type %u", h->alpha_info);
  h->load_luma_matrix = (b[19] & 2) != 0;
  h->load_chroma_matrix = (b[19] & 1) != 0;

  /* The matrices follow the 20 fixed bytes; like FFmpeg, their presence is
   * checked against the data, not against header_size. */
  size_t pos = 20;
  if (h->load_luma_matrix) {
    if (avail - pos < 64)
      return fail (error, Status::kTruncated, "frame header truncated inside the luma matrix");
    memcpy (h->qmat_luma, b + pos, 64);
    pos += 64;
  } else {
    memset (h->qmat_luma, 4, 64);
  }
  if (h->load_chroma_matrix) {
    if (avail - pos < 64)
      return fail (error, Status::kTruncated, "frame header truncated inside the chroma matrix");
    memcpy (h->qmat_chroma, b + pos, 64);
  } else {
    memcpy (h->qmat_chroma, h->qmat_luma, 64);
  }
  return Status::kOk;
}

static Status parse_picture (const uint8_t *data, size_t size, uint32_t offset,
    const FrameHeader &h, Picture *pic, std::string *error)
{
  if (offset >= size)
    return fail (error, Status::kTruncated, "no picture data at offset %u", offset);
  const uint8_t *b = data + offset;
  const size_t avail = size - offset;
  pic->offset = offset;
  pic->header_size = b[0] >> 3;
  if (pic->header_size < 8 || pic->header_size > avail)
    return fail (error, Status::kBadPictureHeader, "picture header size %u invalid (%zu bytes left)",
        pic->header_size, avail);
  pic->data_size = rb32 (b + 1);
  if (pic->data_size > avail)
    return fail (error, Status::kTruncated, "picture size %u exceeds the %zu bytes left",
        pic->data_size, avail);
  pic->written_slice_count = rb16 (b + 5);
  pic->log2_slice_mb_width = b[7] >> 4;
  pic->log2_slice_mb_height = b[7] & 15;
  if (pic->log2_slice_mb_width > 3 || pic->log2_slice_mb_height != 0)
    return fail (error, Status::kUnsupported, "unsupported slice size %ux%u macroblocks",
        1u << pic->log2_slice_mb_width, 1u << pic->log2_slice_mb_height);

  const uint32_t mb_width = h.mb_width (), mb_height = h.picture_mb_height ();
  pic->slice_count = mb_height * slices_per_row (mb_width, pic->log2_slice_mb_width);
  if ((size_t) pic->header_size + 2 * (size_t) pic->slice_count > avail)
    return fail (error, Status::kTruncated, "slice index of %u entries does not fit in %zu bytes",
        pic->slice_count, avail);

  pic->slice_offset.resize (pic->slice_count);
  pic->slice_size.resize (pic->slice_count);
  const uint8_t *index = b + pic->header_size;
  size_t pos = (size_t) offset + pic->header_size + 2 * (size_t) pic->slice_count;
  for (uint32_t i = 0; i < pic->slice_count; i++) {
    const uint32_t n = rb16 (index + 2 * i);
    if (n < 6)
      return fail (error, Status::kBadSliceTable, "slice %u has %u bytes (minimum 6)", i, n);
    if (pos + n > size)
      return fail (error, Status::kTruncated, "slice %u (%u bytes at %zu) extends past the frame end (%zu)",
          i, n, pos, size);
    pic->slice_offset[i] = (uint32_t) pos;
    pic->slice_size[i] = n;
    pos += n;
  }
  return Status::kOk;
}

Status parse_frame (const uint8_t *data, size_t size, Frame *frame, std::string *error)
{
  Status s = parse_frame_header (data, size, &frame->header, error);
  if (s != Status::kOk)
    return s;
  const FrameHeader &h = frame->header;
  frame->num_pictures = 0;

  uint32_t offset = 8 + h.header_size;
  const uint32_t pictures = h.interlaced () ? 2 : 1;
  for (uint32_t p = 0; p < pictures; p++) {
    /* As FFmpeg: a second field is decoded only if data remains. */
    if (p == 1 && offset >= size)
      break;
    Picture &pic = frame->picture[p];
    s = parse_picture (data, size, offset, h, &pic, error);
    if (s != Status::kOk) {
      if (error && p == 1)
        *error = "second field: " + *error;
      return s;
    }
    /* The first picture of a TFF frame is the top field (even rows). */
    pic.bottom_field = h.interlaced () ? (uint32_t) ((p == 0) != h.top_field_first ()) : 0;
    frame->num_pictures++;
    offset += pic.data_size;
  }
  return Status::kOk;
}

Status probe (const uint8_t *data, size_t size, ProbeInfo *info, std::string *error)
{
  FrameHeader h;
  Status s = parse_frame_header (data, size, &h, error);
  if (s != Status::kOk)
    return s;
  info->width = h.width;
  info->height = h.height;
  info->chroma_format = h.chroma_format ();
  info->interlace = h.interlace_code == 0 ? Interlace::kProgressive
      : h.interlace_code == 1 ? Interlace::kTopFieldFirst : Interlace::kBottomFieldFirst;
  info->top_field_first = h.top_field_first ();
  info->alpha_bits = h.alpha_bits ();
  info->bit_depth = h.is_444 () ? 12 : 10;
  info->profile = h.is_444 () ? "4444" : "422";
  memcpy (info->creator, h.creator, 5);
  /* frame_rate_code 1..11 (RDD 36): 24000/1001, 24, 25, 30000/1001, 30, 50,
   * 60000/1001, 60, 100, 120000/1001, 120. */
  static const uint32_t rates[12][2] = { { 0, 0 }, { 24000, 1001 }, { 24, 1 }, { 25, 1 },
    { 30000, 1001 }, { 30, 1 }, { 50, 1 }, { 60000, 1001 }, { 60, 1 }, { 100, 1 },
    { 120000, 1001 }, { 120, 1 } };
  const uint32_t rc = h.frame_rate_code < 12 ? h.frame_rate_code : 0;
  info->fps_n = rates[rc][0];
  info->fps_d = rates[rc][1];
  info->aspect_ratio_info = h.aspect_ratio_info;
  info->color_primaries = h.color_primaries;
  info->transfer_characteristic = h.transfer_characteristic;
  info->matrix_coefficients = h.matrix_coefficients;
  return Status::kOk;
}

uint32_t bit_depth_for_fourcc (const char f[4])
{
  if (!memcmp (f, "ap4h", 4) || !memcmp (f, "ap4x", 4))
    return 12;
  if (!memcmp (f, "apco", 4) || !memcmp (f, "apcs", 4) || !memcmp (f, "apcn", 4) ||
      !memcmp (f, "apch", 4))
    return 10;
  return 0;
}

uint32_t bit_depth_for_variant (const char *v)
{
  if (!v)
    return 0;
  if (!strcmp (v, "4444") || !strcmp (v, "4444xq"))
    return 12;
  if (!strcmp (v, "proxy") || !strcmp (v, "lt") || !strcmp (v, "standard") || !strcmp (v, "hq"))
    return 10;
  return 0;
}

} // namespace prores
} // namespace gpc
