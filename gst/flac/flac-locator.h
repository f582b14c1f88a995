/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Finds the frames of an unframed FLAC byte stream, in parallel.
 *
 * 1. Scan (parallel over byte ranges): every 0xFFF8/0xFFF9 at a byte
 *    position whose header parses, passes CRC-8 and matches the stream
 *    parameters becomes a candidate.
 * 2. Ends (parallel over candidates): a candidate's end is the first later
 *    candidate at which the running CRC-16 from the candidate is zero (a
 *    frame followed by its own CRC-16 checks to zero), or the end of the data.
 * 3. Chain (sequential, cheap): starting at the expected position, follow
 *    ends whose next frame continues the frame/sample numbering. False syncs
 *    inside frames are never on the chain. Where the chain breaks (corrupt or
 *    truncated data), it resumes at the next candidate that continues the
 *    numbering and is itself followed by a continuing frame; the gap becomes
 *    a "corrupt" entry whose duration is derived from the numbering.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "flac-format.h"
#include "flac-locate-scan.h"
#include "gpc-threadpool.h"

namespace gpc {
namespace flac {

struct StreamParams {
  uint32_t sample_rate = 0; /* 0 = unknown */
  uint32_t channels = 0;
  uint32_t bps = 0;
  uint32_t max_blocksize = 0;
  uint32_t max_framesize = 0;
  bool legacy_variable = false; /* see StreamDefaults */
  uint64_t total_samples = 0;   /* 0 = unknown */
  /* Candidates may have any rate, channel count, depth and block size (a
   * stream whose format changes): the values above then serve only as the
   * defaults that header codes refer to and to bound frame sizes. */
  bool any_format = false;

  static StreamParams from_streaminfo (const StreamInfo &si);
  StreamDefaults defaults () const;
  /* Does a parsed header agree with the stream? */
  bool matches (const FrameHeader &h) const;
  /* The same, flattened for the scan functions the GPU runs too. */
  ScanParams scan_params () const;
  /* Upper bound of a frame's size, for bounding searches. */
  size_t frame_bound () const;
};

struct LocatedFrame {
  size_t offset = 0;     /* in the chunk */
  size_t size = 0;       /* bytes, CRC-16 included */
  FrameHeader hdr;       /* of the frame; for corrupt entries, the last good one */
  uint64_t first_sample = 0;
  uint32_t samples = 0;  /* duration: blocksize, or silence for corrupt entries */
  bool corrupt = false;  /* no decodable frame here: output `samples` of silence */
  bool crc_checked = false; /* [offset, offset+size) is one frame whose CRC-16 checked */
};

/* A candidate found by the GPU scan: its position and end (flac-locate-scan.h
 * walk_end: offset of the candidate that ends it, the data size, or -1). */
struct FoundCandidate {
  uint64_t offset;
  int64_t end;
};

struct LocateResult {
  std::vector<LocatedFrame> frames;
  size_t consumed = 0;   /* bytes of the chunk that are done with */
};

class FrameLocator {
 public:
  FrameLocator (ThreadPool *pool, const StreamParams &params) : pool_ (pool), params_ (params) {}

  void set_params (const StreamParams &p) { params_ = p; }
  const StreamParams &params () const { return params_; }

  /* Forgets the numbering (after a seek or flush): the next chunk starts
   * wherever two consecutive frames are found. */
  void reset () { have_prev_ = false; at_stream_start_ = false; }

  /* The next chunk starts right after the metadata: its first frame is frame
   * 0, so a damaged start is reported and filled instead of skipped. */
  void expect_stream_start () { have_prev_ = false; at_stream_start_ = true; }

  /* Locates frames in data[0, size). Unless `final`, a frame that may run past
   * the chunk is left for the next call (data from `consumed` on must be
   * passed again, followed by new data). */
  void locate (const uint8_t *data, size_t size, bool final, LocateResult *out);

  /* The same, with steps 1 and 2 done elsewhere (the CUDA backend's scan):
   * `found` holds every candidate of data[0, size) with its end, in any
   * order. Gives the result locate() gives for the same data. */
  void locate_found (const uint8_t *data, size_t size, bool final, const FoundCandidate *found,
      size_t n, LocateResult *out);

 private:
  struct Candidate {
    size_t offset;
    FrameHeader hdr;
    int64_t end; /* index of the candidate where the frame ends; -1 none; -2 end of data */
  };
  bool continues (const FrameHeader &prev, const FrameHeader &next) const;
  void scan (const uint8_t *data, size_t size, bool final);
  void chain (const uint8_t *data, size_t size, bool final, LocateResult *out);
  void find_ends (const uint8_t *data, size_t size, bool final);
  int64_t end_after (const uint8_t *data, size_t size, bool final, size_t k, size_t from,
      const FrameHeader *must_continue) const;
  bool chained (const uint8_t *data, size_t size, bool final, size_t k) const;

  ThreadPool *pool_;
  StreamParams params_;
  std::vector<Candidate> cands_;
  bool have_prev_ = false;
  bool at_stream_start_ = false;
  FrameHeader prev_;
  uint64_t prev_first_sample_ = 0;
  double bytes_per_sample_ = 0; /* running average of located frames, bounds fill-ins */
};

} // namespace flac
} // namespace gpc
