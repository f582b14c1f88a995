/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkproresdec in autoplugging bins: its rank follows the device (above
 * avdec_prores on a GPU, NONE on lavapipe or without a Vulkan driver),
 * decodebin, decodebin3 and playbin take the decoder the ranks say and play
 * every frame, a forced vkproresdec whose device is gone falls back to
 * avdec_prores (also when a state change walks decodebin3 while it tries
 * the candidate), and whatever decoder they take, the pictures are
 * avdec_prores's, sample for sample. The registry's cached rank is decided
 * again when the Vulkan driver changes.
 *
 * meson runs it in four environments: as it is (lavapipe here), with the
 * rank forced (GST_PLUGIN_FEATURE_RANK=vkproresdec:MAX), without a Vulkan
 * driver (VK_DRIVER_FILES naming a file that does not exist) and without
 * one but forced; GPC_TEST_NO_VULKAN=1 tells this program the last two.
 */
#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "compute/gpcvk.h"

#include "gpc-check.h"
#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "prores-frame.h"
#include "prores-test-util.h"

static bool g_no_vulkan;

/* 4:2:2 files: avdec_prores decodes 4444 at 10 bits (gst-libav gives
 * FFmpeg no FourCC to take 12 from), vkproresdec at FFmpeg's 12. */
static const char *const kFiles[] = { "aw_hq_336x200.mov", "ks_standard_bff_346x202.mov",
  "aw_proxy_336x200.mov", "ks_lt_1282x722.mov" };

static std::string media (const char *name)
{
  return gpc_test::media_dir () + "/prores/" + name;
}

static int rank_of (const char *name)
{
  GstPluginFeature *f = gst_registry_lookup_feature (gst_registry_get (), name);
  if (!f)
    return -1;
  int r = (int) gst_plugin_feature_get_rank (f);
  gst_object_unref (f);
  return r;
}

/* The decoder an autoplugging bin must end up with here. */
static const char *expected_decoder ()
{
  if (g_no_vulkan)
    return "avdec_prores";
  return rank_of ("vkproresdec") > rank_of ("avdec_prores") ? "vkproresdec" : "avdec_prores";
}

namespace {

struct Run {
  std::vector<GstSample *> samples;
  std::vector<std::string> tried;  /* video decoders the bins created, in order */
  std::string used;                /* the one left in the pipeline at EOS */
  bool race = false;               /* see decodebin3_racing_state_change */
  bool raced = false;
  GstStateChangeReturn race_result = GST_STATE_CHANGE_SUCCESS;
  ~Run () {
    for (GstSample *s : samples)
      gst_sample_unref (s);
  }
};

} // namespace

static bool is_video_decoder (GstElement *e)
{
  GstElementFactory *f = gst_element_get_factory (e);
  const char *klass = f ? gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_KLASS) : nullptr;
  return klass && strstr (klass, "Decoder") && strstr (klass, "Video");
}

static bool made_by (GstElement *e, const char *factory)
{
  GstElementFactory *f = gst_element_get_factory (e);
  return f && !strcmp (GST_OBJECT_NAME (f), factory);
}

static void on_deep_element_added (GstBin *, GstBin *sub_bin, GstElement *e, gpointer data)
{
  Run *run = (Run *) data;
  if (is_video_decoder (e))
    run->tried.push_back (GST_OBJECT_NAME (gst_element_get_factory (e)));
  /* What an application's state change walking the bin does when it meets
   * the candidate that decodebin3 has just added, before decodebin3 tries
   * READY on it (here in decodebin3's thread, so it always happens). */
  if (run->race && !run->raced && made_by (e, "vkproresdec") &&
      made_by (GST_ELEMENT (sub_bin), "decodebin3")) {
    run->raced = true;
    run->race_result = gst_element_set_state (e, GST_STATE_PAUSED);
  }
}

static GstFlowReturn on_new_sample (GstElement *sink, gpointer data)
{
  GstSample *s = nullptr;
  g_signal_emit_by_name (sink, "pull-sample", &s);
  if (s)
    ((Run *) data)->samples.push_back (s);
  return GST_FLOW_OK;
}

/* The first message of type `until` from `pipe` (`desc`); fails on an
 * error message or after two minutes. */
static GstMessage *wait_for (GstElement *pipe, const std::string &desc, GstMessageType until)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      (GstMessageType) (until | GST_MESSAGE_ERROR));
  gst_object_unref (bus);
  fail_unless (msg != nullptr, "%s: timed out", desc.c_str ());
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = nullptr;
    gchar *dbg = nullptr;
    gst_message_parse_error (msg, &err, &dbg);
    fail ("%s: %s (%s)", desc.c_str (), err->message, dbg ? dbg : "");
  }
  return msg;
}

/* Plays `desc` (its appsink named "out", or playbin whose video-sink is
 * made here) to EOS; fails on an error message. */
static void play (const std::string &desc, Run *run, bool playbin = false)
{
  GError *err = nullptr;
  GstElement *pipe = gst_parse_launch (desc.c_str (), &err);
  fail_unless (pipe != nullptr, "%s: %s", desc.c_str (), err ? err->message : "?");
  g_clear_error (&err);
  GstElement *sink;
  if (playbin) {
    sink = gst_element_factory_make ("appsink", "out");
    fail_unless (sink != nullptr);
    g_object_set (pipe, "video-sink", gst_object_ref (sink), NULL);
    GstElement *fake = gst_element_factory_make ("fakesink", nullptr);
    g_object_set (pipe, "audio-sink", fake, NULL);
  } else {
    sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
    fail_unless (sink != nullptr);
  }
  g_object_set (sink, "emit-signals", TRUE, "sync", FALSE, NULL);
  g_signal_connect (sink, "new-sample", G_CALLBACK (on_new_sample), run);
  g_signal_connect (pipe, "deep-element-added", G_CALLBACK (on_deep_element_added), run);

  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE,
      "%s: does not start", desc.c_str ());
  gst_message_unref (wait_for (pipe, desc, GST_MESSAGE_EOS));

  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (pipe));
  GValue v = G_VALUE_INIT;
  while (gst_iterator_next (it, &v) == GST_ITERATOR_OK) {
    GstElement *e = (GstElement *) g_value_get_object (&v);
    if (is_video_decoder (e))
      run->used = GST_OBJECT_NAME (gst_element_get_factory (e));
    g_value_reset (&v);
  }
  g_value_unset (&v);
  gst_iterator_free (it);

  gst_object_unref (sink);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  if (!g_no_vulkan)
    gpc_vk_test_check_validation ();
}

/* The same pictures, sample for sample, as avdec_prores's. */
/* Sample `a` (frame `i` of `file`) is avdec_prores's `b`, sample for sample. */
static void check_same_sample (const char *file, size_t i, GstSample *sa, GstSample *sb)
{
  GstVideoInfo a, b;
  fail_unless (gst_video_info_from_caps (&a, gst_sample_get_caps (sa)));
  fail_unless (gst_video_info_from_caps (&b, gst_sample_get_caps (sb)));
  fail_unless (GST_VIDEO_INFO_FORMAT (&a) == GST_VIDEO_INFO_FORMAT (&b),
      "%s frame %zu: %s, avdec_prores %s", file, i,
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&a)),
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&b)));
  fail_unless (a.width == b.width && a.height == b.height);
  fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (sa)),
      GST_BUFFER_PTS (gst_sample_get_buffer (sb)));
  GstVideoFrame fa, fb;
  fail_unless (gst_video_frame_map (&fa, &a, gst_sample_get_buffer (sa), GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, &b, gst_sample_get_buffer (sb), GST_MAP_READ));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&fa); p++) {
    const guint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&fa, p);
    const guint bytes = GST_VIDEO_FRAME_COMP_WIDTH (&fa, p) * GST_VIDEO_FRAME_COMP_PSTRIDE (&fa, p);
    for (guint y = 0; y < rows; y++) {
      const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fa, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fa, p);
      const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&fb, p) +
          y * GST_VIDEO_FRAME_PLANE_STRIDE (&fb, p);
      fail_unless (memcmp (ra, rb, bytes) == 0, "%s frame %zu plane %u row %u differs", file, i,
          p, y);
    }
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
}

static void check_same_frames (const char *file, const Run &got, const Run &ref)
{
  fail_unless_equals_int ((int) got.samples.size (), (int) ref.samples.size ());
  fail_unless (!ref.samples.empty (), "%s: no frames", file);
  for (size_t i = 0; i < got.samples.size (); i++)
    check_same_sample (file, i, got.samples[i], ref.samples[i]);
}

static void reference_run (const std::string &path, Run *ref)
{
  play ("filesrc location=\"" + path + "\" ! qtdemux ! avdec_prores ! appsink name=out", ref);
}

/* The rank the plugin gave itself for this machine's default device. */
GST_START_TEST (rank_follows_device)
{
  if (g_getenv ("GST_PLUGIN_FEATURE_RANK")) {
    fail_unless (rank_of ("vkproresdec") > GST_RANK_PRIMARY + 1);
    return;
  }
  int expected = GST_RANK_NONE;
  if (!g_no_vulkan) {
    GstVulkanInstance *instance = gst_vulkan_instance_new ();
    fail_unless (gst_vulkan_instance_open (instance, nullptr));
    GstVulkanPhysicalDevice *pd = gst_vulkan_physical_device_new (instance, 0);
    if (pd->properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU
        && pd->properties.deviceType != VK_PHYSICAL_DEVICE_TYPE_OTHER)
      expected = GST_RANK_PRIMARY + 1;
    printf ("device 0: %s, expected rank %d\n", pd->properties.deviceName, expected);
    gst_object_unref (pd);
    gst_object_unref (instance);
  }
  fail_unless_equals_int (rank_of ("vkproresdec"), expected);
  fail_unless (rank_of ("avdec_prores") >= GST_RANK_MARGINAL);
}
GST_END_TEST;

/* decodebin and decodebin3 take the decoder the ranks say (avdec_prores
 * when a forced vkproresdec has no device) and give avdec_prores's
 * pictures. */
GST_START_TEST (decodebin_picks)
{
  for (const char *file : kFiles) {
    const std::string path = media (file);
    Run ref;
    reference_run (path, &ref);
    for (const char *bin : { "decodebin", "decodebin3" }) {
      Run run;
      play ("filesrc location=\"" + path + "\" ! " + bin + " ! appsink name=out", &run);
      printf ("%s, %s: tried", file, bin);
      for (const std::string &t : run.tried)
        printf (" %s", t.c_str ());
      printf (", used %s, %zu frames\n", run.used.c_str (), run.samples.size ());
      fail_unless (run.used == expected_decoder (), "%s: %s used %s", file, bin, run.used.c_str ());
      if (g_no_vulkan && rank_of ("vkproresdec") > rank_of ("avdec_prores"))
        fail_unless (!run.tried.empty () && run.tried[0] == "vkproresdec",
            "the forced vkproresdec was not tried first");
      check_same_frames (file, run, ref);
    }
  }
}
GST_END_TEST;

/* A state change that walks decodebin3 while it tries vkproresdec (made
 * to happen in that moment, see on_deep_element_added) does not fail with
 * the candidate, even when its device is gone: decodebin3 then still
 * takes the decoder the ranks say and plays every frame. */
GST_START_TEST (decodebin3_racing_state_change)
{
  const std::string path = media ("aw_hq_336x200.mov");
  Run ref;
  reference_run (path, &ref);
  Run run;
  run.race = true;
  play ("filesrc location=\"" + path + "\" ! decodebin3 ! appsink name=out", &run);
  printf ("decodebin3 with a racing state change: %s, used %s, %zu frames\n",
      run.raced ? gst_element_state_change_return_get_name (run.race_result) : "not raced",
      run.used.c_str (), run.samples.size ());
  if (rank_of ("vkproresdec") > rank_of ("avdec_prores"))
    fail_unless (run.raced, "vkproresdec was not tried");
  fail_unless (run.race_result != GST_STATE_CHANGE_FAILURE,
      "the candidate vkproresdec failed the state change");
  fail_unless (run.used == expected_decoder (), "decodebin3 used %s", run.used.c_str ());
  check_same_frames ("decodebin3", run, ref);
}
GST_END_TEST;

/* playbin plays a file through the decoder the ranks say. */
GST_START_TEST (playbin_plays)
{
  const std::string path = media ("aw_hq_336x200.mov");
  Run ref;
  reference_run (path, &ref);
  Run run;
  gchar *uri = gst_filename_to_uri (path.c_str (), nullptr);
  play (std::string ("playbin uri=\"") + uri + "\"", &run, true);
  g_free (uri);
  printf ("playbin used %s, %zu frames\n", run.used.c_str (), run.samples.size ());
  fail_unless (run.used == expected_decoder (), "playbin used %s", run.used.c_str ());
  check_same_frames ("playbin", run, ref);
}
GST_END_TEST;

/* ------------------------------------------------------------------ caps */

namespace {

/* A clip generated here by Debian's ffmpeg (prores_ks, 64x48, 2 frames). */
struct CapsCase {
  const char *name;
  int profile;          /* -profile:v, 0 (proxy) to 5 (4444 XQ) */
  const char *pix_fmt;
  const char *filter;   /* appended to the source's filter chain, or "" */
  const char *opts;     /* more encoder options, space separated, or "" */
  const char *colorimetry; /* what ffmpeg is told to tag */
};

const CapsCase kCapsCases[] = {
  { "proxy", 0, "yuv422p10le", "", "", "2:0:0:0" },
  { "lt", 1, "yuv422p10le", "", "", "2:0:0:0" },
  { "standard", 2, "yuv422p10le", "", "", "2:0:0:0" },
  { "hq", 3, "yuv422p10le", "", "", "2:0:0:0" },
  { "4444", 4, "yuv444p10le", "", "", "2:0:0:0" },
  { "4444xq", 5, "yuv444p10le", "", "", "2:0:0:0" },
  { "4444_alpha", 4, "yuva444p10le", "", "", "2:0:0:0" },
  { "bt709", 3, "yuv422p10le", "", "-color_primaries bt709 -color_trc bt709 -colorspace bt709",
    "bt709" },
  { "bt601", 3, "yuv422p10le", "",
    "-color_primaries smpte170m -color_trc smpte170m -colorspace smpte170m", "bt601" },
  { "bt2020_pq", 3, "yuv422p10le", "",
    "-color_primaries bt2020 -color_trc smpte2084 -colorspace bt2020nc", "bt2100-pq" },
  { "bt2020_hlg", 4, "yuv444p10le", "",
    "-color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc", "bt2100-hlg" },
  { "par_4_3", 3, "yuv422p10le", ",setsar=4/3", "", "2:0:0:0" },
  { "tff", 3, "yuv422p10le", "", "-flags +ildct -top 1", "2:0:0:0" },
  { "bff", 2, "yuv422p10le", "", "-flags +ildct -top 0", "2:0:0:0" },
};

} // namespace

/* Writes `frames` frames of `c` as dir/name.mov; false when ffmpeg is
 * missing. */
static bool make_clip (const std::string &dir, const CapsCase &c, std::string *path,
    int frames = 2)
{
  *path = dir + "/" + c.name + ".mov";
  std::string cmd = std::string ("ffmpeg -nostdin -v error -y -f lavfi -i testsrc2=size=64x48:rate=25,"
      "format=") + c.pix_fmt + c.filter + " -frames:v " + std::to_string (frames) +
      " -c:v prores_ks -profile:v " +
      std::to_string (c.profile) + " " + c.opts + " " + *path;
  gchar **argv = nullptr;
  fail_unless (g_shell_parse_argv (cmd.c_str (), nullptr, &argv, nullptr));
  gint status = 0;
  GError *err = nullptr;
  gboolean ran = g_spawn_sync (nullptr, argv, nullptr, G_SPAWN_SEARCH_PATH, nullptr, nullptr,
      nullptr, nullptr, &status, &err);
  g_strfreev (argv);
  if (!ran) {
    g_clear_error (&err);
    return false;
  }
  fail_unless (g_spawn_check_wait_status (status, nullptr), "%s failed", cmd.c_str ());
  return true;
}

namespace {

struct CapsCompare {
  const GstStructure *ours;
  bool is444;
  std::string diff;
};

} // namespace

/* Fields of avdec_prores's caps that ours must have with the same value;
 * but the format of 4:4:4: 12 bits where avdec_prores decodes 10. */
static gboolean compare_field (GQuark field, const GValue *theirs, gpointer data)
{
  CapsCompare *c = (CapsCompare *) data;
  const char *name = g_quark_to_string (field);
  const GValue *ours = gst_structure_id_get_value (c->ours, field);
  if (c->is444 && !strcmp (name, "format")) {
    const char *t = g_value_get_string (theirs);
    const char *want = !strcmp (t, "Y444_10LE") ? "Y444_12LE" : !strcmp (t, "A444_10LE") ? "AYUV64" : t;
    if (!ours || strcmp (g_value_get_string (ours), want))
      c->diff += std::string (" format: avdec_prores ") + t + ", want " + want;
    return TRUE;
  }
  if (!ours || gst_value_compare (ours, theirs) != GST_VALUE_EQUAL) {
    gchar *a = ours ? gst_value_serialize (ours) : g_strdup ("(none)");
    gchar *b = gst_value_serialize (theirs);
    c->diff += std::string (" ") + name + ": ours " + a + ", avdec_prores " + b;
    g_free (a);
    g_free (b);
  }
  return TRUE;
}

/* Fields ours may add: the field order (GStreamer 1.22's avdec_prores
 * does not say it), the colorimetry (1.26's, on FFmpeg 7.1, says none
 * where the container has none, and leaves the frame header's out; ours is
 * checked on its own), and the base class's multiview default. */
static gboolean extra_field (GQuark field, const GValue *, gpointer data)
{
  CapsCompare *c = (CapsCompare *) data;
  const char *name = g_quark_to_string (field);
  if (strcmp (name, "field-order") && strcmp (name, "colorimetry") &&
      strcmp (name, "multiview-mode") && strcmp (name, "multiview-flags"))
    c->diff += std::string (" ") + name + ": only ours";
  return TRUE;
}

static std::string caps_diff (GstCaps *ours, GstCaps *theirs, bool is444)
{
  CapsCompare c { gst_caps_get_structure (ours, 0), is444, "" };
  const GstStructure *t = gst_caps_get_structure (theirs, 0);
  gst_structure_foreach (t, compare_field, &c);
  GstStructure *extra = gst_structure_copy (c.ours);
  gst_structure_foreach (t, [] (GQuark f, const GValue *, gpointer e) -> gboolean {
        gst_structure_remove_field ((GstStructure *) e, g_quark_to_string (f));
        return TRUE;
      }, extra);
  gst_structure_foreach (extra, extra_field, &c);
  gst_structure_free (extra);
  return c.diff;
}

/* The caps of each decoder's first output for `path`; `setter` names caps
 * that a capssetter puts on the demuxer's (for the container metadata
 * qtdemux does not read from ffmpeg's files). */
static GstCaps *decoded_caps (const std::string &path, const char *decoder,
    const char *setter = nullptr, bool replace = false)
{
  Run run;
  std::string desc = "filesrc location=\"" + path + "\" ! qtdemux ! ";
  if (setter)
    desc += std::string ("capssetter replace=") + (replace ? "true" : "false") + " caps=\"" +
        setter + "\" ! ";
  play (desc + decoder + " ! appsink name=out", &run);
  fail_unless (!run.samples.empty (), "%s: no output from %s", path.c_str (), decoder);
  return gst_caps_ref (gst_sample_get_caps (run.samples[0]));
}

/* Decodes `path` with both decoders (`setter`, `replace` as for
 * decoded_caps) and fails unless their caps agree and ours say
 * `colorimetry`; returns ours. */
static GstCaps *caps_agree (const std::string &path, const char *what, bool is444,
    const char *colorimetry, const char *setter = nullptr, bool replace = false)
{
  GstCaps *ours = decoded_caps (path, "vkproresdec", setter, replace);
  GstCaps *theirs = decoded_caps (path, "avdec_prores", setter, replace);
  const std::string diff = caps_diff (ours, theirs, is444);
  gst_caps_unref (theirs);
  fail_unless (diff.empty (), "%s:%s", what, diff.c_str ());
  const char *c = gst_structure_get_string (gst_caps_get_structure (ours, 0), "colorimetry");
  fail_unless (!g_strcmp0 (c, colorimetry), "%s: colorimetry %s, want %s", what, c ? c : "(none)",
      colorimetry);
  return ours;
}

/* The colorimetry a file's own description gives: the container's 'colr'
 * box when there is one (`tagged`: what ffmpeg was told to write) unless
 * `header_only`, else the first frame header's code points, limited range.
 * (Debian 12's ffmpeg writes the box and leaves the header unspecified,
 * Debian 13's writes only the header's matrix.) */
static std::string file_colorimetry (const std::string &path, const char *tagged, bool header_only)
{
  std::vector<uint8_t> d;
  std::vector<prores_test::Span> frames;
  fail_unless (prores_test::read_file (path, &d) && prores_test::mov_prores_frames (d, &frames));
  const size_t mdat_end = frames.back ().offset + frames.back ().size;
  bool colr = false;
  for (size_t i = 0; i + 4 <= d.size () && !colr; i++)
    colr = (i < frames[0].offset || i >= mdat_end) && !memcmp (&d[i], "colr", 4);
  if (colr && !header_only)
    return tagged;
  gpc::prores::FrameHeader h;
  fail_unless (gpc::prores::parse_frame_header (&d[frames[0].offset], frames[0].size, &h,
          nullptr) == gpc::prores::Status::kOk);
  auto set = [] (uint32_t v) { return v != 0 && v != 2; };
  GstVideoColorimetry c = { GST_VIDEO_COLOR_RANGE_16_235, GST_VIDEO_COLOR_MATRIX_UNKNOWN,
    GST_VIDEO_TRANSFER_UNKNOWN, GST_VIDEO_COLOR_PRIMARIES_UNKNOWN };
  if (set (h.matrix_coefficients))
    c.matrix = gst_video_color_matrix_from_iso (h.matrix_coefficients);
  if (set (h.transfer_characteristic))
    c.transfer = gst_video_transfer_function_from_iso (h.transfer_characteristic);
  if (set (h.color_primaries))
    c.primaries = gst_video_color_primaries_from_iso (h.color_primaries);
  gchar *str = gst_video_colorimetry_to_string (&c);
  const std::string r = str ? str : "";
  g_free (str);
  return r;
}

/* For every profile, colour description, pixel aspect ratio and field
 * order, vkproresdec's caps are avdec_prores's, field by field. */
GST_START_TEST (caps_like_avdec)
{
  gchar *dir = g_dir_make_tmp ("gpc-prores-caps-XXXXXX", nullptr);
  fail_unless (dir != nullptr);
  for (const CapsCase &c : kCapsCases) {
    std::string path;
    if (!make_clip (dir, c, &path)) {
      printf ("SKIP caps_like_avdec: no ffmpeg\n");
      break;
    }
    GstCaps *ours = caps_agree (path, c.name, c.profile >= 4,
        file_colorimetry (path, c.colorimetry, false).c_str ());
    gchar *o = gst_caps_to_string (ours);
    printf ("%s: %s\n", c.name, o);
    g_free (o);
    if (strstr (c.opts, "-top")) {
      const char *order = gst_structure_get_string (gst_caps_get_structure (ours, 0), "field-order");
      fail_unless (order && !strcmp (order, strstr (c.opts, "-top 1") ? "top-field-first" :
              "bottom-field-first"), "%s: field-order %s", c.name, order ? order : "(none)");
    }
    gst_caps_unref (ours);
    if (strstr (c.opts, "-color_primaries")) {
      /* Without the container's colour description: the frame header's. */
      static const char *const variants[] = { "proxy", "lt", "standard", "hq", "4444", "4444xq" };
      const std::string bare = std::string ("video/x-prores,variant=") + variants[c.profile] +
          ",width=64,height=48,framerate=25/1";
      gst_caps_unref (caps_agree (path, (std::string (c.name) + ", frame header only").c_str (),
              c.profile >= 4, file_colorimetry (path, c.colorimetry, true).c_str (), bare.c_str (),
              true));
    }
    g_unlink (path.c_str ());
  }
  g_rmdir (dir);
  g_free (dir);
}
GST_END_TEST;

/* HDR10 metadata from upstream caps (mastering display, content light
 * level) reach the output caps as with avdec_prores. */
GST_START_TEST (hdr_caps_like_avdec)
{
  gchar *dir = g_dir_make_tmp ("gpc-prores-caps-XXXXXX", nullptr);
  std::string path;
  if (!make_clip (dir, kCapsCases[9], &path)) {
    printf ("SKIP hdr_caps_like_avdec: no ffmpeg\n");
    g_rmdir (dir);
    g_free (dir);
    return;
  }
  const char *setter = "video/x-prores,mastering-display-info=(string)"
      "35400:14600:8500:39850:6550:2300:15635:16450:10000000:1,content-light-level=(string)1000:400";
  GstCaps *ours = caps_agree (path, "HDR10", false,
      file_colorimetry (path, kCapsCases[9].colorimetry, false).c_str (), setter);
  const GstStructure *o = gst_caps_get_structure (ours, 0);
  fail_unless (gst_structure_has_field (o, "mastering-display-info"));
  fail_unless (gst_structure_has_field (o, "content-light-level"));
  gst_caps_unref (ours);
  g_unlink (path.c_str ());
  g_rmdir (dir);
  g_free (dir);
}
GST_END_TEST;

/* ------------------------------------------------------------- seeking */

/* The sink's answer to the segment-done event: the demuxer's message comes
 * before the decoder has drained its frames, the event after. */
static GstPadProbeReturn on_sink_event (GstPad *pad, GstPadProbeInfo *info, gpointer)
{
  if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_SEGMENT_DONE) {
    GstElement *sink = gst_pad_get_parent_element (pad);
    gst_element_post_message (sink, gst_message_new_application (GST_OBJECT (sink),
            gst_structure_new_empty ("segment-done-at-sink")));
    gst_object_unref (sink);
  }
  return GST_PAD_PROBE_OK;
}

/* `desc` (its appsink named "out") prerolled, `seek` sent in PAUSED, then
 * played until EOS, or for a segment seek until the segment-done event
 * reaches the sink; with `step`, a step of that many frames in PAUSED
 * instead, until STEP_DONE. */
static void seek_run (const std::string &desc, GstEvent *seek, guint64 step, Run *run)
{
  GstElement *pipe = gst_parse_launch (desc.c_str (), nullptr);
  fail_unless (pipe != nullptr);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "out");
  g_object_set (sink, "emit-signals", TRUE, "sync", FALSE, NULL);
  g_signal_connect (sink, "new-sample", G_CALLBACK (on_new_sample), run);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
  fail_unless (gst_element_get_state (pipe, nullptr, nullptr, 60 * GST_SECOND) ==
      GST_STATE_CHANGE_SUCCESS);
  GstMessageType until = GST_MESSAGE_EOS;
  if (seek) {
    GstSeekFlags flags;
    gst_event_parse_seek (seek, nullptr, nullptr, &flags, nullptr, nullptr, nullptr, nullptr);
    if (flags & GST_SEEK_FLAG_SEGMENT) {
      until = GST_MESSAGE_APPLICATION;
      GstPad *pad = gst_element_get_static_pad (sink, "sink");
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_sink_event, nullptr,
          nullptr);
      gst_object_unref (pad);
    }
    fail_unless (gst_element_send_event (pipe, seek));
    fail_unless (gst_element_get_state (pipe, nullptr, nullptr, 60 * GST_SECOND) ==
        GST_STATE_CHANGE_SUCCESS);
  }
  if (step) {
    until = GST_MESSAGE_STEP_DONE;
    fail_unless (gst_element_send_event (pipe, gst_event_new_step (GST_FORMAT_BUFFERS, step, 1.0,
                TRUE, FALSE)));
  } else {
    gst_element_set_state (pipe, GST_STATE_PLAYING);
  }
  GstMessage *msg = wait_for (pipe, desc, until);
  if (step) {
    guint64 amount = 0;
    gst_message_parse_step_done (msg, nullptr, &amount, nullptr, nullptr, nullptr, nullptr,
        nullptr);
    fail_unless_equals_uint64 (amount, step);
  }
  gst_message_unref (msg);
  gst_object_unref (sink);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
}

/* The frames of `run`, found by PTS among avdec_prores's `ref` and equal. */
static void check_frames_by_pts (const char *what, const Run &run, const Run &ref)
{
  for (size_t i = 0; i < run.samples.size (); i++) {
    const GstClockTime pts = GST_BUFFER_PTS (gst_sample_get_buffer (run.samples[i]));
    GstSample *match = nullptr;
    for (GstSample *r : ref.samples)
      if (GST_BUFFER_PTS (gst_sample_get_buffer (r)) == pts)
        match = r;
    fail_unless (match != nullptr, "%s: output %zu at %" GST_TIME_FORMAT " not in the file",
        what, i, GST_TIME_ARGS (pts));
    check_same_sample (what, i, run.samples[i], match);
  }
}

static GstClockTime pts_of (const Run &run, size_t i)
{
  return GST_BUFFER_PTS (gst_sample_get_buffer (run.samples[i]));
}

/* Through qtdemux on a 50-frame clip (2 s at 25 fps): a flushing seek, a
 * segment seek, reverse playback and frame steps give the frames they
 * should, each avdec_prores's picture of the same time. */
GST_START_TEST (seeking)
{
  gchar *dir = g_dir_make_tmp ("gpc-prores-seek-XXXXXX", nullptr);
  const CapsCase clip = { "seek", 3, "yuv422p10le", "", "", "2:0:0:0" };
  std::string path;
  if (!make_clip (dir, clip, &path, 50)) {
    printf ("SKIP seeking: no ffmpeg\n");
    g_rmdir (dir);
    g_free (dir);
    return;
  }
  Run ref;
  reference_run (path, &ref);
  fail_unless_equals_int ((int) ref.samples.size (), 50);
  const std::string desc = "filesrc location=\"" + path + "\" ! qtdemux ! vkproresdec ! "
      "appsink name=out";
  const GstSeekFlags flush = (GstSeekFlags) (GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE);
  const GstClockTime frame = GST_SECOND / 25;
  {
    Run run;
    seek_run (desc, gst_event_new_seek (1.0, GST_FORMAT_TIME, flush, GST_SEEK_TYPE_SET, GST_SECOND,
            GST_SEEK_TYPE_NONE, 0), 0, &run);
    fail_unless_equals_int ((int) run.samples.size (), 25);
    fail_unless_equals_uint64 (pts_of (run, 0), GST_SECOND);
    check_frames_by_pts ("flushing seek", run, ref);
  }
  {
    Run run;
    seek_run (desc, gst_event_new_seek (1.0, GST_FORMAT_TIME,
            (GstSeekFlags) (flush | GST_SEEK_FLAG_SEGMENT), GST_SEEK_TYPE_SET, 10 * frame,
            GST_SEEK_TYPE_SET, 30 * frame), 0, &run);
    fail_unless_equals_int ((int) run.samples.size (), 20);
    fail_unless_equals_uint64 (pts_of (run, 0), 10 * frame);
    check_frames_by_pts ("segment seek", run, ref);
  }
  {
    Run run;
    seek_run (desc, gst_event_new_seek (-1.0, GST_FORMAT_TIME, flush, GST_SEEK_TYPE_SET, 0,
            GST_SEEK_TYPE_SET, GST_SECOND), 0, &run);
    fail_unless_equals_int ((int) run.samples.size (), 25);
    for (size_t i = 0; i < run.samples.size (); i++)
      fail_unless_equals_uint64 (pts_of (run, i), (24 - i) * frame);
    check_frames_by_pts ("reverse playback", run, ref);
  }
  {
    Run run;
    seek_run (desc, nullptr, 5, &run);
    check_frames_by_pts ("frame steps", run, ref);
  }
  g_unlink (path.c_str ());
  g_rmdir (dir);
  g_free (dir);
  if (!g_no_vulkan)
    gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* gst-inspect-1.0 vkproresdec on a registry of its own, with our plugin
 * only; returns what it printed (with our debug log). */
static std::string inspect (const std::string &registry, const char *driver_files)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (), "gpucodecsvulkan");
  fail_unless (plugin != nullptr);
  gchar *dir = g_path_get_dirname (gst_plugin_get_filename (plugin));
  gst_object_unref (plugin);
  gchar **env = g_get_environ ();
  env = g_environ_setenv (env, "GST_REGISTRY", registry.c_str (), TRUE);
  env = g_environ_setenv (env, "GST_PLUGIN_PATH_1_0", dir, TRUE);
  env = g_environ_setenv (env, "GST_PLUGIN_SYSTEM_PATH_1_0", "", TRUE);
  env = g_environ_setenv (env, "GST_DEBUG", "vkproresdec:4", TRUE);
  env = g_environ_unsetenv (env, "GST_PLUGIN_FEATURE_RANK");
  env = g_environ_unsetenv (env, "VK_INSTANCE_LAYERS");
  env = driver_files ? g_environ_setenv (env, "VK_DRIVER_FILES", driver_files, TRUE) :
      g_environ_unsetenv (env, "VK_DRIVER_FILES");
  g_free (dir);
  gchar *argv[] = { (gchar *) "gst-inspect-1.0", (gchar *) "vkproresdec", nullptr };
  gchar *out = nullptr, *err = nullptr;
  gint status = 0;
  GError *error = nullptr;
  fail_unless (g_spawn_sync (nullptr, argv, env, G_SPAWN_SEARCH_PATH, nullptr, nullptr, &out,
          &err, &status, &error), "gst-inspect-1.0: %s", error ? error->message : "?");
  g_strfreev (env);
  std::string r = std::string (out ? out : "") + (err ? err : "");
  g_free (out);
  g_free (err);
  return r;
}

/* The rank is decided when the plugin is scanned; the registry caches it
 * and scans the plugin again when the Vulkan driver set changes. */
GST_START_TEST (registry_follows_driver)
{
  /* tools/sanitize.sh: the system's gst-inspect-1.0 has no sanitizer
   * runtime to load our instrumented plugin with (the reason that script
   * scans registries in-process). */
  if (!g_strcmp0 (g_getenv ("GST_REGISTRY_FORK"), "no")) {
    printf ("SKIP registry_follows_driver: GST_REGISTRY_FORK=no (sanitizer build)\n");
    return;
  }
  gchar *tmp = g_dir_make_tmp ("gpc-registry-XXXXXX", nullptr);
  fail_unless (tmp != nullptr);
  const std::string registry = std::string (tmp) + "/registry.bin";
  const char *nothing = "/nonexistent/vulkan-driver.json";
  struct Step {
    const char *driver_files;
    bool probes;             /* the plugin is scanned (and probes) again */
    const char *probe_says;  /* part of the probe's log line */
  } steps[] = {
    { nullptr, true, "device 0" },
    { nullptr, false, nullptr },
    { nothing, true, "no Vulkan instance" },
    { nothing, false, nullptr },
    { nullptr, true, "device 0" },
  };
  for (const Step &s : steps) {
    const std::string out = inspect (registry, s.driver_files);
    const size_t at = out.find ("register_vkproresdec");
    printf ("VK_DRIVER_FILES=%s: %s\n", s.driver_files ? s.driver_files : "(unset)",
        at == std::string::npos ? "cached" : out.substr (at, out.find ('\n', at) - at).c_str ());
    fail_unless ((at != std::string::npos) == s.probes, "%s", out.c_str ());
    if (s.probe_says)
      fail_unless (out.find (s.probe_says, at) != std::string::npos, "%s", out.c_str ());
    if (s.driver_files)
      fail_unless (out.find ("none (0)") != std::string::npos, "%s", out.c_str ());
  }
  g_unlink (registry.c_str ());
  g_rmdir (tmp);
  g_free (tmp);
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  g_no_vulkan = g_getenv ("GPC_TEST_NO_VULKAN") != nullptr;
  if (!g_no_vulkan)
    gpc_vk_test_init ();
  for (const char *name : { "avdec_prores", "qtdemux", "decodebin3", "appsink" })
    if (rank_of (name) < 0)
      gpc_test::skip ("%s is not installed (gstreamer1.0-libav, -plugins-good, -plugins-base)",
          name);
  Suite *s = gpc_test::check_suite ("vkproresdec-autoplug", {
        GPC_CHECK_TEST (rank_follows_device),
        GPC_CHECK_TEST (decodebin_picks),
        GPC_CHECK_TEST (decodebin3_racing_state_change),
        GPC_CHECK_TEST (playbin_plays),
        GPC_CHECK_TEST (caps_like_avdec),
        GPC_CHECK_TEST (hdr_caps_like_avdec),
        GPC_CHECK_TEST (seeking),
        GPC_CHECK_TEST (registry_follows_driver) }, 600);
  return gst_check_run_suite (s, "vkproresdec-autoplug", __FILE__);
}
