/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Checks a frame location done elsewhere (the CUDA kernels, on the host or
 * on the GPU) against the CPU locator: same frames, same sizes, same
 * numbering, same consumed bytes, chunk after chunk.
 */
#pragma once

#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "flac-cpu-decoder.h"
#include "flac-locator.h"
#include "flac-metadata.h"
#include "flac-test-util.h"
#include "gpc-test.h"

namespace flac_test {

using namespace gpc::flac;

/* Locates data[0, size) with loc, as FrameLocator::locate() does. */
typedef std::function<void (FrameLocator &loc, const uint8_t *data, size_t size, bool final, LocateResult *out)>
    GpuLocate;

inline bool same_result (const LocateResult &a, const LocateResult &b)
{
  if (a.consumed != b.consumed || a.frames.size () != b.frames.size ())
    return false;
  for (size_t i = 0; i < a.frames.size (); i++) {
    const LocatedFrame &x = a.frames[i], &y = b.frames[i];
    if (x.offset != y.offset || x.size != y.size || x.first_sample != y.first_sample || x.samples != y.samples ||
        x.corrupt != y.corrupt || x.crc_checked != y.crc_checked || x.hdr.number != y.hdr.number)
      return false;
  }
  return true;
}

/* Locates `data` in chunks of `chunk` bytes (0: at once) with both
 * locators, as the element feeds them, and compares every result. */
inline void check_locate (const std::string &name, const uint8_t *data, size_t size, const StreamParams &params,
    CpuDecoder &dec, size_t chunk, bool stream_start, const GpuLocate &gpu_locate)
{
  FrameLocator cpu (&dec.pool (), params), gpu (&dec.pool (), params);
  if (stream_start) {
    cpu.expect_stream_start ();
    gpu.expect_stream_start ();
  }
  size_t pos = 0, frames = 0;
  std::vector<uint8_t> buf;
  bool same = true;
  while (same) {
    size_t take = chunk ? std::min (chunk, size - pos) : size - pos;
    buf.insert (buf.end (), data + pos, data + pos + take);
    pos += take;
    bool final = pos >= size;
    LocateResult a, b;
    cpu.locate (buf.data (), buf.size (), final, &a);
    gpu_locate (gpu, buf.data (), buf.size (), final, &b);
    same = same_result (a, b);
    frames += a.frames.size ();
    if (final)
      break;
    buf.erase (buf.begin (), buf.begin () + a.consumed);
  }
  CHECK (same, "%s: GPU frame location differs from the CPU locator (chunk %zu)", name.c_str (), chunk);
  printf ("%-70s located alike (chunk %zu, %zu entries)\n", name.c_str (), chunk, frames);
}

inline void check_locate_file (const std::string &name, const std::vector<uint8_t> &file, CpuDecoder &dec,
    const GpuLocate &gl)
{
  Metadata md;
  if (parse_metadata (file.data (), file.size (), &md) != kOk)
    return;
  StreamParams params = StreamParams::from_streaminfo (md.info);
  const uint8_t *audio = file.data () + md.audio_offset;
  size_t n = file.size () - md.audio_offset;
  check_locate (name, audio, n, params, dec, 0, true, gl);
  check_locate (name, audio, n, params, dec, n / 3 + 1, true, gl);
  /* a seek: somewhere inside, numbering unknown */
  check_locate (name + " (from the middle)", audio + n / 2, n - n / 2, params, dec, n / 5 + 1, false, gl);
}

/* The stream with sync codes, copies of real frame headers (CRC-8 intact)
 * and random stretches written over it: many false candidates, some that
 * pass CRC-8, damaged frames and resynchronisation. */
inline void check_locate_noise (gpc_test::Rng &rng, const std::vector<uint8_t> &file, CpuDecoder &dec,
    const GpuLocate &gl)
{
  Metadata md;
  if (parse_metadata (file.data (), file.size (), &md) != kOk)
    return;
  StreamParams params = StreamParams::from_streaminfo (md.info);
  const uint8_t *audio = file.data () + md.audio_offset;
  size_t n = file.size () - md.audio_offset;
  if (n < 4096)
    return;
  std::vector<uint8_t> d (audio, audio + n);
  for (size_t k = 0; k < n / 1500; k++) {
    size_t at = (size_t) rng.range (0, (int64_t) n - 32);
    if (k % 2) { /* a real header somewhere random */
      size_t src = (size_t) rng.range (0, (int64_t) n - 64);
      const uint8_t *sync = (const uint8_t *) memchr (audio + src, 0xff, n - src - 32);
      if (sync)
        memcpy (d.data () + at, sync, 16);
    } else {
      d[at] = 0xff;
      d[at + 1] = (uint8_t) (0xf8 | rng.range (0, 1));
    }
  }
  for (int k = 0; k < 3; k++) {
    size_t len = (size_t) rng.range (1, (int64_t) n / 16);
    size_t at = (size_t) rng.range (0, (int64_t) (n - len));
    for (size_t i = 0; i < len; i++)
      d[at + i] = (uint8_t) rng.range (0, 255);
  }
  check_locate ("stream with false syncs and noise", d.data (), d.size (), params, dec, 0, true, gl);
  check_locate ("stream with false syncs and noise", d.data (), d.size (), params, dec, n / 4 + 1, true, gl);
  check_locate ("stream with false syncs and noise (from the middle)", d.data () + n / 3, n - n / 3, params,
      dec, n / 4 + 1, false, gl);
}

} // namespace flac_test
