/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Element tests of cudaflacdec, built once per backend (GPC_TEST_BACKEND is
 * "cpu", "cuda" or "auto"; the CUDA build exits 77 where no CUDA device is
 * usable; "auto" decodes on the CPU, moves to the GPU where that pays, and
 * falls back to the CPU with a warning where CUDA is wanted but absent).
 * Real pipelines (filesrc ! flacparse ! cudaflacdec, filesrc ! cudaflacdec)
 * must give the same PCM and caps as flacdec (or `flac -d` for 32-bit, which
 * flacdec 1.22 cannot decode); plus GstHarness batching, tags, seeking,
 * corrupt frames, MD5 mismatch warnings and mid-stream parameter changes.
 */
#include <dlfcn.h>
#include <gst/app/gstappsink.h>
#include <gst/audio/audio.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <string.h>

#include <atomic>
#include <string>
#include <algorithm>
#include <vector>

#include "flac-crc.h"
#include "flac-test-gen.h"

#ifndef GPC_TEST_BACKEND
#define GPC_TEST_BACKEND "cpu"
#endif

static std::string g_dir;

namespace {

struct Decoded {
  std::string caps;
  std::vector<uint8_t> pcm;
  std::vector<GstClockTime> pts;
  std::vector<GstClockTime> dur;
  std::vector<std::string> warnings;
  std::string error;
  std::string title;
};

} // namespace

static Decoded run_pipeline (const std::string &desc, GstClockTime seek_to = GST_CLOCK_TIME_NONE)
{
  Decoded d;
  GError *err = NULL;
  GstElement *p = gst_parse_launch ((desc + " ! appsink name=sink sync=false").c_str (), &err);
  fail_unless (p != NULL, "parse %s: %s", desc.c_str (), err ? err->message : "?");
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  GstBus *bus = gst_element_get_bus (p);
  if (GST_CLOCK_TIME_IS_VALID (seek_to)) {
    gst_element_set_state (p, GST_STATE_PAUSED);
    GstStateChangeReturn r = gst_element_get_state (p, NULL, NULL, 10 * GST_SECOND);
    fail_unless (r != GST_STATE_CHANGE_FAILURE, "preroll failed: %s", desc.c_str ());
    fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
        (GstSeekFlags) (GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE), seek_to));
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  while (GstSample *s = gst_app_sink_pull_sample (GST_APP_SINK (sink))) {
    GstBuffer *b = gst_sample_get_buffer (s);
    if (d.caps.empty ()) {
      gchar *c = gst_caps_to_string (gst_sample_get_caps (s));
      d.caps = c;
      g_free (c);
    }
    GstMapInfo map;
    gst_buffer_map (b, &map, GST_MAP_READ);
    d.pcm.insert (d.pcm.end (), map.data, map.data + map.size);
    gst_buffer_unmap (b, &map);
    d.pts.push_back (GST_BUFFER_PTS (b));
    d.dur.push_back (GST_BUFFER_DURATION (b));
    gst_sample_unref (s);
  }
  while (GstMessage *m = gst_bus_pop (bus)) {
    GError *e = NULL;
    gchar *dbg = NULL;
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING) {
      gst_message_parse_warning (m, &e, &dbg);
      d.warnings.push_back (std::string (e->message) + " | " + (dbg ? dbg : ""));
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (m, &e, &dbg);
      d.error = std::string (e->message) + " | " + (dbg ? dbg : "");
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_TAG) {
      GstTagList *tl;
      gst_message_parse_tag (m, &tl);
      gchar *t = NULL;
      if (gst_tag_list_get_string (tl, GST_TAG_TITLE, &t))
        d.title = t;
      g_free (t);
      gst_tag_list_unref (tl);
    }
    if (e)
      g_error_free (e);
    g_free (dbg);
    gst_message_unref (m);
  }
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (p);
  return d;
}

static std::string src (const std::string &path)
{
  gchar *q = g_strescape (path.c_str (), NULL);
  std::string s = std::string ("filesrc location=\"") + q + "\"";
  g_free (q);
  return s;
}

static std::string dec (const char *extra = "")
{
  return std::string ("cudaflacdec backend=" GPC_TEST_BACKEND " ") + extra;
}

static bool g_have_flac_tool = false;

/* Where the flac tool is missing (the GPU machine, say), the committed files
 * of tests/media/flac (generate.sh) stand in; stereo 16-bit cases share g16. */
static std::string media_flac (const char *name, unsigned ch, unsigned bps)
{
  std::string dir = gpc_test::media_dir () + "/flac/";
  std::string p = dir + name + ".flac";
  if (g_file_test (p.c_str (), G_FILE_TEST_EXISTS))
    return p;
  p = dir + "g16.flac";
  if (ch == 2 && bps == 16 && g_file_test (p.c_str (), G_FILE_TEST_EXISTS))
    return p;
  printf ("SKIP (part): %s needs the flac tool or tests/media/flac/%s.flac\n", name, name);
  return "";
}

/* Generates a FLAC file in the scratch folder (once per name). */
static std::string make_flac (const char *name, unsigned ch, unsigned bps, unsigned rate,
    double seconds, const char *options)
{
  if (!g_have_flac_tool)
    return media_flac (name, ch, bps);
  std::string base = g_dir + "/" + name;
  if (g_file_test ((base + ".flac").c_str (), G_FILE_TEST_EXISTS))
    return base + ".flac";
  gpc_test::Rng rng = gpc_test::rng (name);
  auto pcm = flac_test::music (rng, ch, bps, rate, (size_t) (seconds * rate), bps == 32);
  flac_test::write_file (base + ".raw", flac_test::to_raw (pcm, bps));
  fail_unless (flac_test::encode (base + ".raw", base + ".flac", ch, bps, rate, options));
  return base + ".flac";
}

static void expect_same (const Decoded &ref, const Decoded &got, const std::string &what)
{
  fail_unless (got.error.empty (), "%s: error %s", what.c_str (), got.error.c_str ());
  fail_unless (ref.caps == got.caps, "%s: caps\n  %s\nvs flacdec\n  %s", what.c_str (), got.caps.c_str (),
      ref.caps.c_str ());
  fail_unless (ref.pcm.size () == got.pcm.size (), "%s: %zu bytes vs flacdec %zu", what.c_str (),
      got.pcm.size (), ref.pcm.size ());
  fail_unless (ref.pcm == got.pcm, "%s: PCM differs from flacdec", what.c_str ());
  for (const std::string &w : got.warnings)
    fail_unless (w.find ("CUDA unavailable") != std::string::npos, "%s: warning %s", what.c_str (), w.c_str ());
  /* contiguous timestamps, where flacdec's are (flacparse 1.22 stamps every
   * frame of a variable-blocksize stream with 0, and both decoders follow) */
  bool ref_contiguous = true;
  for (size_t i = 1; i < ref.pts.size (); i++)
    ref_contiguous &= ref.pts[i] + 2 >= ref.pts[i - 1] + ref.dur[i - 1] &&
        ref.pts[i] <= ref.pts[i - 1] + ref.dur[i - 1] + 2;
  for (size_t i = 1; ref_contiguous && i < got.pts.size (); i++)
    fail_unless (got.pts[i] == got.pts[i - 1] + got.dur[i - 1] ||
        (got.pts[i] > got.pts[i - 1] + got.dur[i - 1] - 2 && got.pts[i] < got.pts[i - 1] + got.dur[i - 1] + 2),
        "%s: gap at buffer %zu", what.c_str (), i);
}

/* flacdec and cudaflacdec, framed and unframed, on one file. */
static void compare_file (const std::string &path, const char *extra = "")
{
  if (path.empty ())
    return;
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  fail_unless (ref.error.empty (), "flacdec failed on %s: %s", path.c_str (), ref.error.c_str ());
  Decoded framed = run_pipeline (src (path) + " ! flacparse ! " + dec (extra));
  expect_same (ref, framed, path + " (flacparse)");
  Decoded unframed = run_pipeline (src (path) + " ! " + dec (extra));
  expect_same (ref, unframed, path + " (unframed)");
  GST_INFO ("%s: %zu bytes of PCM identical", path.c_str (), ref.pcm.size ());
}

GST_START_TEST (test_generated_vs_flacdec)
{
  compare_file (make_flac ("g16", 2, 16, 44100, 3.0, "-5"));
  compare_file (make_flac ("g16b", 2, 16, 44100, 3.0, "-8 -b 1152"), "batch-frames=3");
  compare_file (make_flac ("g8", 1, 8, 22050, 1.0, "-5"), "chunk-size=65536");
  compare_file (make_flac ("g24x6", 6, 24, 48000, 1.0, "-8"));
  /* frames of unframed input located on the CPU (on CUDA; elsewhere the
   * property changes nothing) */
  compare_file (make_flac ("g16", 2, 16, 44100, 3.0, "-5"), "chunk-size=65536 locate-on-gpu=false");
}
GST_END_TEST;

GST_START_TEST (test_32bit_vs_flac_tool)
{
  std::string path = make_flac ("g32", 2, 32, 48000, 1.0, "-8");
  if (path.empty ())
    return;
  std::vector<uint8_t> ref;
  if (g_have_flac_tool) {
    std::string raw = g_dir + "/g32.ref.raw";
    fail_unless (flac_test::reference_decode (path, raw));
    flac_test::read_file (raw, &ref);
  } else {
    /* no flac -d here: the CPU backend is the reference (and the element
     * checks the STREAMINFO MD5 of both, see expect_same) */
    Decoded c = run_pipeline (src (path) + " ! cudaflacdec backend=cpu");
    fail_unless (c.error.empty () && c.warnings.empty (), "cpu reference failed");
    ref = c.pcm;
  }
  Decoded a = run_pipeline (src (path) + " ! flacparse ! " + dec ());
  fail_unless (a.error.empty (), "%s", a.error.c_str ());
  fail_unless (a.caps.find ("S32LE") != std::string::npos, "caps %s", a.caps.c_str ());
  fail_unless (a.pcm == ref, "32-bit PCM differs from flac -d");
  Decoded b = run_pipeline (src (path) + " ! " + dec ());
  fail_unless (b.pcm == ref, "32-bit PCM (unframed) differs from flac -d");
  for (const std::string &w : a.warnings)
    fail_unless (w.find ("CUDA unavailable") != std::string::npos, "warning %s", w.c_str ());
}
GST_END_TEST;

GST_START_TEST (test_vectors_vs_flacdec)
{
  std::string dir = gpc_test::vector_path ("flac-test-files/subset");
  if (dir.empty ()) {
    printf ("SKIP (part): flac-test-files/subset not found\n");
    return;
  }
  const char *files[] = { "03 - blocksize 16.flac", "14 - wasted bits.flac", "22 - 12 bit per sample.flac",
    "24 - variable blocksize file created with flake revision 264.flac", "37 - 20 bit per sample.flac",
    "38 - 3 channels (3.0).flac",
    "56 - JPG PICTURE.flac", "63 - predictor overflow check, 24-bit.flac",
    "64 - rice partitions with escape code zero.flac" };
  for (const char *f : files)
    compare_file (dir + "/" + f);
}
GST_END_TEST;

/* Every conformance file of the subset, straight from filesrc (frames
 * located by the element) on this variant's backend: the element checks the
 * STREAMINFO MD5 and the sample count at EOS and warns on a mismatch, so no
 * warning may come (but auto's "CUDA unavailable" where there is no GPU). */
GST_START_TEST (test_all_vectors_md5)
{
  std::string dir = gpc_test::vector_path ("flac-test-files/subset");
  if (dir.empty ()) {
    printf ("SKIP (part): flac-test-files/subset not found\n");
    return;
  }
  GDir *d = g_dir_open (dir.c_str (), 0, NULL);
  fail_unless (d != NULL);
  std::vector<std::string> names;
  while (const gchar *n = g_dir_read_name (d))
    if (g_str_has_suffix (n, ".flac"))
      names.push_back (n);
  g_dir_close (d);
  std::sort (names.begin (), names.end ());
  fail_unless (!names.empty ());
  for (const std::string &n : names) {
    Decoded got = run_pipeline (src (dir + "/" + n) + " ! " + dec ());
    fail_unless (got.error.empty (), "%s: %s", n.c_str (), got.error.c_str ());
    fail_unless (!got.pcm.empty (), "%s: no PCM", n.c_str ());
    for (const std::string &w : got.warnings)
      fail_unless (w.find ("CUDA unavailable") != std::string::npos, "%s: %s", n.c_str (), w.c_str ());
  }
  printf ("%zu conformance files through cudaflacdec backend=%s: MD5 and length as STREAMINFO says\n",
      names.size (), GPC_TEST_BACKEND);
}
GST_END_TEST;

/* STREAMINFO's channels and bits per sample (it follows "fLaC" and its
 * block header in the files of these tests). */
static bool streaminfo_format (const std::vector<uint8_t> &f, unsigned *ch, unsigned *bps)
{
  if (f.size () < 42 || memcmp (f.data (), "fLaC", 4) != 0 || (f[4] & 0x7f) != 0)
    return false;
  *ch = ((f[20] >> 1) & 7) + 1;
  *bps = (((f[20] & 1) << 4) | (f[21] >> 4)) + 1;
  return true;
}

/* Little-endian signed sample of `bytes` bytes, its low `bits` bits kept. */
static uint32_t sample_at (const uint8_t *p, unsigned bytes, unsigned bits)
{
  uint32_t v = 0;
  for (unsigned i = 0; i < bytes; i++)
    v |= (uint32_t) p[i] << (8 * i);
  return bits >= 32 ? v : v & ((1u << bits) - 1);
}

/* The decoded output of `path` must be `flac -d`'s, every FLAC channel
 * (RFC order, or the file's channel mask) at the output channel of its
 * position `flac_pos[i]`; an empty flac_pos: unpositioned, in FLAC order. */
static void expect_layout (const std::string &path, const Decoded &got,
    const std::vector<GstAudioChannelPosition> &flac_pos, const std::string &what)
{
  fail_unless (got.error.empty (), "%s: %s", what.c_str (), got.error.c_str ());
  std::vector<uint8_t> file, ref;
  unsigned ch, bps;
  fail_unless (flac_test::read_file (path, &file) && streaminfo_format (file, &ch, &bps));
  std::string raw = g_dir + "/layout.raw";
  fail_unless (flac_test::reference_decode (path, raw) && flac_test::read_file (raw, &ref));
  GstCaps *caps = gst_caps_from_string (got.caps.c_str ());
  GstAudioInfo info;
  fail_unless (caps && gst_audio_info_from_caps (&info, caps), "%s: caps %s", what.c_str (), got.caps.c_str ());
  gst_caps_unref (caps);
  fail_unless_equals_int (GST_AUDIO_INFO_CHANNELS (&info), ch);
  std::vector<unsigned> src_of (ch); /* output channel k carries FLAC channel src_of[k] */
  if (flac_pos.empty ()) {
    fail_unless (GST_AUDIO_INFO_IS_UNPOSITIONED (&info), "%s: positioned: %s", what.c_str (), got.caps.c_str ());
    for (unsigned k = 0; k < ch; k++)
      src_of[k] = k;
  } else {
    fail_unless (!GST_AUDIO_INFO_IS_UNPOSITIONED (&info), "%s: unpositioned", what.c_str ());
    for (unsigned k = 0; k < ch; k++) {
      auto it = std::find (flac_pos.begin (), flac_pos.end (), info.position[k]);
      fail_unless (it != flac_pos.end (), "%s: output channel %u has position %d, not in the expected layout (%s)",
          what.c_str (), k, info.position[k], got.caps.c_str ());
      src_of[k] = (unsigned) (it - flac_pos.begin ());
    }
  }
  const unsigned nb = (bps + 7) / 8, width = GST_AUDIO_INFO_WIDTH (&info) / 8;
  const unsigned depth = GST_AUDIO_INFO_DEPTH (&info), shift = depth - bps;
  const size_t frames = ref.size () / (nb * ch);
  fail_unless (got.pcm.size () == frames * width * ch, "%s: %zu bytes, %zu expected", what.c_str (),
      got.pcm.size (), frames * width * ch);
  for (size_t t = 0; t < frames; t++)
    for (unsigned k = 0; k < ch; k++) {
      uint32_t o = sample_at (got.pcm.data () + (t * ch + k) * width, width, depth);
      uint32_t r = sample_at (ref.data () + (t * ch + src_of[k]) * nb, nb, bps);
      uint32_t want = depth >= 32 ? r << shift : (r << shift) & ((1u << depth) - 1);
      if (o != want)
        fail ("%s: sample %zu of output channel %u is 0x%x, FLAC channel %u has 0x%x", what.c_str (), t, k, o,
            src_of[k], want);
    }
}

GST_START_TEST (test_channel_layouts)
{
  /* RFC 9639 section 9.1.3 for every channel count, and the channel masks
   * of WAVEFORMATEXTENSIBLE_CHANNEL_MASK comments, framed and unframed,
   * sample-exact against flac -d. */
  if (!g_have_flac_tool) {
    printf ("SKIP (part): channel layouts need the flac tool\n");
    return;
  }
  typedef GstAudioChannelPosition P;
  const P FL = GST_AUDIO_CHANNEL_POSITION_FRONT_LEFT, FR = GST_AUDIO_CHANNEL_POSITION_FRONT_RIGHT,
      FC = GST_AUDIO_CHANNEL_POSITION_FRONT_CENTER, LFE = GST_AUDIO_CHANNEL_POSITION_LFE1,
      BL = GST_AUDIO_CHANNEL_POSITION_REAR_LEFT, BR = GST_AUDIO_CHANNEL_POSITION_REAR_RIGHT,
      BC = GST_AUDIO_CHANNEL_POSITION_REAR_CENTER, SL = GST_AUDIO_CHANNEL_POSITION_SIDE_LEFT,
      SR = GST_AUDIO_CHANNEL_POSITION_SIDE_RIGHT, TFL = GST_AUDIO_CHANNEL_POSITION_TOP_FRONT_LEFT,
      TFC = GST_AUDIO_CHANNEL_POSITION_TOP_FRONT_CENTER, MONO = GST_AUDIO_CHANNEL_POSITION_MONO;
  const std::vector<P> rfc[8] = { { MONO }, { FL, FR }, { FL, FR, FC }, { FL, FR, BL, BR }, { FL, FR, FC, BL, BR },
    { FL, FR, FC, LFE, BL, BR }, { FL, FR, FC, LFE, BC, SL, SR }, { FL, FR, FC, LFE, BL, BR, SL, SR } };
  struct Case {
    unsigned ch;
    const char *mask; /* null: none, RFC order */
    std::vector<P> pos; /* empty: unpositioned */
  };
  std::vector<Case> cases;
  for (unsigned ch = 1; ch <= 8; ch++)
    cases.push_back ({ ch, nullptr, rfc[ch - 1] });
  cases.push_back ({ 4, "0x0603", { FL, FR, SL, SR } });
  cases.push_back ({ 6, "0x060F", { FL, FR, FC, LFE, SL, SR } });
  cases.push_back ({ 2, "0x3000", { TFL, TFC } });
  cases.push_back ({ 1, "0x0004", { MONO } });
  cases.push_back ({ 3, "0x0003", {} });       /* fewer speakers than channels */
  cases.push_back ({ 2, "0x40001", {} });      /* a speaker GStreamer has no position for */
  cases.push_back ({ 8, "0x0", {} });          /* no speakers */
  for (const Case &c : cases) {
    std::string name = "layout" + std::to_string (c.ch) + (c.mask ? std::string ("-") + c.mask : "");
    std::string opts = std::string ("-5") + (c.mask ? std::string (" -T WAVEFORMATEXTENSIBLE_CHANNEL_MASK=") + c.mask : "");
    std::string path = make_flac (name.c_str (), c.ch, 16, 44100, 0.3, opts.c_str ());
    expect_layout (path, run_pipeline (src (path) + " ! flacparse ! " + dec ()), c.pos, name + " (flacparse)");
    expect_layout (path, run_pipeline (src (path) + " ! " + dec ()), c.pos, name + " (unframed)");
  }
  std::string dir = gpc_test::vector_path ("flac-test-files/subset");
  if (dir.empty ()) {
    printf ("SKIP (part): flac-test-files/subset not found\n");
  } else {
    for (const char *f : { "38 - 3 channels (3.0).flac", "39 - 4 channels (4.0).flac", "40 - 5 channels (5.0).flac",
             "41 - 6 channels (5.1).flac", "42 - 7 channels (6.1).flac", "43 - 8 channels (7.1).flac" }) {
      std::string path = dir + "/" + f;
      unsigned ch = (unsigned) (f[5] - '0');
      expect_layout (path, run_pipeline (src (path) + " ! flacparse ! " + dec ()), rfc[ch - 1], f);
      expect_layout (path, run_pipeline (src (path) + " ! " + dec ()), rfc[ch - 1], std::string (f) + " (unframed)");
    }
  }
}
GST_END_TEST;

GST_START_TEST (test_harness_batches)
{
  /* flacparse output pushed through a harness in odd-sized input pieces,
   * with batches of 5 frames: every frame comes out once, in order. */
  std::string path = make_flac ("h16", 2, 16, 44100, 2.0, "-5 -b 1024");
  if (path.empty ())
    return;
  std::vector<uint8_t> file;
  flac_test::read_file (path, &file);
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  GstHarness *h = gst_harness_new_parse (("flacparse ! " + dec ("batch-frames=5")).c_str ());
  gst_harness_set_src_caps_str (h, "audio/x-flac");
  gpc_test::Rng rng = gpc_test::rng ("harness");
  for (size_t off = 0; off < file.size ();) {
    size_t n = std::min<size_t> (file.size () - off, (size_t) rng.range (1, 9000));
    GstBuffer *b = gst_buffer_new_memdup (file.data () + off, n);
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
    off += n;
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  std::vector<uint8_t> pcm;
  GstClockTime expect = 0;
  while (GstBuffer *b = gst_harness_try_pull (h)) {
    GstMapInfo map;
    gst_buffer_map (b, &map, GST_MAP_READ);
    pcm.insert (pcm.end (), map.data, map.data + map.size);
    gst_buffer_unmap (b, &map);
    fail_unless (GST_BUFFER_PTS (b) + 2 >= expect && GST_BUFFER_PTS (b) <= expect + 2,
        "pts %" GST_TIME_FORMAT " expected %" GST_TIME_FORMAT, GST_TIME_ARGS (GST_BUFFER_PTS (b)),
        GST_TIME_ARGS (expect));
    expect = GST_BUFFER_PTS (b) + GST_BUFFER_DURATION (b);
    gst_buffer_unref (b);
  }
  fail_unless (pcm == ref.pcm, "harness output differs (%zu vs %zu bytes)", pcm.size (), ref.pcm.size ());
  /* latency reported for the batch */
  GstQuery *q = gst_query_new_latency ();
  gst_harness_teardown (h);
  gst_query_unref (q);
}
GST_END_TEST;

/* Everything a harness has output so far, concatenated. */
static std::vector<uint8_t> pull_pcm (GstHarness *h)
{
  std::vector<uint8_t> pcm;
  while (GstBuffer *b = gst_harness_try_pull (h)) {
    GstMapInfo map;
    gst_buffer_map (b, &map, GST_MAP_READ);
    pcm.insert (pcm.end (), map.data, map.data + map.size);
    gst_buffer_unmap (b, &map);
    gst_buffer_unref (b);
  }
  return pcm;
}

/* Frames as flacparse gives them, and the caps it sets. */
static std::vector<GstBuffer *> parsed_frames (const std::string &path, GstCaps **caps)
{
  GstHarness *p = gst_harness_new_parse ("flacparse");
  gst_harness_set_src_caps_str (p, "audio/x-flac");
  std::vector<uint8_t> file;
  flac_test::read_file (path, &file);
  gst_harness_push (p, gst_buffer_new_memdup (file.data (), file.size ()));
  gst_harness_push_event (p, gst_event_new_eos ());
  *caps = gst_pad_get_current_caps (p->sinkpad);
  std::vector<GstBuffer *> frames;
  while (GstBuffer *f = gst_harness_try_pull (p))
    frames.push_back (f);
  gst_harness_teardown (p);
  return frames;
}

GST_START_TEST (test_live_harness)
{
  /* GstHarness answers latency queries as a live source: every frame
   * (1024 samples, 23 ms, longer than the 20 ms live batch) must come out
   * while the next is pushed, not at EOS, and the latency is one live
   * batch. Without batch-time or batch-frames set, as a user would. */
  std::string path = make_flac ("live", 2, 16, 44100, 2.0, "-5 -b 1024");
  if (path.empty ())
    return;
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  GstCaps *caps;
  std::vector<GstBuffer *> frames = parsed_frames (path, &caps);
  GstHarness *h = gst_harness_new_parse (dec ().c_str ());
  gst_harness_set_src_caps (h, caps); /* takes caps */
  size_t audio_frames = 0;
  for (GstBuffer *f : frames) {
    GstMapInfo map;
    gst_buffer_map (f, &map, GST_MAP_READ);
    bool is_frame = map.size >= 2 && map.data[0] == 0xff && (map.data[1] & 0xfe) == 0xf8;
    gst_buffer_unmap (f, &map);
    fail_unless_equals_int (gst_harness_push (h, f), GST_FLOW_OK);
    if (is_frame)
      audio_frames++;
    fail_unless (gst_harness_buffers_received (h) + 1 >= audio_frames,
        "%u output buffers after %zu frames of a live stream", gst_harness_buffers_received (h), audio_frames);
  }
  fail_unless (audio_frames > 50);
  /* the last frame is shorter than a live batch: it waits for EOS */
  fail_unless (gst_harness_buffers_received (h) + 1 == audio_frames, "%u buffers for %zu frames before EOS",
      gst_harness_buffers_received (h), audio_frames);
  GstClockTime lat = gst_harness_query_latency (h);
  fail_unless (lat == 20 * GST_MSECOND, "latency %" GST_TIME_FORMAT ", expected 20 ms", GST_TIME_ARGS (lat));
  gst_harness_push_event (h, gst_event_new_eos ());
  std::vector<uint8_t> pcm = pull_pcm (h);
  fail_unless (pcm == ref.pcm, "live output differs (%zu vs %zu bytes)", pcm.size (), ref.pcm.size ());
  gst_harness_teardown (h);

  /* Unframed (a live byte stream of a FLAC file): each piece is decoded as
   * it comes, but for the frame whose end the next header shows. */
  std::vector<uint8_t> file;
  flac_test::read_file (path, &file);
  h = gst_harness_new_parse (dec ().c_str ());
  gst_harness_set_src_caps_str (h, "audio/x-flac");
  for (size_t off = 0; off < file.size (); off += 4096) {
    size_t n = std::min<size_t> (4096, file.size () - off);
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_memdup (file.data () + off, n)), GST_FLOW_OK);
    if (off > file.size () / 2)
      fail_unless (gst_harness_buffers_received (h) > 0, "no output from half a live unframed stream");
  }
  lat = gst_harness_query_latency (h);
  GstClockTime frame = gst_util_uint64_scale (1024, GST_SECOND, 44100);
  fail_unless (lat == 20 * GST_MSECOND + frame, "unframed latency %" GST_TIME_FORMAT, GST_TIME_ARGS (lat));
  gst_harness_push_event (h, gst_event_new_eos ());
  pcm = pull_pcm (h);
  fail_unless (pcm == ref.pcm, "live unframed output differs (%zu vs %zu bytes)", pcm.size (), ref.pcm.size ());
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_live_pipeline)
{
  /* The live pipeline of a user: audio must come out while the source
   * goes on (it sends EOS only after 1000 buffers, 23 s), and the latency
   * the pipeline sees includes ours. */
  if (!gst_element_factory_find ("flacenc")) {
    printf ("SKIP (part): flacenc missing\n");
    return;
  }
  std::string desc = "audiotestsrc is-live=true num-buffers=1000 ! flacenc ! flacparse ! " + dec ("name=dec") +
      " ! appsink name=sink sync=false";
  GstElement *p = gst_parse_launch (desc.c_str (), NULL);
  fail_unless (p != NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
  gst_element_set_state (p, GST_STATE_PLAYING);
  for (int i = 0; i < 3; i++) {
    GstSample *smp = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 20 * GST_SECOND);
    fail_unless (smp != NULL, "no output buffer %d from a live pipeline", i);
    fail_if (gst_app_sink_is_eos (GST_APP_SINK (sink)));
    gst_sample_unref (smp);
  }
  GstElement *d = gst_bin_get_by_name (GST_BIN (p), "dec");
  GstPad *pad = gst_element_get_static_pad (d, "src");
  GstQuery *q = gst_query_new_latency ();
  fail_unless (gst_pad_query (pad, q));
  gboolean live;
  GstClockTime min, max;
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  GstQuery *uq = gst_query_new_latency ();
  GstPad *sinkpad = gst_element_get_static_pad (d, "sink");
  fail_unless (gst_pad_peer_query (sinkpad, uq));
  GstClockTime umin;
  gst_query_parse_latency (uq, NULL, &umin, NULL);
  fail_unless (min == umin + 20 * GST_MSECOND, "latency %" GST_TIME_FORMAT " upstream %" GST_TIME_FORMAT,
      GST_TIME_ARGS (min), GST_TIME_ARGS (umin));
  gst_query_unref (uq);
  gst_query_unref (q);
  gst_object_unref (sinkpad);
  gst_object_unref (pad);
  gst_object_unref (d);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (p);
}
GST_END_TEST;

GST_START_TEST (test_first_batch_small)
{
  /* Not live: the first output buffer holds the small first batch (16
   * frames, or the first 256 KiB chunk unframed), and batches grow from
   * there, up to the default size. */
  std::string path = make_flac ("ramp", 2, 16, 44100, 30.0, "-5 -b 1024");
  if (path.empty ())
    return;
  for (const char *chain : { " ! flacparse ! ", " ! " }) {
    Decoded a = run_pipeline (src (path) + chain + dec ());
    fail_unless (a.error.empty (), "%s", a.error.c_str ());
    fail_unless (a.dur.size () >= 3, "%zu buffers", a.dur.size ());
    GstClockTime first = a.dur[0], largest = *std::max_element (a.dur.begin (), a.dur.end ());
    GstClockTime frames16 = gst_util_uint64_scale (16 * 1024, GST_SECOND, 44100);
    /* 256 KiB of this stream: about 3 s */
    fail_unless (first <= (chain[3] == 'f' ? frames16 + GST_MSECOND : 4 * GST_SECOND),
        "first buffer %" GST_TIME_FORMAT " (%s)", GST_TIME_ARGS (first), chain);
    fail_unless (largest >= 2 * first, "batches did not grow: first %" GST_TIME_FORMAT ", largest %"
        GST_TIME_FORMAT, GST_TIME_ARGS (first), GST_TIME_ARGS (largest));
  }
}
GST_END_TEST;

GST_START_TEST (test_tags)
{
  std::string path = gpc_test::media_dir () + "/flac/g16.flac"; /* has TITLE=gpc-title */
  if (g_have_flac_tool) {
    std::string base = g_dir + "/tags";
    gpc_test::Rng rng = gpc_test::rng ("tags");
    auto pcm = flac_test::music (rng, 2, 16, 44100, 44100);
    flac_test::write_file (base + ".raw", flac_test::to_raw (pcm, 16));
    fail_unless (flac_test::encode (base + ".raw", base + ".flac", 2, 16, 44100, "-5 -T TITLE=gpc-title"));
    path = base + ".flac";
  } else if (!g_file_test (path.c_str (), G_FILE_TEST_EXISTS)) {
    return;
  }
  Decoded a = run_pipeline (src (path) + " ! flacparse ! " + dec ());
  fail_unless (a.title == "gpc-title", "framed title '%s'", a.title.c_str ());
  Decoded b = run_pipeline (src (path) + " ! " + dec ());
  fail_unless (b.title == "gpc-title", "unframed title '%s'", b.title.c_str ());
}
GST_END_TEST;

GST_START_TEST (test_duration_seeking_queries)
{
  /* DURATION from STREAMINFO's sample count, exact; SEEKING in TIME where
   * the element seeks unframed input through byte seeks. */
  std::string path = make_flac ("queries", 2, 16, 44100, 3.0, "-5");
  if (path.empty ())
    return;
  std::vector<uint8_t> file;
  flac_test::read_file (path, &file);
  uint64_t total = ((uint64_t) (file[21] & 15) << 32) | ((uint64_t) file[22] << 24) | ((uint64_t) file[23] << 16) |
      ((uint64_t) file[24] << 8) | file[25];
  for (const char *chain : { " ! ", " ! flacparse ! " }) {
    GstElement *p = gst_parse_launch ((src (path) + chain + dec ("name=dec") + " ! fakesink").c_str (), NULL);
    fail_unless (p != NULL);
    gst_element_set_state (p, GST_STATE_PAUSED);
    fail_unless (gst_element_get_state (p, NULL, NULL, GST_CLOCK_TIME_NONE) == GST_STATE_CHANGE_SUCCESS);
    GstElement *d = gst_bin_get_by_name (GST_BIN (p), "dec");
    GstPad *pad = gst_element_get_static_pad (d, "src");
    gint64 dur = -1;
    fail_unless (gst_pad_query_duration (pad, GST_FORMAT_TIME, &dur), "%s: no duration", chain);
    fail_unless ((guint64) dur == gst_util_uint64_scale (total, GST_SECOND, 44100), "%s: duration %" GST_TIME_FORMAT
        " for %" G_GUINT64_FORMAT " samples", chain, GST_TIME_ARGS (dur), total);
    GstQuery *q = gst_query_new_seeking (GST_FORMAT_TIME);
    fail_unless (gst_pad_query (pad, q), "%s: no seeking answer", chain);
    gboolean seekable = FALSE;
    gst_query_parse_seeking (q, NULL, &seekable, NULL, NULL);
    fail_unless (seekable, "%s: not seekable", chain);
    gst_query_unref (q);
    gst_object_unref (pad);
    gst_object_unref (d);
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (p);
  }
}
GST_END_TEST;

GST_START_TEST (test_seek)
{
  std::string path = make_flac ("seek", 2, 16, 44100, 4.0, "-5");
  if (path.empty ())
    return;
  GstClockTime pos = g_have_flac_tool ? 2 * GST_SECOND : GST_SECOND;
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  Decoded a = run_pipeline (src (path) + " ! flacparse ! " + dec ("batch-frames=4"), pos);
  fail_unless (a.error.empty (), "%s", a.error.c_str ());
  fail_unless (!a.pts.empty ());
  /* output starts at (or clipped to) the seek position and is the same audio */
  size_t first = (size_t) gst_util_uint64_scale (a.pts[0], 44100, GST_SECOND);
  fail_unless (a.pts[0] >= pos - GST_MSECOND && a.pts[0] <= pos + 100 * GST_MSECOND,
      "first pts %" GST_TIME_FORMAT, GST_TIME_ARGS (a.pts[0]));
  size_t off = first * 4;
  fail_unless (off + a.pcm.size () <= ref.pcm.size () + 8);
  size_t n = std::min (a.pcm.size (), ref.pcm.size () - off);
  fail_unless (n > 44100 * 2, "too little after the seek");
  fail_unless (memcmp (a.pcm.data (), ref.pcm.data () + off, n) == 0, "audio after seek differs");
  for (const std::string &w : a.warnings)
    fail_unless (w.find ("MD5") == std::string::npos, "MD5 checked after a seek: %s", w.c_str ());
}
GST_END_TEST;

GST_START_TEST (test_seek_unframed)
{
  /* filesrc ! cudaflacdec: the element turns the TIME seek into a byte seek
   * (seek table or estimate), resynchronises on the next frame and trims the
   * output to start exactly at the target. */
  std::string path = make_flac ("seek", 2, 16, 44100, 4.0, "-5");
  if (path.empty ())
    return;
  GstClockTime pos = g_have_flac_tool ? 2 * GST_SECOND : GST_SECOND;
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  Decoded a = run_pipeline (src (path) + " ! " + dec ("chunk-size=65536"), pos);
  fail_unless (a.error.empty (), "%s", a.error.c_str ());
  fail_unless (!a.pts.empty (), "no output after the seek");
  fail_unless (a.pts[0] == pos, "first pts %" GST_TIME_FORMAT, GST_TIME_ARGS (a.pts[0]));
  size_t off = (size_t) gst_util_uint64_scale (pos, 44100, GST_SECOND) * 4;
  fail_unless (off + a.pcm.size () == ref.pcm.size (), "%zu bytes after the seek, %zu expected", a.pcm.size (),
      ref.pcm.size () - off);
  fail_unless (memcmp (a.pcm.data (), ref.pcm.data () + off, a.pcm.size ()) == 0,
      "audio after an unframed seek differs");
  for (const std::string &w : a.warnings)
    fail_unless (w.find ("MD5") == std::string::npos, "MD5 checked after a seek: %s", w.c_str ());
}
GST_END_TEST;

GST_START_TEST (test_seek_unframed_refined)
{
  /* No seek table and a bitrate far from uniform (60 s of silence, then
   * 30 s of music): the proportional byte estimate for 80 s lands seconds
   * late, and the element must seek again, earlier, until it lands before
   * the target, then trim to it exactly. */
  if (!g_have_flac_tool) {
    printf ("SKIP (part): refined unframed seek needs the flac tool\n");
    return;
  }
  const unsigned rate = 44100, silence = 60 * rate;
  std::string base = g_dir + "/late-seek";
  gpc_test::Rng rng = gpc_test::rng ("late-seek");
  std::vector<int32_t> pcm (silence * 2, 0);
  std::vector<int32_t> tail = flac_test::music (rng, 2, 16, rate, 30 * rate, false);
  pcm.insert (pcm.end (), tail.begin (), tail.end ());
  flac_test::write_file (base + ".raw", flac_test::to_raw (pcm, 16));
  fail_unless (flac_test::encode (base + ".raw", base + ".flac", 2, 16, rate, "-5 --no-seektable"));
  const std::string path = base + ".flac";
  const GstClockTime pos = 80 * GST_SECOND;
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  Decoded a = run_pipeline (src (path) + " ! " + dec ("chunk-size=262144"), pos);
  fail_unless (a.error.empty (), "%s", a.error.c_str ());
  fail_unless (!a.pts.empty (), "no output after the seek");
  fail_unless (a.pts[0] == pos, "first pts %" GST_TIME_FORMAT, GST_TIME_ARGS (a.pts[0]));
  const size_t off = (size_t) gst_util_uint64_scale (pos, rate, GST_SECOND) * 4;
  fail_unless (off + a.pcm.size () == ref.pcm.size (), "%zu bytes after the seek, %zu expected", a.pcm.size (),
      ref.pcm.size () - off);
  fail_unless (memcmp (a.pcm.data (), ref.pcm.data () + off, a.pcm.size ()) == 0,
      "audio after a refined unframed seek differs");
  for (const std::string &w : a.warnings)
    fail_unless (w.find ("MD5") == std::string::npos && w.find ("exact") == std::string::npos,
        "warning after a refined seek: %s", w.c_str ());
}
GST_END_TEST;

static std::string corrupt_copy (const std::string &path, const char *name, bool md5_only)
{
  std::vector<uint8_t> f;
  flac_test::read_file (path, &f);
  if (md5_only) {
    f[8 + 18 + 5] ^= 0x55; /* "fLaC", block header, 18 bytes into STREAMINFO: MD5 */
  } else {
    /* flip a byte in the middle of the file (inside a frame) */
    f[f.size () / 2] ^= 0x10;
  }
  std::string out = g_dir + "/" + name;
  flac_test::write_file (out, f);
  return out;
}

GST_START_TEST (test_md5_mismatch_warning)
{
  std::string good = make_flac ("md5", 2, 16, 44100, 1.0, "-5");
  if (good.empty ())
    return;
  std::string path = corrupt_copy (good, "md5bad.flac", true);
  for (const char *chain : { " ! flacparse ! ", " ! " }) {
    Decoded a = run_pipeline (src (path) + chain + dec ());
    bool found = false;
    for (const std::string &w : a.warnings)
      found |= w.find ("MD5") != std::string::npos && w.find ("stream") != std::string::npos;
    fail_unless (found, "no MD5 mismatch warning (%s)", chain);
    Decoded b = run_pipeline (src (path) + chain + dec ("check-md5=false"));
    for (const std::string &w : b.warnings)
      fail_unless (w.find ("MD5") == std::string::npos, "MD5 warning with check-md5=false");
  }
}
GST_END_TEST;

GST_START_TEST (test_corrupt_frame)
{
  std::string good = make_flac ("corrupt", 2, 16, 44100, 3.0, "-5 -b 4096");
  if (good.empty ())
    return;
  std::string path = corrupt_copy (good, "corrupt-bad.flac", false);
  Decoded ref = run_pipeline (src (good) + " ! flacparse ! flacdec");
  Decoded a = run_pipeline (src (path) + " ! " + dec ());
  fail_unless (a.error.empty (), "%s", a.error.c_str ());
  size_t frame_warned = 0;
  for (const std::string &w : a.warnings)
    frame_warned += w.find ("frame") != std::string::npos && w.find ("silence") != std::string::npos;
  fail_unless (frame_warned == 1, "%zu warnings naming corrupt frames, one summary expected", frame_warned);
  /* through the base class: max-errors applies */
  Decoded e = run_pipeline (src (path) + " ! " + dec ("max-errors=0"));
  fail_unless (!e.error.empty (), "max-errors=0: no error for a corrupt frame");
  fail_unless (a.pcm.size () == ref.pcm.size (), "duration changed: %zu vs %zu", a.pcm.size (), ref.pcm.size ());
  size_t differing = 0;
  for (size_t i = 0; i + 4 <= a.pcm.size (); i += 4)
    differing += memcmp (a.pcm.data () + i, ref.pcm.data () + i, 4) != 0;
  fail_unless (differing <= 4096 * 2, "%zu samples differ, more than one frame", differing);
}
GST_END_TEST;

GST_START_TEST (test_parameter_change)
{
  /* Two streams back to back through one element (framed): the second has
   * another rate, channel count and depth; output caps follow. */
  std::string a = make_flac ("pc1", 2, 16, 44100, 1.0, "-5");
  std::string b = make_flac ("pc2", 1, 24, 48000, 1.0, "-5");
  if (a.empty () || b.empty ())
    return;
  Decoded ra = run_pipeline (src (a) + " ! flacparse ! flacdec");
  Decoded rb = run_pipeline (src (b) + " ! flacparse ! flacdec");
  GstHarness *h = gst_harness_new_parse (dec ("batch-frames=2").c_str ());
  for (const std::string &path : { a, b }) {
    /* frames from flacparse, pushed with the caps flacparse gives */
    GstCaps *pc;
    std::vector<GstBuffer *> frames = parsed_frames (path, &pc);
    gst_harness_set_src_caps (h, pc);
    for (GstBuffer *f : frames)
      fail_unless_equals_int (gst_harness_push (h, f), GST_FLOW_OK);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  std::vector<uint8_t> pcm = pull_pcm (h);
  GstCaps *c = gst_pad_get_current_caps (h->sinkpad);
  gchar *cs = gst_caps_to_string (c);
  fail_unless (rb.caps == cs, "final caps %s, expected %s", cs, rb.caps.c_str ());
  g_free (cs);
  gst_caps_unref (c);
  std::vector<uint8_t> expect = ra.pcm;
  expect.insert (expect.end (), rb.pcm.begin (), rb.pcm.end ());
  fail_unless (pcm == expect, "PCM across the change differs (%zu vs %zu bytes)", pcm.size (), expect.size ());
  gst_harness_teardown (h);
}
GST_END_TEST;

/* Damaged input: how a pipeline that met it ended. */
struct Ending {
  bool eos = false;
  std::string error;
  std::vector<std::string> warnings;
};

/* Runs `desc ! fakesink` until an error or EOS reaches the bus, then stops
 * it. Waits without a time limit: a hang is what these tests look for (the
 * test's own timeout, or tools/stress.sh's, reports it). */
static Ending run_to_end (const std::string &desc)
{
  Ending e;
  GError *err = NULL;
  GstElement *p = gst_parse_launch ((desc + " ! fakesink").c_str (), &err);
  fail_unless (p != NULL, "parse %s: %s", desc.c_str (), err ? err->message : "?");
  GstBus *bus = gst_element_get_bus (p);
  fail_if (gst_element_set_state (p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE && !gst_bus_have_pending (bus),
      "%s: PLAYING failed without an error message", desc.c_str ());
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
        (GstMessageType) (GST_MESSAGE_ERROR | GST_MESSAGE_EOS | GST_MESSAGE_WARNING));
    GError *ge = NULL;
    gchar *dbg = NULL;
    bool end = GST_MESSAGE_TYPE (m) != GST_MESSAGE_WARNING;
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
      e.eos = true;
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      gst_message_parse_error (m, &ge, &dbg);
      e.error = ge->message;
    } else {
      gst_message_parse_warning (m, &ge, &dbg);
      e.warnings.push_back (ge->message);
    }
    if (ge)
      g_error_free (ge);
    g_free (dbg);
    gst_message_unref (m);
    if (end)
      break;
  }
  fail_unless (gst_element_set_state (p, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS, "%s: stopping failed",
      desc.c_str ());
  gst_object_unref (bus);
  gst_object_unref (p);
  return e;
}

/* A FLAC file of the suite's, damaged in one of these ways. */
enum Damage { kNoStreamInfo, kNoStreamInfoNoMarker, kTruncated, kFlippedBytes, kGarbage };

static std::string damaged_file (Damage how)
{
  std::string good = make_flac ("damaged", 2, 16, 44100, 2.0, "-5 -b 4096");
  if (good.empty ())
    return "";
  std::vector<uint8_t> f, out;
  fail_unless (flac_test::read_file (good, &f) && f.size () > 4096);
  const char *name = "";
  switch (how) {
    case kNoStreamInfo:
    case kNoStreamInfoNoMarker: {
      /* every metadata block but STREAMINFO (the last-block flag moved to
       * the new last one), with or without the "fLaC" before them */
      name = how == kNoStreamInfo ? "nosi.flac" : "nosi-nomarker.flac";
      if (how == kNoStreamInfo)
        out.assign (f.begin (), f.begin () + 4);
      size_t pos = 4, last_kept = SIZE_MAX;
      for (bool last = false; !last && pos + 4 <= f.size ();) {
        last = (f[pos] & 0x80) != 0;
        size_t len = 4 + ((size_t) f[pos + 1] << 16 | (size_t) f[pos + 2] << 8 | f[pos + 3]);
        fail_unless (pos + len <= f.size ());
        if ((f[pos] & 0x7f) != 0) {
          last_kept = out.size ();
          out.insert (out.end (), f.begin () + (long) pos, f.begin () + (long) (pos + len));
          out[last_kept] &= 0x7f;
        }
        pos += len;
      }
      if (last_kept != SIZE_MAX)
        out[last_kept] |= 0x80;
      out.insert (out.end (), f.begin () + (long) pos, f.end ());
      break;
    }
    case kTruncated:
      name = "truncated.flac";
      out.assign (f.begin (), f.begin () + (long) (f.size () / 3));
      break;
    case kFlippedBytes: {
      name = "flipped.flac";
      out = f;
      gpc_test::Rng rng = gpc_test::rng ("flipped");
      for (int i = 0; i < 16; i++)
        out[(size_t) rng.range ((int64_t) out.size () / 3, (int64_t) out.size () - 1)] ^= (uint8_t) rng.range (1, 255);
      break;
    }
    case kGarbage: {
      name = "garbage.flac";
      gpc_test::Rng rng = gpc_test::rng ("garbage");
      out.resize (f.size ());
      for (uint8_t &b : out)
        b = (uint8_t) rng.bits (8);
      break;
    }
  }
  std::string path = g_dir + "/" + name;
  fail_unless (flac_test::write_file (path, out));
  return path;
}

/* Damaged input must end the stream, with an error where nothing can be
 * decoded (and the pipeline must then stop); through flacparse too, where
 * whether it is an error is flacparse's call. */
static void check_damaged (Damage how, bool expect_error)
{
  std::string path = damaged_file (how);
  if (path.empty ())
    return;
  Ending a = run_to_end (src (path) + " ! " + dec ());
  if (expect_error)
    fail_unless (!a.error.empty (), "%s: no error (EOS %d)", path.c_str (), a.eos);
  else
    fail_unless (a.error.empty () && a.eos, "%s: error %s", path.c_str (), a.error.c_str ());
  Ending b = run_to_end (src (path) + " ! flacparse ! " + dec ());
  fail_unless (b.eos || !b.error.empty (), "%s (flacparse): ended without EOS or error", path.c_str ());
}

static bool is_frame (GstBuffer *b)
{
  GstMapInfo map;
  gst_buffer_map (b, &map, GST_MAP_READ);
  bool f = map.size >= 2 && map.data[0] == 0xff && (map.data[1] & 0xfe) == 0xf8;
  gst_buffer_unmap (b, &map);
  return f;
}

static std::vector<uint8_t> bytes_of (GstBuffer *b)
{
  GstMapInfo map;
  gst_buffer_map (b, &map, GST_MAP_READ);
  std::vector<uint8_t> v (map.data, map.data + map.size);
  gst_buffer_unmap (b, &map);
  return v;
}

/* A frame (fixed block size, number below 128) renumbered, its CRC-8 and
 * CRC-16 rewritten. */
static std::vector<uint8_t> renumbered (std::vector<uint8_t> f, unsigned number)
{
  fail_unless (number < 128 && f.size () > 8 && !(f[1] & 1) && f[4] < 0x80, "frame to renumber");
  f[4] = (uint8_t) number;
  size_t hdr = 5;
  unsigned bs = f[2] >> 4, rate = f[2] & 15;
  hdr += bs == 6 ? 1 : bs == 7 ? 2 : 0;
  hdr += rate == 12 ? 1 : (rate == 13 || rate == 14) ? 2 : 0;
  f[hdr] = gpc::flac::crc8 (f.data (), hdr);
  uint16_t crc = gpc::flac::crc16 (f.data (), f.size () - 2);
  f[f.size () - 2] = (uint8_t) (crc >> 8);
  f[f.size () - 1] = (uint8_t) crc;
  return f;
}

GST_START_TEST (test_format_changes)
{
  /* Frames of three encodings stitched into one stream (numbers and CRCs
   * rewritten), behind the first one's metadata: rate, channels and depth
   * change twice. Every frame decodes, caps follow, timestamps run on, and
   * the MD5 of STREAMINFO (the first part's) is not held against the rest. */
  if (!g_have_flac_tool) {
    printf ("SKIP (part): format changes need the flac tool\n");
    return;
  }
  struct Part {
    const char *name;
    unsigned ch, bps, rate;
  } parts[] = { { "fc-a", 2, 16, 44100 }, { "fc-b", 1, 24, 48000 }, { "fc-c", 2, 8, 22050 } };
  std::vector<uint8_t> stream, expect;
  std::vector<GstBuffer *> framed;
  std::vector<std::string> caps_seen;
  GstCaps *first_caps = NULL;
  unsigned number = 0;
  for (const Part &p : parts) {
    /* whole blocks: no short frame but at the end */
    std::string path = make_flac (p.name, p.ch, p.bps, p.rate, (6 * 4096 + 0.5) / p.rate, "-5 -b 4096");
    Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
    expect.insert (expect.end (), ref.pcm.begin (), ref.pcm.end ());
    caps_seen.push_back (ref.caps);
    GstCaps *caps;
    for (GstBuffer *b : parsed_frames (path, &caps)) {
      std::vector<uint8_t> v = bytes_of (b);
      if (is_frame (b))
        v = renumbered (v, number++);
      else if (p.name != parts[0].name)
        v.clear (); /* the other parts' metadata */
      gst_buffer_unref (b);
      if (v.empty ())
        continue;
      stream.insert (stream.end (), v.begin (), v.end ());
      framed.push_back (gst_buffer_new_memdup (v.data (), v.size ()));
    }
    if (!first_caps)
      first_caps = caps;
    else
      gst_caps_unref (caps);
  }
  std::string path = g_dir + "/format-changes.flac";
  fail_unless (flac_test::write_file (path, stream));
  Decoded a = run_pipeline (src (path) + " ! " + dec ());
  fail_unless (a.error.empty (), "%s", a.error.c_str ());
  for (const std::string &w : a.warnings)
    fail_unless (w.find ("CUDA unavailable") != std::string::npos, "warning %s", w.c_str ());
  fail_unless (a.pcm == expect, "unframed: %zu bytes, %zu expected", a.pcm.size (), expect.size ());
  for (size_t i = 1; i < a.pts.size (); i++)
    fail_unless (a.pts[i] + 2 >= a.pts[i - 1] + a.dur[i - 1] && a.pts[i] <= a.pts[i - 1] + a.dur[i - 1] + 2,
        "gap at buffer %zu: %" GST_TIME_FORMAT " after %" GST_TIME_FORMAT " + %" GST_TIME_FORMAT, i,
        GST_TIME_ARGS (a.pts[i]), GST_TIME_ARGS (a.pts[i - 1]), GST_TIME_ARGS (a.dur[i - 1]));
  /* framed, as a parser that passes every frame would give it */
  GstHarness *h = gst_harness_new_parse (dec ().c_str ());
  gst_harness_set_src_caps (h, first_caps);
  std::vector<std::string> caps_out;
  std::vector<uint8_t> pcm;
  for (GstBuffer *b : framed) {
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
    if (GstCaps *c = gst_pad_get_current_caps (h->sinkpad)) {
      gchar *cs = gst_caps_to_string (c);
      if (caps_out.empty () || caps_out.back () != cs)
        caps_out.push_back (cs);
      g_free (cs);
      gst_caps_unref (c);
    }
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  pcm = pull_pcm (h);
  fail_unless (pcm == expect, "framed: %zu bytes, %zu expected", pcm.size (), expect.size ());
  fail_unless (caps_out == caps_seen, "framed: %zu caps, the last %s", caps_out.size (),
      caps_out.empty () ? "" : caps_out.back ().c_str ());
  gst_harness_teardown (h);
}
GST_END_TEST;

GST_START_TEST (test_unframed_from_anywhere)
{
  /* No "fLaC" or STREAMINFO: a stream joined in the middle, a file without
   * its metadata, and frames with garbage before, between and after them
   * play from the first frame whose CRCs and successor check. */
  std::string good = make_flac ("damaged", 2, 16, 44100, 2.0, "-5 -b 4096"); /* damaged_file's */
  if (good.empty ())
    return;
  Decoded ref = run_pipeline (src (good) + " ! flacparse ! flacdec");
  for (Damage how : { kNoStreamInfo, kNoStreamInfoNoMarker }) {
    std::string path = damaged_file (how);
    Decoded a = run_pipeline (src (path) + " ! " + dec ());
    fail_unless (a.error.empty (), "%s: %s", path.c_str (), a.error.c_str ());
    fail_unless (a.pcm == ref.pcm, "%s: %zu bytes, %zu expected", path.c_str (), a.pcm.size (), ref.pcm.size ());
  }
  /* joined at 40 %: a suffix of the whole, from a frame on */
  std::vector<uint8_t> file;
  flac_test::read_file (good, &file);
  std::vector<uint8_t> cut (file.begin () + (long) (file.size () * 2 / 5), file.end ());
  std::string path = g_dir + "/joined.flac";
  flac_test::write_file (path, cut);
  Decoded j = run_pipeline (src (path) + " ! " + dec ());
  fail_unless (j.error.empty (), "joined: %s", j.error.c_str ());
  fail_unless (!j.pcm.empty () && j.pcm.size () < ref.pcm.size () && j.pcm.size () % (4096 * 4) == ref.pcm.size () % (4096 * 4) &&
      memcmp (j.pcm.data (), ref.pcm.data () + ref.pcm.size () - j.pcm.size (), j.pcm.size ()) == 0,
      "joined: %zu bytes are not the end of the stream's %zu", j.pcm.size (), ref.pcm.size ());
  /* garbage around and between the frames */
  GstCaps *caps;
  std::vector<GstBuffer *> frames = parsed_frames (good, &caps);
  gst_caps_unref (caps);
  gpc_test::Rng rng = gpc_test::rng ("anywhere");
  std::vector<uint8_t> g;
  auto garbage = [&] (size_t n) {
    for (size_t i = 0; i < n; i++)
      g.push_back ((uint8_t) rng.bits (8));
  };
  garbage (5000);
  size_t k = 0;
  for (GstBuffer *b : frames) {
    if (is_frame (b)) {
      std::vector<uint8_t> v = bytes_of (b);
      g.insert (g.end (), v.begin (), v.end ());
      if (++k % 7 == 3)
        garbage ((size_t) rng.range (1, 3000));
    }
    gst_buffer_unref (b);
  }
  garbage (3000);
  path = g_dir + "/garbage-around.flac";
  flac_test::write_file (path, g);
  Decoded a = run_pipeline (src (path) + " ! " + dec ());
  fail_unless (a.error.empty (), "garbage around frames: %s", a.error.c_str ());
  fail_unless (a.pcm == ref.pcm, "garbage around frames: %zu bytes, %zu expected", a.pcm.size (), ref.pcm.size ());
  size_t skipped = 0;
  for (const std::string &w : a.warnings)
    skipped += w.find ("Skipped data") != std::string::npos;
  fail_unless (skipped == 1, "%zu warnings about skipped data", skipped);
}
GST_END_TEST;

GST_START_TEST (test_damaged_no_streaminfo)
{
  check_damaged (kNoStreamInfo, false);
}
GST_END_TEST;

GST_START_TEST (test_damaged_no_streaminfo_no_marker)
{
  check_damaged (kNoStreamInfoNoMarker, false);
}
GST_END_TEST;

GST_START_TEST (test_damaged_truncated)
{
  check_damaged (kTruncated, false);
}
GST_END_TEST;

GST_START_TEST (test_damaged_flipped_bytes)
{
  check_damaged (kFlippedBytes, false);
}
GST_END_TEST;

GST_START_TEST (test_damaged_garbage)
{
  check_damaged (kGarbage, true);
}
GST_END_TEST;

/* Queries and property reads from an application thread of their own,
 * until told to stop, against whatever state the pipeline is in. */
struct Prober {
  GstElement *pipeline, *dec;
  std::atomic<bool> stop {false};
  unsigned rounds = 0;
};

static gpointer probe_loop (gpointer data)
{
  Prober *pr = (Prober *) data;
  GstPad *srcpad = gst_element_get_static_pad (pr->dec, "src");
  while (!pr->stop.load ()) {
    gint64 v;
    gst_element_query_position (pr->pipeline, GST_FORMAT_TIME, &v);
    gst_element_query_duration (pr->pipeline, GST_FORMAT_TIME, &v);
    gst_pad_query_position (srcpad, GST_FORMAT_TIME, &v);
    gst_pad_query_duration (srcpad, GST_FORMAT_TIME, &v);
    for (GstQuery *q : { gst_query_new_latency (), gst_query_new_seeking (GST_FORMAT_TIME) }) {
      gst_pad_query (srcpad, q);
      gst_element_query (pr->pipeline, q);
      gst_query_unref (q);
    }
    gint backend, device;
    guint frames, chunk, threads;
    guint64 batch_time;
    gboolean md5;
    g_object_get (pr->dec, "backend", &backend, "cuda-device-id", &device, "batch-frames", &frames,
        "chunk-size", &chunk, "threads", &threads, "batch-time", &batch_time, "check-md5", &md5, NULL);
    pr->rounds++;
    g_thread_yield ();
  }
  gst_object_unref (srcpad);
  return NULL;
}

/* Drops what the sink holds; the first error message, or "". */
static std::string drain_sink_and_bus (GstElement *sink, GstBus *bus)
{
  while (GstSample *smp = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0))
    gst_sample_unref (smp);
  std::string msg;
  while (GstMessage *m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR)) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (m, &e, &dbg);
    if (msg.empty ())
      msg = std::string (e->message) + " (" + GST_OBJECT_NAME (GST_MESSAGE_SRC (m)) + ": " + (dbg ? dbg : "") + ")";
    g_error_free (e);
    g_free (dbg);
    gst_message_unref (m);
  }
  return msg;
}

GST_START_TEST (test_concurrent_use)
{
  /* While a stream decodes, one application thread changes states and
   * seeks at random and another queries position, duration, latency and
   * seeking and reads the properties: nothing may crash, deadlock or post
   * an error, and an unframed stream, sought once more at the end, must
   * still give flacdec's samples from the seek target on. */
  std::string path = make_flac ("concurrent", 2, 16, 44100, 20.0, "-5");
  if (path.empty ())
    return;
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  gpc_test::Rng rng = gpc_test::rng ("concurrent");
  const GstState states[] = { GST_STATE_READY, GST_STATE_PAUSED, GST_STATE_PLAYING };
  for (const char *chain : { " ! ", " ! flacparse ! " }) {
    const bool unframed = strcmp (chain, " ! ") == 0;
    std::string desc = src (path) + chain + dec ("name=dec chunk-size=65536 batch-frames=16") +
        " ! appsink name=sink sync=false";
    GstElement *p = gst_parse_launch (desc.c_str (), NULL);
    fail_unless (p != NULL);
    GstElement *sink = gst_bin_get_by_name (GST_BIN (p), "sink");
    GstBus *bus = gst_element_get_bus (p);
    Prober pr;
    pr.pipeline = p;
    pr.dec = gst_bin_get_by_name (GST_BIN (p), "dec");
    GThread *prober = g_thread_new ("prober", probe_loop, &pr);
    /* Failures are reported once the prober is joined: check's fail()
     * leaves the test function, and pr with it. */
    std::string error;
    for (int round = 0; round < 150 && error.empty (); round++) {
      GstState to = states[rng.range (0, 2)];
      if (gst_element_set_state (p, to) == GST_STATE_CHANGE_FAILURE)
        error = std::string ("state change to ") + gst_element_state_get_name (to) + " failed";
      if (to >= GST_STATE_PAUSED && rng.chance (70)) {
        GstClockTime pos = (GstClockTime) rng.range (0, 15000) * GST_MSECOND; /* audio after it */
        gst_element_seek_simple (p, GST_FORMAT_TIME,
            (GstSeekFlags) (GST_SEEK_FLAG_FLUSH | (rng.chance (50) ? GST_SEEK_FLAG_ACCURATE : 0)), pos);
      }
      for (int i = rng.range (0, 3); i > 0 && error.empty (); i--) {
        error = drain_sink_and_bus (sink, bus);
        g_thread_yield ();
      }
      if (error.empty ())
        error = drain_sink_and_bus (sink, bus);
    }
    /* A last seek from a settled PAUSED, then to the end. Settled through
     * READY: GstBin (1.22 to 1.26) can lose a state change that comes
     * while it continues an asynchronous one (READY to PLAYING, say): its
     * continue function sees the new request and stops, while the request,
     * for the state the bin has just reached, waits for a commit that never
     * comes, and get_state() would wait for ever. A change down to READY
     * is made at once from there. */
    pr.stop = true;
    g_thread_join (prober);
    fail_unless (error.empty (), "%s: %s", desc.c_str (), error.c_str ());
    fail_unless (pr.rounds > 0);
    fail_if (gst_element_set_state (p, GST_STATE_READY) == GST_STATE_CHANGE_FAILURE);
    error = drain_sink_and_bus (sink, bus);
    fail_if (gst_element_set_state (p, GST_STATE_PAUSED) == GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_get_state (p, NULL, NULL, GST_CLOCK_TIME_NONE) == GST_STATE_CHANGE_SUCCESS);
    const GstClockTime pos = 3 * GST_SECOND;
    fail_unless (gst_element_seek_simple (p, GST_FORMAT_TIME,
        (GstSeekFlags) (GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE), pos));
    fail_unless (gst_element_get_state (p, NULL, NULL, GST_CLOCK_TIME_NONE) == GST_STATE_CHANGE_SUCCESS);
    gst_element_set_state (p, GST_STATE_PLAYING);
    std::vector<uint8_t> pcm;
    GstClockTime first = GST_CLOCK_TIME_NONE;
    while (GstSample *smp = gst_app_sink_pull_sample (GST_APP_SINK (sink))) {
      GstBuffer *b = gst_sample_get_buffer (smp);
      if (!GST_CLOCK_TIME_IS_VALID (first))
        first = GST_BUFFER_PTS (b);
      GstMapInfo map;
      gst_buffer_map (b, &map, GST_MAP_READ);
      pcm.insert (pcm.end (), map.data, map.data + map.size);
      gst_buffer_unmap (b, &map);
      gst_sample_unref (smp);
    }
    if (error.empty ())
      error = drain_sink_and_bus (sink, bus);
    fail_unless (error.empty (), "%s: %s", desc.c_str (), error.c_str ());
    fail_unless (!pcm.empty (), "%s: nothing after the last seek", desc.c_str ());
    if (unframed) {
      /* exact: see test_seek_unframed */
      fail_unless (first == pos, "first pts %" GST_TIME_FORMAT, GST_TIME_ARGS (first));
      size_t off = (size_t) gst_util_uint64_scale (pos, 44100, GST_SECOND) * 4;
      fail_unless (off + pcm.size () == ref.pcm.size () &&
          memcmp (pcm.data (), ref.pcm.data () + off, pcm.size ()) == 0,
          "%s: audio after the last seek differs (%zu bytes, %zu expected)", desc.c_str (), pcm.size (),
          ref.pcm.size () - off);
    }
    gst_element_set_state (p, GST_STATE_NULL);
    gst_object_unref (pr.dec);
    gst_object_unref (bus);
    gst_object_unref (sink);
    gst_object_unref (p);
  }
}
GST_END_TEST;

GST_START_TEST (test_sticky_event_while_stopping)
{
  /* A change down to READY deactivates the decoder's source pad before
   * its sink pad. A sticky event that comes in between (a file source's
   * first STREAM_START or SEGMENT, pushed as the pipeline stops) cannot go
   * on; upstream must see FLUSHING, as for a buffer, and not an error
   * (filesrc would post "Internal data stream error"). */
  GstHarness *h = gst_harness_new_parse (dec ().c_str ());
  gst_harness_set_src_caps_str (h, "audio/x-flac");
  GstElement *d = gst_harness_find_element (h, "cudaflacdec");
  GstPad *srcpad = gst_element_get_static_pad (d, "src");
  fail_unless (gst_pad_set_active (srcpad, FALSE));
  GstSegment seg;
  gst_segment_init (&seg, GST_FORMAT_BYTES);
  const char *kind[] = { "STREAM_START", "SEGMENT" };
  for (int i = 0; i < 2; i++) {
    /* stored on the harness's pad whatever happens; sent with the buffer */
    gst_harness_push_event (h, i == 0 ? gst_event_new_stream_start ("again") : gst_event_new_segment (&seg));
    GstFlowReturn ret = gst_harness_push (h, gst_buffer_new_memdup ("fLaC", 4));
    fail_unless (ret == GST_FLOW_FLUSHING, "%s while stopping: %s", kind[i], gst_flow_get_name (ret));
  }
  gst_object_unref (srcpad);
  gst_object_unref (d);
  gst_harness_teardown (h);
}
GST_END_TEST;

static bool cuda_usable ();

GST_START_TEST (test_cuda_fallback)
{
  /* A CUDA device the element cannot use (here: one that does not exist;
   * on a GPU the module was not built for, the same path names its compute
   * capability): backend=cuda fails with an error, backend=auto decodes on
   * the CPU after exactly one warning that says why. */
  std::string path = make_flac ("fallback", 2, 16, 44100, 1.0, "-5");
  if (path.empty ())
    return;
  Ending e = run_to_end (src (path) + " ! cudaflacdec backend=cuda cuda-device-id=99");
  fail_unless (e.error.find ("CUDA") != std::string::npos, "backend=cuda: error '%s' (EOS %d)", e.error.c_str (),
      e.eos);
  Decoded ref = run_pipeline (src (path) + " ! flacparse ! flacdec");
  for (const char *chain : { " ! flacparse ! ", " ! " }) {
    Decoded a = run_pipeline (src (path) + chain + "cudaflacdec backend=auto cuda-device-id=99");
    fail_unless (a.error.empty (), "%s", a.error.c_str ());
    fail_unless (a.pcm == ref.pcm, "backend=auto on the CPU differs from flacdec");
    /* why: no driver here; device 99 missing where there is one (said
     * when CUDA is tried: a short stream on a machine with a driver stays on
     * the CPU without trying); no kernels in a build without CUDA
     * (-Dcuda=disabled) */
    const bool driver = cuda_usable ();
    fail_unless (a.warnings.size () == (driver ? a.warnings.size () : 1) && a.warnings.size () <= 1,
        "%zu warnings", a.warnings.size ());
    for (const std::string &w : a.warnings)
      fail_unless (w.find ("CUDA unavailable") != std::string::npos &&
          (w.find ("device 99") != std::string::npos || w.find ("libcuda") != std::string::npos ||
              w.find ("no CUDA kernels") != std::string::npos), "warning '%s'",
          w.c_str ());
    printf ("backend=auto without a usable CUDA device: %s\n",
        a.warnings.empty () ? "stayed on the CPU without trying CUDA" : a.warnings[0].c_str ());
  }
}
GST_END_TEST;

/* Is a CUDA device usable? (dlopen, so the test needs no CUDA at build time) */
static bool cuda_usable ()
{
  void *lib = dlopen ("libcuda.so.1", RTLD_NOW);
  if (!lib)
    return false;
  typedef int (*InitFn) (unsigned);
  typedef int (*CountFn) (int *);
  InitFn init = (InitFn) dlsym (lib, "cuInit");
  CountFn count = (CountFn) dlsym (lib, "cuDeviceGetCount");
  int n = 0;
  bool ok = init && count && init (0) == 0 && count (&n) == 0 && n > 0;
  return ok;
}

static Suite *cudaflacdec_suite (void)
{
  Suite *s = suite_create ("cudaflacdec-" GPC_TEST_BACKEND);
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_generated_vs_flacdec);
  tcase_add_test (tc, test_32bit_vs_flac_tool);
  tcase_add_test (tc, test_vectors_vs_flacdec);
  tcase_add_test (tc, test_all_vectors_md5);
  tcase_add_test (tc, test_channel_layouts);
  tcase_add_test (tc, test_harness_batches);
  tcase_add_test (tc, test_live_harness);
  tcase_add_test (tc, test_live_pipeline);
  tcase_add_test (tc, test_first_batch_small);
  tcase_add_test (tc, test_tags);
  tcase_add_test (tc, test_duration_seeking_queries);
  tcase_add_test (tc, test_seek);
  tcase_add_test (tc, test_seek_unframed_refined);
  tcase_add_test (tc, test_seek_unframed);
  tcase_add_test (tc, test_md5_mismatch_warning);
  tcase_add_test (tc, test_corrupt_frame);
  tcase_add_test (tc, test_parameter_change);
  tcase_add_test (tc, test_format_changes);
  tcase_add_test (tc, test_unframed_from_anywhere);
  tcase_add_test (tc, test_damaged_no_streaminfo);
  tcase_add_test (tc, test_damaged_no_streaminfo_no_marker);
  tcase_add_test (tc, test_damaged_truncated);
  tcase_add_test (tc, test_damaged_flipped_bytes);
  tcase_add_test (tc, test_damaged_garbage);
  tcase_add_test (tc, test_concurrent_use);
  tcase_add_test (tc, test_sticky_event_while_stopping);
  tcase_add_test (tc, test_cuda_fallback);
  return s;
}

int main (int argc, char **argv)
{
  /* CUDA does not survive fork(): once the check below has initialised it,
   * gst-check's forked test cases would hang in their first CUDA call (seen
   * on the H100). The CUDA variant runs its cases in this process. */
  if (strcmp (GPC_TEST_BACKEND, "cpu") != 0)
    setenv ("CK_FORK", "no", 1);
  gst_check_init (&argc, &argv);
  /* GStreamer 1.22's gst_cuda_context_new() trips a GLib check of its own
   * (g_once_init_leave with 0) on the H100's driver: not ours to fail on. */
  gst_check_add_log_filter ("GLib", G_LOG_LEVEL_CRITICAL,
      g_regex_new ("g_once_init_leave: assertion 'result != 0' failed", (GRegexCompileFlags) 0,
          (GRegexMatchFlags) 0, NULL), NULL, NULL, NULL);
  g_have_flac_tool = flac_test::have_flac_tool ();
  if (!g_have_flac_tool)
    printf ("flac tool missing: using tests/media/flac (fewer cases)\n");
  if (strcmp (GPC_TEST_BACKEND, "cuda") == 0 && !cuda_usable ())
    gpc_test::skip ("no usable CUDA device (libcuda.so.1 / cuInit / device count)");
  GstElement *e = gst_element_factory_make ("cudaflacdec", NULL);
  if (!e)
    gpc_test::skip ("cudaflacdec not found in GST_PLUGIN_PATH");
  gst_object_unref (e);
  if (!gst_element_factory_find ("flacdec") || !gst_element_factory_find ("flacparse"))
    gpc_test::skip ("flacparse/flacdec (gst-plugins-good) missing");
  g_dir = flac_test::scratch_dir ("element-" GPC_TEST_BACKEND);
  gpc_test::seed ();
  Suite *s = cudaflacdec_suite ();
  SRunner *sr = srunner_create (s);
  srunner_run_all (sr, CK_NORMAL);
  int failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  return failed ? 1 : 0;
}
