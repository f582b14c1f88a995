/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-metadata.h"

#include "gpc-bitreader.h"

namespace gpc {
namespace flac {

static uint32_t rd_be (const uint8_t *p, unsigned n)
{
  uint32_t v = 0;
  for (unsigned i = 0; i < n; i++)
    v = (v << 8) | p[i];
  return v;
}

static uint32_t rd_le32 (const uint8_t *p)
{
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

int parse_streaminfo (const uint8_t *body, size_t len, StreamInfo *si)
{
  if (len < 34)
    return kBadMetadata;
  BitReader br (body, 34);
  si->min_blocksize = br.get (16);
  si->max_blocksize = br.get (16);
  si->min_framesize = br.get (24);
  si->max_framesize = br.get (24);
  si->sample_rate = br.get (20);
  si->channels = br.get (3) + 1;
  si->bps = br.get (5) + 1;
  si->total_samples = br.get64 (36);
  for (int i = 0; i < 16; i++)
    si->md5[i] = (uint8_t) br.get (8);
  /* RFC 9639 8.2: block sizes at least 16, max >= min; sample rate non-zero
   * for audio; bit depth 4..32. */
  if (si->min_blocksize < 16 || si->max_blocksize < si->min_blocksize ||
      si->bps < 4 || si->sample_rate == 0)
    return kBadMetadata;
  si->valid = true;
  return kOk;
}

/* Reads a little-endian length-prefixed string of a Vorbis comment. */
static bool vc_string (const uint8_t *p, size_t len, size_t *pos, std::string *out)
{
  if (len - *pos < 4)
    return false;
  uint32_t n = rd_le32 (p + *pos);
  *pos += 4;
  if (len - *pos < n)
    return false;
  out->assign ((const char *) p + *pos, n);
  *pos += n;
  return true;
}

static bool be_string (const uint8_t *p, size_t len, size_t *pos, std::string *out)
{
  if (len - *pos < 4)
    return false;
  uint32_t n = rd_be (p + *pos, 4);
  *pos += 4;
  if (len - *pos < n)
    return false;
  out->assign ((const char *) p + *pos, n);
  *pos += n;
  return true;
}

int parse_block (uint8_t type, const uint8_t *body, size_t len, Metadata *md)
{
  switch (type) {
    case kStreamInfo:
      return parse_streaminfo (body, len, &md->info);
    case kApplication:
      if (len < 4)
        return kBadMetadata;
      md->applications.push_back (rd_be (body, 4));
      return kOk;
    case kSeekTable: {
      if (len % 18)
        return kBadMetadata;
      md->seektable.clear ();
      for (size_t i = 0; i < len; i += 18) {
        SeekPoint sp;
        sp.sample = (uint64_t) rd_be (body + i, 4) << 32 | rd_be (body + i + 4, 4);
        sp.offset = (uint64_t) rd_be (body + i + 8, 4) << 32 | rd_be (body + i + 12, 4);
        sp.samples = rd_be (body + i + 16, 2);
        if (sp.sample != ~0ull) /* placeholder points are skipped */
          md->seektable.push_back (sp);
      }
      return kOk;
    }
    case kVorbisComment: {
      size_t pos = 0;
      std::string vendor;
      if (!vc_string (body, len, &pos, &vendor) || len - pos < 4)
        return kBadMetadata;
      uint32_t count = rd_le32 (body + pos);
      pos += 4;
      /* each comment takes at least 4 bytes: refuse absurd counts early */
      if (count > (len - pos) / 4)
        return kBadMetadata;
      std::vector<std::string> list;
      list.reserve (count);
      for (uint32_t i = 0; i < count; i++) {
        std::string c;
        if (!vc_string (body, len, &pos, &c))
          return kBadMetadata;
        list.push_back (std::move (c));
      }
      md->vendor = std::move (vendor);
      md->comments = std::move (list);
      md->has_comments = true;
      return kOk;
    }
    case kCueSheet: {
      if (len < 396)
        return kBadMetadata;
      CueSheet cs;
      size_t n = 0;
      while (n < 128 && body[n])
        n++;
      cs.catalog.assign ((const char *) body, n);
      cs.lead_in = (uint64_t) rd_be (body + 128, 4) << 32 | rd_be (body + 132, 4);
      cs.cd = body[136] & 0x80;
      cs.tracks = body[395];
      md->cuesheet = cs;
      md->has_cuesheet = true;
      return kOk;
    }
    case kPicture: {
      Picture pic;
      size_t pos = 0;
      if (len < 4)
        return kBadMetadata;
      pic.type = rd_be (body, 4);
      pos = 4;
      if (!be_string (body, len, &pos, &pic.mime) ||
          !be_string (body, len, &pos, &pic.description) || len - pos < 20)
        return kBadMetadata;
      pic.width = rd_be (body + pos, 4);
      pic.height = rd_be (body + pos + 4, 4);
      pic.depth = rd_be (body + pos + 8, 4);
      pic.colors = rd_be (body + pos + 12, 4);
      uint32_t n = rd_be (body + pos + 16, 4);
      pos += 20;
      if (len - pos < n)
        return kBadMetadata;
      pic.data.assign (body + pos, body + pos + n);
      md->pictures.push_back (std::move (pic));
      return kOk;
    }
    case kInvalidBlock:
      return kBadMetadata;
    default: /* padding and reserved types: nothing to read */
      return kOk;
  }
}

int parse_block_with_header (const uint8_t *data, size_t size, Metadata *md,
    size_t *consumed, bool *last)
{
  if (size < 4)
    return kNeedMore;
  uint8_t type = data[0] & 0x7f;
  uint32_t len = rd_be (data + 1, 3);
  if (size - 4 < len)
    return kNeedMore;
  int r = parse_block (type, data + 4, len, md);
  if (r != kOk)
    return r;
  MetadataBlock b;
  b.type = type;
  b.last = data[0] & 0x80;
  b.offset = 4;
  b.length = len;
  md->blocks.push_back (b);
  *consumed = 4 + (size_t) len;
  *last = b.last;
  return kOk;
}

size_t id3v2_size (const uint8_t *data, size_t size)
{
  if (size < 3)
    return SIZE_MAX;
  if (data[0] != 'I' || data[1] != 'D' || data[2] != '3')
    return 0;
  if (size < 10)
    return SIZE_MAX;
  /* synchsafe 28-bit size, plus a 10-byte footer when flagged */
  size_t n = ((size_t) (data[6] & 0x7f) << 21) | ((size_t) (data[7] & 0x7f) << 14) |
      ((size_t) (data[8] & 0x7f) << 7) | (data[9] & 0x7f);
  return 10 + n + ((data[5] & 0x10) ? 10 : 0);
}

int parse_metadata (const uint8_t *data, size_t size, Metadata *md)
{
  size_t pos = id3v2_size (data, size);
  if (pos == SIZE_MAX)
    return kNeedMore;
  if (size < pos + 4)
    return kNeedMore;
  if (data[pos] != 'f' || data[pos + 1] != 'L' || data[pos + 2] != 'a' || data[pos + 3] != 'C')
    return kBadMetadata;
  pos += 4;
  Metadata tmp;
  bool first = true;
  for (;;) {
    size_t used;
    bool last;
    if (first && size - pos >= 1 && (data[pos] & 0x7f) != kStreamInfo)
      return kBadMetadata; /* STREAMINFO must come first */
    int r = parse_block_with_header (data + pos, size - pos, &tmp, &used, &last);
    if (r != kOk)
      return r;
    tmp.blocks.back ().offset += pos;
    pos += used;
    first = false;
    if (last)
      break;
  }
  if (!tmp.info.valid)
    return kBadMetadata;
  tmp.audio_offset = pos;
  *md = std::move (tmp);
  return kOk;
}

} // namespace flac
} // namespace gpc
