/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Freshly generated music-like material encoded by Debian's flac at every
 * compression level, 4..32 bits, 1..8 channels and several block sizes must
 * decode bit-exact against `flac -d`, with a matching MD5 signature.
 */
#include <string.h>

#include "flac-md5.h"
#include "flac-stream-decoder.h"
#include "flac-test-gen.h"

using namespace gpc::flac;

namespace {

struct Case {
  unsigned channels, bps, rate;
  double seconds;
  const char *options;
  bool aiff; /* encode from AIFF (any depth) instead of raw (8/16/24/32) */
};

} // namespace

static const Case kCases[] = {
  /* every level, CD format */
  { 2, 16, 44100, 1.5, "-0", false }, { 2, 16, 44100, 1.5, "-1", false }, { 2, 16, 44100, 1.5, "-2", false },
  { 2, 16, 44100, 1.5, "-3", false }, { 2, 16, 44100, 1.5, "-4", false }, { 2, 16, 44100, 1.5, "-5", false },
  { 2, 16, 44100, 1.5, "-6", false }, { 2, 16, 44100, 1.5, "-7", false }, { 2, 16, 44100, 1.5, "-8", false },
  /* depths (Debian's flac 1.4.2 reads raw 8/16/24/32 only) */
  { 2, 8, 22050, 1.0, "-5", false }, { 2, 8, 22050, 1.0, "-8", false }, { 2, 24, 96000, 0.7, "-0", false },
  { 2, 24, 96000, 0.7, "-5", false }, { 2, 24, 96000, 0.7, "-8", false }, { 2, 24, 192000, 0.4, "-8 --lax -l 32 -q 15", false },
  { 2, 32, 48000, 0.7, "-0", false }, { 2, 32, 48000, 0.7, "-5", false }, { 2, 32, 48000, 0.7, "-8", false },
  { 1, 32, 48000, 0.7, "-8 --lax -l 32", false },
  /* any depth through AIFF input (see `aiff` below) */
  { 2, 4, 8000, 1.0, "-5 --lax", true }, { 1, 5, 11025, 1.0, "-8 --lax", true },
  { 2, 12, 32000, 1.0, "-8", true }, { 2, 17, 48000, 0.7, "-8 --lax", true },
  { 2, 20, 96000, 0.7, "-8", true }, { 2, 31, 48000, 0.5, "-8 --lax", true },
  /* channels */
  { 1, 16, 44100, 1.0, "-5", false }, { 3, 16, 44100, 0.7, "-5", false }, { 4, 16, 44100, 0.7, "-8", false },
  { 5, 16, 44100, 0.7, "-5", false }, { 6, 24, 48000, 0.7, "-5", false }, { 7, 16, 44100, 0.5, "-8", false },
  { 8, 16, 44100, 0.5, "-5", false }, { 8, 24, 96000, 0.3, "-8", false },
  /* block sizes and partition orders */
  { 2, 16, 44100, 0.5, "-5 --lax -b 16", false }, { 2, 16, 44100, 1.0, "-5 -b 192", false },
  { 2, 16, 44100, 1.0, "-8 --lax -b 1000", false }, { 2, 16, 44100, 1.0, "-8 -b 4608", false },
  { 2, 24, 96000, 1.0, "-8 --lax -b 16384", false }, { 2, 16, 48000, 3.0, "-8 --lax -b 65535", false },
  { 2, 16, 44100, 1.0, "-8 --lax -r 15 -b 32768", false }, { 2, 16, 44100, 1.0, "-7 -e -p", false },
};

int main ()
{
  if (!flac_test::have_flac_tool ())
    gpc_test::skip ("the flac command-line tool is not installed");
  std::string dir = flac_test::scratch_dir ("generated");
  CpuDecoder dec (0);
  unsigned index = 0;
  for (const Case &c : kCases) {
    index++;
    gpc_test::Rng rng = gpc_test::rng (c.options);
    size_t frames = (size_t) (c.seconds * c.rate);
    auto pcm = flac_test::music (rng, c.channels, c.bps, c.rate, frames, c.bps == 32);
    auto raw = flac_test::to_raw (pcm, c.bps);
    std::string base = dir + "/case" + std::to_string (index);
    bool encoded;
    if (c.aiff) {
      flac_test::write_aiff (base + ".aiff", pcm, c.channels, c.bps, c.rate);
      encoded = flac_test::encode_aiff (base + ".aiff", base + ".flac", c.options);
      remove ((base + ".aiff").c_str ());
    } else {
      flac_test::write_file (base + ".raw", raw);
      encoded = flac_test::encode (base + ".raw", base + ".flac", c.channels, c.bps, c.rate, c.options);
    }
    if (!encoded) {
      printf ("case %u (%uch %u-bit %s): flac refused, skipped\n", index, c.channels, c.bps, c.options);
      continue;
    }
    std::vector<uint8_t> file, ref;
    CHECK (flac_test::read_file (base + ".flac", &file), "read");
    if (c.aiff) {
      /* flac -d writes raw 8/16/24/32-bit only: the (lossless) input is the
       * reference, flac -t confirms that libFLAC decodes it to that */
      CHECK (flac_test::run ("flac -s -t '" + base + ".flac'") == 0, "case %u: flac -t", index);
      ref = raw;
    } else {
      CHECK (flac_test::reference_decode (base + ".flac", base + ".ref.raw"), "flac -d");
      CHECK (flac_test::read_file (base + ".ref.raw", &ref), "read ref");
      CHECK (ref == raw, "case %u: flac -d does not give the input back", index);
    }

    DecodedStream ds;
    int r = decode_stream (file.data (), file.size (), dec, &ds);
    CHECK (r == kOk, "case %u: %s", index, status_name (r));
    CHECK (ds.errors.empty (), "case %u: %zu frame errors", index, ds.errors.size ());
    CHECK (ds.md5_ok, "case %u: MD5 mismatch", index);
    /* Back to the raw layout: undo the container shift. */
    unsigned cb = out_format_bytes (ds.format);
    unsigned shift = out_format_depth (ds.format) - c.bps;
    std::vector<int32_t> got (ds.samples * c.channels);
    for (size_t i = 0; i < got.size (); i++) {
      int32_t v = cb == 1 ? ((int8_t *) ds.pcm.data ())[i]
          : cb == 2 ? ((int16_t *) ds.pcm.data ())[i] : ((int32_t *) ds.pcm.data ())[i];
      got[i] = v >> shift;
    }
    auto got_raw = flac_test::to_raw (got, c.bps);
    size_t diff = 0;
    while (diff < std::min (got_raw.size (), ref.size ()) && got_raw[diff] == ref[diff])
      diff++;
    CHECK (got_raw == ref, "case %u (%uch %u-bit %s): output differs from flac -d at byte %zu "
        "(%zu vs %zu bytes)", index, c.channels, c.bps, c.options, diff, got_raw.size (), ref.size ());
    printf ("case %2u: %uch %2u-bit %6u Hz %-28s %5zu frames %s\n", index, c.channels, c.bps, c.rate,
        c.options, ds.frames, got_raw == ref && ds.md5_ok ? "bit-exact" : "MISMATCH");
    remove ((base + ".raw").c_str ());
    remove ((base + ".ref.raw").c_str ());
  }
  printf ("%d failures\n", flac_test::failures);
  return flac_test::failures ? 1 : 0;
}
