/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * FLAC metadata (RFC 9639 section 8): the "fLaC" marker and the metadata
 * blocks before the first frame. STREAMINFO, PADDING, APPLICATION,
 * SEEKTABLE, VORBIS_COMMENT, CUESHEET and PICTURE are parsed; reserved block
 * types are skipped. Host only.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <vector>

#include "flac-format.h"

namespace gpc {
namespace flac {

enum BlockType : uint8_t {
  kStreamInfo = 0,
  kPadding = 1,
  kApplication = 2,
  kSeekTable = 3,
  kVorbisComment = 4,
  kCueSheet = 5,
  kPicture = 6,
  kInvalidBlock = 127,
};

struct MetadataBlock {
  uint8_t type = 0;
  bool last = false;
  size_t offset = 0; /* of the block body, in the parsed buffer */
  uint32_t length = 0;
};

struct SeekPoint {
  uint64_t sample = 0;
  uint64_t offset = 0; /* from the first frame */
  uint32_t samples = 0;
};

struct Picture {
  uint32_t type = 0;
  std::string mime, description;
  uint32_t width = 0, height = 0, depth = 0, colors = 0;
  std::vector<uint8_t> data;
};

struct CueSheet {
  std::string catalog;
  uint64_t lead_in = 0;
  bool cd = false;
  unsigned tracks = 0;
};

struct Metadata {
  StreamInfo info;
  std::vector<MetadataBlock> blocks;
  std::string vendor;
  std::vector<std::string> comments; /* "NAME=value" */
  bool has_comments = false;
  std::vector<SeekPoint> seektable;
  std::vector<Picture> pictures;
  std::vector<uint32_t> applications; /* application ids */
  CueSheet cuesheet;
  bool has_cuesheet = false;
  size_t audio_offset = 0; /* first byte after the last metadata block */
};

int parse_streaminfo (const uint8_t *body, size_t len, StreamInfo *si);

/* Parses one block body of the given type into md. */
int parse_block (uint8_t type, const uint8_t *body, size_t len, Metadata *md);

/* Parses a 4-byte block header plus body at data. On kOk *consumed is the
 * block's total size and *last tells if it was the last metadata block. */
int parse_block_with_header (const uint8_t *data, size_t size, Metadata *md,
    size_t *consumed, bool *last);

/* Size of an ID3v2 tag at data (0 if none, SIZE_MAX if more data is needed). */
size_t id3v2_size (const uint8_t *data, size_t size);

/* Parses a whole stream start: optional ID3v2 tag, "fLaC", metadata blocks.
 * kOk: md->audio_offset is where frames begin. kNeedMore: feed more data. */
int parse_metadata (const uint8_t *data, size_t size, Metadata *md);

} // namespace flac
} // namespace gpc
