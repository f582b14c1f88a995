/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Bad input must give clear errors, never a crash, a hang or a read out of
 * bounds (this test is built with AddressSanitizer/UBSan where available):
 * - random bytes, with and without a valid metadata prefix;
 * - random bit flips in frames fed to the frame decoder;
 * - corrupted frames in a real stream: reported, replaced by silence of the
 *   right duration, every other frame still bit-exact;
 * - truncated streams;
 * - false syncs: white noise encoded verbatim is full of 0xFFF8/0xFFF9, and a
 *   complete valid frame (passing CRC-8 and CRC-16, with a plausible frame
 *   number) is planted inside another frame's samples.
 * The random seed is printed; GPC_TEST_SEED=<seed> reproduces a run.
 */
#include <string.h>

#include <algorithm>

#include "flac-frame.h"
#include "flac-locator.h"
#include "flac-stream-decoder.h"
#include "flac-test-gen.h"

using namespace gpc::flac;

static std::vector<uint8_t> encode_pcm (const std::string &base, const std::vector<int32_t> &pcm,
    unsigned ch, const char *options)
{
  flac_test::write_file (base + ".raw", flac_test::to_raw (pcm, 16));
  std::vector<uint8_t> file;
  if (flac_test::encode (base + ".raw", base + ".flac", ch, 16, 44100, options))
    flac_test::read_file (base + ".flac", &file);
  remove ((base + ".raw").c_str ());
  return file;
}

static std::vector<int32_t> noise (gpc_test::Rng &rng, size_t n)
{
  std::vector<int32_t> v (n);
  for (auto &s : v)
    s = (int16_t) rng.bits (16);
  return v;
}

namespace {

/* Samples of every located frame of a clean decode, for per-frame compares. */
struct Layout {
  std::vector<LocatedFrame> frames;
  size_t audio_offset;
};

} // namespace

static Layout layout_of (const std::vector<uint8_t> &file, CpuDecoder &dec)
{
  Metadata md;
  parse_metadata (file.data (), file.size (), &md);
  FrameLocator loc (&dec.pool (), StreamParams::from_streaminfo (md.info));
  LocateResult lr;
  loc.locate (file.data () + md.audio_offset, file.size () - md.audio_offset, true, &lr);
  return Layout { lr.frames, md.audio_offset };
}

static void random_bytes (CpuDecoder &dec, const std::vector<uint8_t> &valid)
{
  gpc_test::Rng rng = gpc_test::rng ("random-bytes");
  for (int iter = 0; iter < 300; iter++) {
    size_t n = (size_t) rng.range (0, 20000);
    std::vector<uint8_t> buf (n);
    for (auto &b : buf)
      b = (uint8_t) rng.bits (8);
    /* half of them behind the valid metadata of a real stream */
    if (iter & 1) {
      Metadata md;
      parse_metadata (valid.data (), valid.size (), &md);
      buf.insert (buf.begin (), valid.begin (), valid.begin () + md.audio_offset);
      /* and sprinkle sync codes */
      for (size_t i = md.audio_offset; i + 1 < buf.size (); i += (size_t) rng.range (1, 300)) {
        buf[i] = 0xff;
        buf[i + 1] = 0xf8 | (uint8_t) rng.bits (1);
      }
    }
    DecodedStream ds;
    decode_stream (buf.data (), buf.size (), dec, &ds);
  }
}

static void mutated_frames (const std::vector<uint8_t> &file, const Layout &lay)
{
  gpc_test::Rng rng = gpc_test::rng ("mutated-frames");
  std::vector<int32_t> planes ((size_t) kMaxChannels * kMaxBlockSize);
  std::vector<int64_t> side (kMaxBlockSize);
  StreamDefaults d;
  d.sample_rate = 44100;
  d.bps = 16;
  int rejected = 0;
  for (int iter = 0; iter < 3000; iter++) {
    const LocatedFrame &f = lay.frames[(size_t) rng.range (0, (int64_t) lay.frames.size () - 1)];
    /* an exact-size copy, so that any over-read is an ASan error */
    size_t n = f.size - (rng.chance (20) ? (size_t) rng.range (0, (int64_t) f.size) : 0);
    std::vector<uint8_t> frame (file.begin () + lay.audio_offset + f.offset,
        file.begin () + lay.audio_offset + f.offset + n);
    unsigned flips = (unsigned) rng.range (1, 8);
    for (unsigned k = 0; k < flips && n > 4; k++) {
      size_t at = (size_t) rng.range (rng.chance (50) ? 0 : 4, (int64_t) n - 1);
      frame[at] ^= (uint8_t) (1u << rng.range (0, 7));
    }
    FrameHeader h;
    if (parse_frame_header (frame.data (), frame.size (), d, &h) != kOk)
      continue;
    FrameBuffers fb { planes.data (), kMaxBlockSize, side.data () };
    size_t fbytes = 0;
    int r = decode_frame (frame.data (), frame.size (), h, fb, &fbytes);
    if (r != kOk)
      rejected++;
  }
  printf ("mutated frames: %d rejected\n", rejected);
}

/* Inputs the fuzzer (fuzz/flac) found, replayed through the same path:
 * first byte = stream defaults as the fuzzer derives them, then a frame. */
static void fuzz_regressions ()
{
  static const std::vector<std::vector<uint8_t>> cases = {
    /* 64 zero bits before a unary stop bit: shifted a 64-bit cache by 64 */
    { 0xff, 0xff, 0xf8, 0x62, 0x62, 0x62, 0xfe, 0xfe, 0x60, 0xfe, 0x02, 0xfe, 0xfe, 0x60, 0xfe, 0x65,
      0xff, 0xff, 0xff, 0xff, 0x01, 0x65, 0x65, 0x01, 0x00, 0x00, 0x00, 0x01, 0x65, 0x00, 0x09, 0x01,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x26 },
  };
  std::vector<int32_t> planes ((size_t) kMaxChannels * kMaxBlockSize);
  std::vector<int64_t> side (kMaxBlockSize);
  for (const auto &c : cases) {
    static const uint32_t rates[4] = { 0, 44100, 48000, 96000 };
    static const uint8_t depths[8] = { 0, 4, 8, 12, 16, 20, 24, 32 };
    StreamDefaults d;
    d.sample_rate = rates[c[0] & 3];
    d.bps = depths[(c[0] >> 2) & 7];
    d.legacy_variable = c[0] & 0x20;
    std::vector<uint8_t> frame (c.begin () + 1, c.end ());
    FrameHeader h;
    if (parse_frame_header (frame.data (), frame.size (), d, &h) != kOk)
      continue;
    FrameBuffers fb { planes.data (), kMaxBlockSize, side.data () };
    size_t bytes;
    decode_frame (frame.data (), frame.size (), h, fb, &bytes);
  }
}

/* Corrupts bytes inside frames; checks reports, silence and the rest. */
static void corrupted_stream (CpuDecoder &dec, const std::vector<uint8_t> &file, const Layout &lay,
    const DecodedStream &clean, const char *what)
{
  gpc_test::Rng rng = gpc_test::rng (what);
  unsigned ch = clean.md.info.channels;
  for (int iter = 0; iter < 20; iter++) {
    std::vector<uint8_t> bad = file;
    std::vector<bool> hit (lay.frames.size (), false);
    unsigned count = (unsigned) rng.range (1, 4);
    for (unsigned k = 0; k < count; k++) {
      size_t fi = (size_t) rng.range (0, (int64_t) lay.frames.size () - 1);
      const LocatedFrame &f = lay.frames[fi];
      size_t at = lay.audio_offset + f.offset + (size_t) rng.range (0, (int64_t) f.size - 1);
      bad[at] ^= (uint8_t) rng.range (1, 255);
      hit[fi] = true;
    }
    DecodedStream ds;
    int r = decode_stream (bad.data (), bad.size (), dec, &ds);
    CHECK (r == kOk, "%s: metadata lost", what);
    if (getenv ("FLAC_TEST_VERBOSE")) {
      for (size_t fi = 0; fi < hit.size (); fi++)
        if (hit[fi])
          printf ("  iter %d: corrupted frame %zu (offset %zu size %zu)\n", iter, fi, lay.frames[fi].offset, lay.frames[fi].size);
      for (const FrameError &e : ds.errors)
        printf ("  iter %d: reported frame %llu sample %llu +%u: %s\n", iter, (unsigned long long) e.frame_number,
            (unsigned long long) e.first_sample, e.samples, status_name (e.status));
    }
    CHECK (ds.samples == clean.samples, "%s iter %d: %llu samples instead of %llu", what, iter,
        (unsigned long long) ds.samples, (unsigned long long) clean.samples);
    CHECK (!ds.errors.empty (), "%s iter %d: corruption not reported", what, iter);
    if (ds.samples != clean.samples)
      continue;
    for (size_t fi = 0; fi < lay.frames.size (); fi++) {
      const LocatedFrame &f = lay.frames[fi];
      size_t off = f.first_sample * ch * 2, len = (size_t) f.samples * ch * 2;
      bool same = memcmp (ds.pcm.data () + off, clean.pcm.data () + off, len) == 0;
      bool silent = std::all_of (ds.pcm.begin () + off, ds.pcm.begin () + off + len,
          [] (uint8_t b) { return b == 0; });
      if (!hit[fi])
        CHECK (same, "%s iter %d: untouched frame %zu differs", what, iter, fi);
      else
        CHECK (same || silent, "%s iter %d: corrupt frame %zu neither intact nor silent", what, iter, fi);
    }
    for (const FrameError &e : ds.errors) {
      size_t fi = (size_t) (e.first_sample / lay.frames[0].samples);
      CHECK (fi < hit.size () && hit[fi], "%s iter %d: error reported at frame %llu that was not touched",
          what, iter, (unsigned long long) e.frame_number);
    }
  }
}

static void truncated_stream (CpuDecoder &dec, const std::vector<uint8_t> &file, const Layout &lay,
    const DecodedStream &clean)
{
  gpc_test::Rng rng = gpc_test::rng ("truncated");
  unsigned ch = clean.md.info.channels;
  for (int iter = 0; iter < 30; iter++) {
    size_t n = (size_t) rng.range (0, (int64_t) file.size () - 1);
    DecodedStream ds;
    int r = decode_stream (file.data (), n, dec, &ds);
    if (n < lay.audio_offset) {
      CHECK (r != kOk, "truncated metadata accepted");
      continue;
    }
    CHECK (r == kOk, "metadata");
    if (getenv ("FLAC_TEST_VERBOSE"))
      for (const FrameError &e : ds.errors)
        printf ("  truncated at %zu: reported frame %llu sample %llu +%u: %s\n", n,
            (unsigned long long) e.frame_number, (unsigned long long) e.first_sample, e.samples,
            status_name (e.status));
    /* every frame that ends before the cut is intact */
    for (const LocatedFrame &f : lay.frames) {
      if (lay.audio_offset + f.offset + f.size > n)
        break;
      size_t off = f.first_sample * ch * 2, len = (size_t) f.samples * ch * 2;
      CHECK (off + len <= ds.pcm.size () && memcmp (ds.pcm.data () + off, clean.pcm.data () + off, len) == 0,
          "truncated at %zu: complete frame at sample %llu wrong", n, (unsigned long long) f.first_sample);
    }
    CHECK (ds.samples <= clean.samples, "truncated stream grew");
  }
}

int main ()
{
  if (!flac_test::have_flac_tool ())
    gpc_test::skip ("the flac command-line tool is not installed");
  std::string dir = flac_test::scratch_dir ("robustness");
  CpuDecoder dec (0);
  gpc_test::Rng rng = gpc_test::rng ("streams");

  /* White noise, verbatim: sync codes everywhere. */
  auto pcm = noise (rng, 44100 * 4 * 2);
  /* Plant a complete valid frame of another stream (block size 16, frame
   * number 11) inside frame 10 (channel 0, big-endian words of verbatim
   * samples map to bytes 1:1 with independent channels). */
  auto other = encode_pcm (dir + "/other", noise (rng, 16 * 2 * 40), 2, "-0 --lax -b 16");
  Layout olay = layout_of (other, dec);
  const LocatedFrame &emb = olay.frames[11];
  const uint8_t *eb = other.data () + olay.audio_offset + emb.offset;
  size_t first = 10 * 4096 + 300;
  for (size_t i = 0; i < (emb.size + 1) / 2; i++) {
    uint8_t hi = eb[2 * i], lo = 2 * i + 1 < emb.size ? eb[2 * i + 1] : 0x5a;
    pcm[(first + i) * 2] = (int16_t) (hi << 8 | lo);
  }
  auto file = encode_pcm (dir + "/noise", pcm, 2, "-0 -b 4096 --no-mid-side");
  CHECK (!file.empty (), "encoding noise");
  if (file.empty ())
    return 1;
  bool planted = std::search (file.begin (), file.end (), eb, eb + emb.size) != file.end ();
  printf ("planted frame (%zu bytes, frame number 11, valid CRC-8 and CRC-16) %s the encoded stream\n",
      emb.size, planted ? "is in" : "is NOT in (flac did not store it verbatim)");

  Layout lay = layout_of (file, dec);
  size_t syncs = 0;
  for (size_t i = lay.audio_offset; i + 1 < file.size (); i++)
    syncs += file[i] == 0xff && (file[i + 1] & 0xfe) == 0xf8;
  DecodedStream clean;
  decode_stream (file.data (), file.size (), dec, &clean);
  printf ("noise stream: %zu frames, %zu sync patterns\n", lay.frames.size (), syncs);
  CHECK (clean.errors.empty () && clean.md5_ok, "noise stream with false syncs does not decode cleanly");
  CHECK (lay.frames.size () == 44, "noise stream: %zu frames located, 44 expected", lay.frames.size ());

  fuzz_regressions ();
  random_bytes (dec, file);
  mutated_frames (file, lay);
  corrupted_stream (dec, file, lay, clean, "corrupt-noise");
  truncated_stream (dec, file, lay, clean);

  /* The same on music (fixed/LPC subframes, Rice codes). */
  auto mus = flac_test::music (rng, 2, 16, 44100, 44100 * 3);
  auto mfile = encode_pcm (dir + "/music", mus, 2, "-8");
  Layout mlay = layout_of (mfile, dec);
  DecodedStream mclean;
  decode_stream (mfile.data (), mfile.size (), dec, &mclean);
  CHECK (mclean.errors.empty () && mclean.md5_ok, "music stream");
  mutated_frames (mfile, mlay);
  corrupted_stream (dec, mfile, mlay, mclean, "corrupt-music");
  truncated_stream (dec, mfile, mlay, mclean);

  printf ("%d failures\n", flac_test::failures);
  return flac_test::failures ? 1 : 0;
}
