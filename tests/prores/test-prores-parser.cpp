/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Parser details that the encoders at hand never exercise, checked against
 * FFmpeg's known output: frames of the committed vectors are rewritten in
 * ways FFmpeg decodes identically (explicit all-4 matrices instead of the
 * default ones, a chroma matrix left out when equal to the luma one, bitstream
 * version 1, other 4:2:2 chroma codes, a wrong written slice count or frame
 * size, interlace code 3) and must still match the checksums of FFmpeg's
 * decode of the originals. Also: the closed-form slice geometry against the
 * sequential walk, and the caps probe of every vector.
 */
#include <string.h>

#include <glib.h>

#include <functional>
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

static std::string md5_le (const std::vector<uint16_t> &p)
{
  std::vector<uint8_t> le (p.size () * 2);
  for (size_t i = 0; i < p.size (); i++)
    le[2 * i] = (uint8_t) p[i], le[2 * i + 1] = (uint8_t) (p[i] >> 8);
  gchar *s = g_compute_checksum_for_data (G_CHECKSUM_MD5, le.data (), le.size ());
  std::string r = s;
  g_free (s);
  return r;
}

static void test_slice_geometry ()
{
  int checked = 0;
  for (uint32_t mbw = 1; mbw <= 600; mbw++)
    for (uint32_t log2w = 0; log2w <= 3; log2w++) {
      /* The sequential walk: halve the slice size until it fits the row. */
      uint32_t x = 0, size = 1u << log2w, n = 0;
      while (x < mbw) {
        while (mbw - x < size)
          size >>= 1;
        SlicePos sp = slice_position (n, mbw, log2w);
        EXPECT (sp.mb_x == x && sp.mb_count == size && sp.mb_y == 0,
            "mb_width %u log2 %u slice %u: (%u, %u) vs (%u, %u)", mbw, log2w, n, sp.mb_x,
            sp.mb_count, x, size);
        SlicePos next_row = slice_position (n + slices_per_row (mbw, log2w) * 3, mbw, log2w);
        EXPECT (next_row.mb_x == x && next_row.mb_y == 3, "row 3 of mb_width %u", mbw);
        x += size;
        n++;
        checked++;
      }
      EXPECT (n == slices_per_row (mbw, log2w), "slices per row of %u, log2 %u", mbw, log2w);
    }
  printf ("slice geometry: %d slices checked against the sequential walk\n", checked);
}

static std::vector<uint8_t> load_frame (const std::string &name, uint32_t index = 0)
{
  std::vector<uint8_t> data;
  std::vector<Span> frames;
  if (!read_file (gpc_test::media_dir () + "/prores/" + name, &data) ||
      !mov_prores_frames (data, &frames) || frames.size () <= index)
    return {};
  return std::vector<uint8_t> (data.begin () + frames[index].offset,
      data.begin () + frames[index].offset + frames[index].size);
}

static void put16 (std::vector<uint8_t> &d, size_t at, uint32_t v)
{
  d[at] = (uint8_t) (v >> 8), d[at + 1] = (uint8_t) v;
}

static void put32 (std::vector<uint8_t> &d, size_t at, uint32_t v)
{
  put16 (d, at, v >> 16), put16 (d, at + 2, v & 0xffff);
}

/* Inserts `n` bytes of value `v` into the frame header at frame offset `at`,
 * fixing both size fields. */
static void insert_header_bytes (std::vector<uint8_t> &d, size_t at, size_t n, uint8_t v)
{
  d.insert (d.begin () + at, n, v);
  put32 (d, 0, (uint32_t) d.size ());
  put16 (d, 8, (uint32_t) (((d[8] << 8) | d[9]) + n));
}

/* Drops `n` header bytes at frame offset `at`, fixing both size fields. */
static void drop_header_bytes (std::vector<uint8_t> &d, size_t at, size_t n)
{
  d.erase (d.begin () + at, d.begin () + at + n);
  put32 (d, 0, (uint32_t) d.size ());
  put16 (d, 8, (uint32_t) (((d[8] << 8) | d[9]) - n));
}

static void test_rewrites (const std::vector<VectorInfo> &vectors)
{
  struct Rewrite {
    const char *vector;
    const char *what;
    std::function<void (std::vector<uint8_t> &)> apply;
  };
  const Rewrite rewrites[] = {
    { "ks_hq_defaultmat_336x200.mov", "explicit all-4 matrices",
      [] (std::vector<uint8_t> &d) { d[27] = 3; insert_header_bytes (d, 28, 128, 4); } },
    { "ks_hq_defaultmat_336x200.mov", "explicit all-4 luma matrix only",
      [] (std::vector<uint8_t> &d) { d[27] = 2; insert_header_bytes (d, 28, 64, 4); } },
    { "ks_lt_336x200_mbs4.mov", "luma matrix only (chroma = luma)",
      [] (std::vector<uint8_t> &d) { d[27] = 2; drop_header_bytes (d, 28 + 64, 64); } },
    { "ks_4444_alpha8_defaultmat_208x96.mov", "explicit all-4 matrices, 4444",
      [] (std::vector<uint8_t> &d) { d[27] = 3; insert_header_bytes (d, 28, 128, 4); } },
    { "ks_proxy_336x200.mov", "bitstream version 1",
      [] (std::vector<uint8_t> &d) { put16 (d, 10, 1); } },
    { "aw_4444_336x200.mov", "bitstream version 1 on 4:4:4",
      [] (std::vector<uint8_t> &d) { put16 (d, 10, 1); } },
    { "ks_proxy_336x200.mov", "chroma format code 0 (4:2:2)",
      [] (std::vector<uint8_t> &d) { d[20] &= 0x3f; } },
    { "ks_proxy_336x200.mov", "chroma format code 1 (4:2:2)",
      [] (std::vector<uint8_t> &d) { d[20] = (d[20] & 0x3f) | 0x40; } },
    { "ks_proxy_336x200.mov", "wrong frame size field",
      [] (std::vector<uint8_t> &d) { put32 (d, 0, 12345); } },
    { "ks_lt_336x200_mbs4.mov", "wrong written slice count",
      [] (std::vector<uint8_t> &d) {
        const size_t pic = 8 + ((d[8] << 8) | d[9]);
        put16 (d, pic + 5, 7);
      } },
    { "ks_standard_bff_346x202.mov", "interlace code 3 (as BFF)",
      [] (std::vector<uint8_t> &d) { d[20] |= 0x0c; } },
  };
  for (const Rewrite &r : rewrites) {
    const VectorInfo *v = nullptr;
    for (const VectorInfo &c : vectors)
      if (c.file == r.vector)
        v = &c;
    std::vector<uint8_t> frame = load_frame (r.vector);
    if (!v || frame.empty ()) {
      printf ("FAIL %s: vector missing\n", r.vector);
      failures++;
      continue;
    }
    r.apply (frame);
    DecodeOptions opts;
    opts.bit_depth = bit_depth_for_fourcc (v->fourcc.c_str ());
    DecodedFrame f;
    std::string err;
    Status s = decode_frame (frame.data (), frame.size (), opts, &f, &err);
    bool ok = s == Status::kOk && f.num_planes == v->md5[0].size ();
    for (uint32_t p = 0; ok && p < f.num_planes; p++)
      ok = md5_le (f.plane[p]) == v->md5[0][p];
    printf ("%s %-28s %-34s %s\n", ok ? "PASS" : "FAIL", r.vector, r.what,
        s == Status::kOk ? (ok ? "matches ffmpeg" : "differs from ffmpeg") : err.c_str ());
    failures += !ok;
  }
}

static void test_probe (const std::vector<VectorInfo> &vectors)
{
  for (const VectorInfo &v : vectors) {
    std::vector<uint8_t> frame = load_frame (v.file);
    ProbeInfo pi;
    std::string err;
    if (probe (frame.data (), frame.size (), &pi, &err) != Status::kOk) {
      printf ("FAIL probe %s: %s\n", v.file.c_str (), err.c_str ());
      failures++;
      continue;
    }
    const bool is444 = v.pix_fmt.find ("444") != std::string::npos;
    const bool alpha = v.pix_fmt.compare (0, 4, "yuva") == 0;
    const bool tff = v.file.find ("_tff") != std::string::npos;
    const bool bff = v.file.find ("_bff") != std::string::npos;
    const bool a8 = v.file.find ("alpha8") != std::string::npos;
    EXPECT (pi.width == v.width && pi.height == v.height, "%s size", v.file.c_str ());
    EXPECT ((pi.chroma_format == ChromaFormat::k444) == is444, "%s chroma", v.file.c_str ());
    EXPECT ((pi.alpha_bits != 0) == alpha, "%s alpha", v.file.c_str ());
    EXPECT (!a8 || pi.alpha_bits == 8, "%s alpha8", v.file.c_str ());
    EXPECT ((pi.interlace == Interlace::kTopFieldFirst) == tff &&
            (pi.interlace == Interlace::kBottomFieldFirst) == bff,
        "%s interlacing", v.file.c_str ());
    EXPECT (pi.bit_depth == bit_depth_for_fourcc (v.fourcc.c_str ()), "%s depth", v.file.c_str ());
  }
  /* Frame rate, aspect ratio and colour fields (encoders at hand leave them
   * unspecified): rewritten into a frame. */
  std::vector<uint8_t> f = load_frame ("ks_proxy_336x200.mov");
  const struct {
    uint8_t code;
    uint32_t n, d;
  } rates[] = { { 0, 0, 0 }, { 1, 24000, 1001 }, { 3, 25, 1 }, { 7, 60000, 1001 }, { 11, 120, 1 },
    { 12, 0, 0 }, { 15, 0, 0 } };
  for (const auto &r : rates) {
    f[21] = (uint8_t) (0x30 | r.code); /* 16:9, rate code */
    f[22] = 1, f[23] = 1, f[24] = 1;   /* BT.709 */
    ProbeInfo pi;
    std::string err;
    EXPECT (probe (f.data (), f.size (), &pi, &err) == Status::kOk && pi.fps_n == r.n &&
            pi.fps_d == r.d && pi.aspect_ratio_info == 3 && pi.color_primaries == 1 &&
            pi.transfer_characteristic == 1 && pi.matrix_coefficients == 1,
        "frame rate code %u: %u/%u", r.code, pi.fps_n, pi.fps_d);
  }
  printf ("probe: %zu vectors checked, frame rate codes checked\n", vectors.size ());
}

/* skip_alpha (FFmpeg's AVCodecContext.skip_alpha): the same Y, Cb, Cr. */
static void test_skip_alpha (const std::vector<VectorInfo> &vectors)
{
  int checked = 0;
  for (const VectorInfo &v : vectors) {
    if (v.pix_fmt.compare (0, 4, "yuva") != 0)
      continue;
    std::vector<uint8_t> frame = load_frame (v.file);
    DecodeOptions opts;
    opts.bit_depth = bit_depth_for_fourcc (v.fourcc.c_str ());
    opts.skip_alpha = true;
    DecodedFrame f;
    std::string err;
    Status s = decode_frame (frame.data (), frame.size (), opts, &f, &err);
    bool ok = s == Status::kOk && f.num_planes == 3 && f.pix_fmt ().compare (0, 4, "yuva") != 0;
    for (uint32_t p = 0; ok && p < 3; p++)
      ok = md5_le (f.plane[p]) == v.md5[0][p];
    EXPECT (ok, "%s with skip_alpha: %s", v.file.c_str (), err.c_str ());
    checked++;
  }
  printf ("skip_alpha: %d alpha vectors checked\n", checked);
}

int main ()
{
  test_slice_geometry ();
  std::string dir = gpc_test::media_dir ();
  std::vector<VectorInfo> vectors;
  if (dir.empty () || !read_checksums (dir + "/prores/checksums.txt", &vectors))
    gpc_test::skip ("no tests/media/prores/checksums.txt");
  test_rewrites (vectors);
  test_probe (vectors);
  test_skip_alpha (vectors);
  printf ("%d failures\n", failures);
  return failures ? 1 : 0;
}
