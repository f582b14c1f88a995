/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Robustness of the ProRes parser and CPU decoder on damaged frames built from
 * the committed vectors: truncation at every length class, corrupted slice
 * index entries, garbage slice payloads, wrong dimensions and other header
 * fields, random bit flips. Each case must end with a clear status (never a
 * crash or an out-of-bounds access: run this under ASan too), and the cases
 * that cannot be valid must be reported as errors.
 */
#include <string.h>

#include <string>
#include <vector>

#include "gpc-test.h"
#include "prores-decoder.h"
#include "prores-test-util.h"

using namespace gpc::prores;
using namespace prores_test;

static int failures = 0;

#define EXPECT(cond, ...)                                  \
  do {                                                     \
    if (!(cond)) {                                         \
      printf ("  FAIL %s:%d: ", __FILE__, __LINE__);       \
      printf (__VA_ARGS__);                                \
      printf ("\n");                                       \
      failures++;                                          \
    }                                                      \
  } while (0)

static Status decode (const std::vector<uint8_t> &d, std::string *err, uint32_t depth = 0)
{
  DecodeOptions o;
  o.bit_depth = depth;
  DecodedFrame f;
  /* A copy of exactly the given size: ASan sees any read past its end. */
  std::vector<uint8_t> copy (d);
  return decode_frame (copy.empty () ? nullptr : copy.data (), copy.size (), o, &f, err);
}

static void wr16 (std::vector<uint8_t> &d, size_t at, uint32_t v)
{
  d[at] = (uint8_t) (v >> 8);
  d[at + 1] = (uint8_t) v;
}

static void test_vector (const std::string &name, const std::vector<uint8_t> &frame,
    gpc_test::Rng &rng)
{
  printf ("%s (%zu bytes)\n", name.c_str (), frame.size ());
  std::string err;
  Frame fr;
  EXPECT (parse_frame (frame.data (), frame.size (), &fr, &err) == Status::kOk, "%s", err.c_str ());
  EXPECT (decode (frame, &err) == Status::kOk, "intact frame: %s", err.c_str ());
  const Picture &p0 = fr.picture[0];
  const size_t first_end = p0.slice_offset.back () + p0.slice_size.back ();

  /* 1. Truncation: every length up to 64, then a spread, then the last bytes. */
  int errors = 0, cases = 0;
  std::vector<size_t> lengths;
  for (size_t n = 0; n < 64 && n < frame.size (); n++)
    lengths.push_back (n);
  for (int i = 0; i < 200; i++)
    lengths.push_back ((size_t) rng.range (0, (int64_t) frame.size () - 1));
  for (size_t n = frame.size () > 16 ? frame.size () - 16 : 0; n < frame.size (); n++)
    lengths.push_back (n);
  for (size_t n : lengths) {
    std::vector<uint8_t> t (frame.begin (), frame.begin () + n);
    Status s = decode (t, &err);
    cases++;
    if (s != Status::kOk)
      errors++;
    /* Whatever cuts into the first picture cannot decode cleanly. */
    if (n < first_end)
      EXPECT (s != Status::kOk, "truncated to %zu of %zu bytes but decoded ok", n, frame.size ());
  }
  printf ("  truncation: %d cases, %d errors (e.g. \"%s\")\n", cases, errors, err.c_str ());

  /* An interlaced frame cut right after its first field: FFmpeg decodes it
   * (one field); we do too and say so. */
  if (fr.header.interlaced ()) {
    std::vector<uint8_t> t (frame.begin (), frame.begin () + p0.offset + p0.data_size);
    DecodeOptions o;
    DecodedFrame f;
    Status s = decode_frame (t.data (), t.size (), o, &f, &err);
    EXPECT (s == Status::kOk && f.pictures == 1, "first field only: %s, %u pictures",
        status_name (s), f.pictures);
    printf ("  first field only: %s, %u picture(s)\n", status_name (s), f.pictures);
  }

  /* 2. Corrupt slice index entries. */
  const size_t index_at = p0.offset + p0.header_size;
  const uint32_t bad_sizes[] = { 0, 1, 5, 0xffff, 0x8000 };
  cases = errors = 0;
  for (uint32_t bad : bad_sizes) {
    for (uint32_t which : { 0u, p0.slice_count / 2, p0.slice_count - 1 }) {
      std::vector<uint8_t> t (frame);
      wr16 (t, index_at + 2 * which, bad);
      Status s = decode (t, &err);
      cases++;
      errors += s != Status::kOk;
      /* Below 6 bytes a slice is rejected; 0x8000 and up overrun the frame
       * unless this is the last slice of a large frame; either way an error. */
      if (bad < 6 || (bad == 0xffff && frame.size () < 0xffff))
        EXPECT (s != Status::kOk, "slice %u size %u accepted", which, bad);
    }
  }
  for (int i = 0; i < 200; i++) {
    std::vector<uint8_t> t (frame);
    wr16 (t, index_at + 2 * (size_t) rng.range (0, p0.slice_count - 1), (uint32_t) rng.range (0, 0xffff));
    decode (t, &err);
    cases++;
  }
  printf ("  slice sizes: %d cases ok (e.g. \"%s\")\n", cases, err.c_str ());

  /* 3. Garbage slices: random payloads, and slice headers with impossible
   * component sizes. */
  cases = errors = 0;
  for (int i = 0; i < 200; i++) {
    std::vector<uint8_t> t (frame);
    const uint32_t sl = (uint32_t) rng.range (0, p0.slice_count - 1);
    const size_t at = p0.slice_offset[sl], n = p0.slice_size[sl];
    const size_t from = i < 100 ? 0 : (size_t) rng.range (0, (int64_t) n - 1);
    for (size_t k = from; k < n; k++)
      t[at + k] = (uint8_t) rng.bits (8);
    errors += decode (t, &err) != Status::kOk;
    cases++;
  }
  {
    std::vector<uint8_t> t (frame);
    const size_t at = p0.slice_offset[0];
    wr16 (t, at + 2, 0xffff); /* luma size beyond the slice */
    EXPECT (decode (t, &err) == Status::kBadSlice, "oversized luma accepted");
    cases++;
  }
  printf ("  garbage slices: %d cases, %d errors (e.g. \"%s\")\n", cases, errors, err.c_str ());

  /* 4. Header fields. */
  struct Mod {
    const char *what;
    size_t at;
    int bytes;
    uint32_t value;
    Status expect;
  };
  const Mod mods[] = {
    { "signature", 4, 1, 'X', Status::kBadSignature },
    { "header size 65535", 8, 2, 0xffff, Status::kOk /* any error */ },
    { "version 2", 10, 2, 2, Status::kUnsupported },
    { "width 0", 16, 2, 0, Status::kBadFrameHeader },
    { "height 0", 18, 2, 0, Status::kBadFrameHeader },
    { "width x2", 16, 2, fr.header.width * 2, Status::kOk /* any error */ },
    { "height x2", 18, 2, fr.header.height * 2, Status::kOk },
    { "width 65535", 16, 2, 65535, Status::kOk },
    { "alpha type 3", 25, 1, 3, Status::kBadFrameHeader },
    { "slice height 2", p0.offset + 7, 1, 0x31, Status::kUnsupported },
    { "slice width 16", p0.offset + 7, 1, 0x40, Status::kUnsupported },
    { "picture header size 0", p0.offset, 1, 0, Status::kBadPictureHeader },
    { "picture size past end", p0.offset + 1, 2, 0xffff, Status::kTruncated },
  };
  for (const Mod &m : mods) {
    std::vector<uint8_t> t (frame);
    if (m.bytes == 2)
      wr16 (t, m.at, m.value);
    else
      t[m.at] = (uint8_t) m.value;
    Status s = decode (t, &err);
    if (m.expect == Status::kOk)
      EXPECT (s != Status::kOk, "%s: accepted", m.what);
    else
      EXPECT (s == m.expect, "%s: got %s (%s), expected %s", m.what, status_name (s), err.c_str (),
          status_name (m.expect));
    printf ("  %-24s -> %s: %s\n", m.what, status_name (s), err.c_str ());
  }

  /* 5. Random bit flips anywhere, including the headers. */
  for (int i = 0; i < 300; i++) {
    std::vector<uint8_t> t (frame);
    const int flips = (int) rng.range (1, 8);
    for (int k = 0; k < flips; k++) {
      const size_t at = (size_t) rng.range (0, (int64_t) t.size () - 1);
      t[at] ^= (uint8_t) (1u << rng.range (0, 7));
    }
    decode (t, &err);
    decode (t, &err, 12);
  }
  printf ("  bit flips: 300 cases survived\n");
}

int main ()
{
  std::string dir = gpc_test::media_dir ();
  if (dir.empty ())
    gpc_test::skip ("GPC_MEDIA_DIR not set");
  gpc_test::Rng rng = gpc_test::rng ("prores-robustness");
  const char *names[] = { "ks_proxy_336x200.mov", "ks_4444_alpha8_346x202.mov",
    "ks_standard_bff_346x202.mov", "aw_4444_alpha_336x200.mov", "ks_hq_66x34.mov" };
  int tested = 0;
  for (const char *n : names) {
    std::vector<uint8_t> data;
    std::vector<Span> frames;
    if (!read_file (dir + "/prores/" + n, &data) || !mov_prores_frames (data, &frames)) {
      printf ("cannot read %s\n", n);
      failures++;
      continue;
    }
    std::vector<uint8_t> frame (data.begin () + frames[0].offset,
        data.begin () + frames[0].offset + frames[0].size);
    test_vector (n, frame, rng);
    tested++;
  }

  /* Tiny and empty inputs. */
  std::string err;
  EXPECT (decode ({}, &err) == Status::kTruncated, "empty input");
  EXPECT (decode (std::vector<uint8_t> (27, 0), &err) == Status::kTruncated, "27 bytes");
  ProbeInfo pi;
  EXPECT (probe (nullptr, 0, &pi, &err) == Status::kTruncated, "probe of nothing");

  printf ("%d vectors, %d failures\n", tested, failures);
  return failures ? 1 : 0;
}
