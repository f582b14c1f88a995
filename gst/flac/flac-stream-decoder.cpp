/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-stream-decoder.h"

#include <string.h>

#include "flac-locator.h"
#include "flac-md5.h"

namespace gpc {
namespace flac {

int decode_stream (const uint8_t *data, size_t size, CpuDecoder &dec, DecodedStream *out)
{
  int r = parse_metadata (data, size, &out->md);
  if (r != kOk)
    return r;
  const StreamInfo &si = out->md.info;
  StreamParams params = StreamParams::from_streaminfo (si);
  FrameLocator loc (&dec.pool (), params);
  LocateResult lr;
  loc.expect_stream_start ();
  const uint8_t *audio = data + out->md.audio_offset;
  size_t audio_size = size - out->md.audio_offset;
  loc.locate (audio, audio_size, true, &lr);

  BatchFormat fmt;
  fmt.defaults = params.defaults ();
  fmt.channels = si.channels;
  fmt.bps = si.bps;
  fmt.format = out_format_for_bps (si.bps);
  out->format = fmt.format;

  std::vector<FrameJob> jobs;
  jobs.reserve (lr.frames.size ());
  uint64_t total = 0;
  for (const LocatedFrame &f : lr.frames) {
    if (f.samples == 0)
      continue;
    FrameJob j;
    j.data = audio + f.offset;
    j.size = f.corrupt ? 0 : f.size;
    j.out_sample = total;
    j.samples = f.samples;
    j.silence = f.corrupt;
    j.crc_checked = f.crc_checked;
    if (f.corrupt)
      j.status = kBadCrc16;
    jobs.push_back (j);
    total += f.samples;
  }
  unsigned bytes = out_format_bytes (fmt.format);
  out->pcm.assign (total * si.channels * bytes, 0);
  dec.decode (jobs.data (), jobs.size (), fmt, out->pcm.data ());
  out->samples = total;
  out->frames = jobs.size ();
  size_t ji = 0;
  for (const LocatedFrame &f : lr.frames) {
    if (f.samples == 0)
      continue;
    const FrameJob &j = jobs[ji++];
    if (f.corrupt || j.status != kOk) {
      FrameError e;
      e.frame_number = f.corrupt ? (f.hdr.variable ? f.first_sample : f.hdr.number + 1) : f.hdr.number;
      e.first_sample = f.first_sample;
      e.samples = f.samples;
      e.status = f.corrupt ? kBadCrc16 : j.status;
      out->errors.push_back (e);
    }
  }
  out->md5_checked = si.md5_known ();
  Md5 md5;
  md5.update_samples (out->pcm.data (), total * si.channels, bytes,
      out_format_depth (fmt.format) - si.bps, si.bps);
  md5.finish (out->md5);
  out->md5_ok = memcmp (out->md5, si.md5, 16) == 0;
  return kOk;
}

} // namespace flac
} // namespace gpc
