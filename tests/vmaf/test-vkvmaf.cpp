/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf end to end on the VMAF clips (8, 10 and 12 bit, odd sizes, coding
 * distortion): every frame's score and feature values in its "VMAF" message
 * equal libvmaf's bit for bit (tolerance: none; the log files hold them to
 * libvmaf's printed 6 decimals), for the default, neg, 4k and transformed
 * models, with subsampling, from system memory and from Vulkan buffers and
 * images; the same on the real clips (camera content of the conformance
 * vectors, where they are) for the default and neg models; the docs' example
 * pipeline (an encoded file against its source, both through decodebin);
 * pass-through, pairing by running time, errors on mismatched inputs, start
 * failures.
 */
#include <map>
#include <string>
#include <vector>

#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

#include "gpc-test.h"
#include "gpc-hammer.h"
#include "gpc-vk-test.h"
#include "vmaf-clips.h"

namespace {

/* What one run posted and passed on. */
struct Run {
  std::vector<std::map<std::string, double>> frames;  /* "VMAF" frame messages */
  std::vector<int> index;
  std::map<std::string, double> pooled;
  std::string error, warning;
  std::vector<GstBuffer *> out;
  ~Run ()
  {
    for (GstBuffer *b : out)
      gst_buffer_unref (b);
  }
};

const char *
format_for (int bpc)
{
  return bpc == 8 ? "I420" : bpc == 10 ? "I420_10LE" : bpc == 12 ? "I420_12LE" : "Y444_16LE";
}

/* Frame f of a clip (ref or dist) as an I420-family picture, mid-grey chroma. */
GstBuffer *
picture (const VmafClip &clip, const std::vector<uint16_t> &luma, int bpc,
    GstClockTime pts)
{
  GstVideoInfo info;
  gst_video_info_set_format (&info, gst_video_format_from_string (format_for (bpc)),
      clip.width, clip.height);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info.size, NULL);
  GstVideoFrame frame;
  gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE);
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    uint8_t *data = (uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    const int w = GST_VIDEO_FRAME_COMP_WIDTH (&frame, p), h = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, p);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        const uint16_t v = p == 0 ? luma[(size_t) y * clip.width + x] : 1 << (bpc - 1);
        if (bpc == 8)
          data[y * stride + x] = (uint8_t) v;
        else
          ((uint16_t *) (data + y * stride))[x] = v;
      }
  }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = 40 * GST_MSECOND;
  return buf;
}

/* Where the test puts the frames it pushes. */
enum Memory { SYSTEM, VK_BUFFER, VK_STORAGE_BUFFER, VK_IMAGE };

std::string
caps_of (const VmafClip &clip, int bpc, Memory mem = SYSTEM)
{
  const char *feature = mem == SYSTEM ? "" : mem == VK_IMAGE ? "(memory:VulkanImage)"
      : "(memory:VulkanBuffer)";
  return std::string ("video/x-raw") + feature + ",format=" + format_for (bpc) + ",width="
      + std::to_string (clip.width) + ",height=" + std::to_string (clip.height)
      + ",framerate=25/1";
}

/* Options of one run. */
struct RunOpts {
  std::string props;        /* vkvmaf properties */
  std::string chain;        /* between each appsrc and vkvmaf, e.g. "vulkanupload ! ..." */
  int ref_frames = -1, dist_frames = -1;  /* -1: all */
  const VmafClip *dist_clip = nullptr;    /* another clip on dist_sink */
  int dist_bpc = 0;                       /* another bit depth on dist_sink */
  bool extra_dist_frame = false;          /* one unmatched frame before the first */
  Memory memory = SYSTEM;                 /* made by the test on its own device */
};

/* A system-memory picture in `mem`, on `dev` (shared with the element). */
GstBuffer *
to_memory (GstBuffer *sys, const VmafClip &clip, int bpc, Memory mem, GpcVkTestDevice *dev)
{
  if (mem == SYSTEM)
    return sys;
  GstVideoInfo info;
  gst_video_info_set_format (&info, gst_video_format_from_string (format_for (bpc)),
      clip.width, clip.height);
  GstBuffer *out = mem == VK_IMAGE ? gpc_vk_test_to_vulkan_images (dev->exec, sys, &info)
      : gpc_vk_test_to_vulkan_buffers (dev->device, sys, &info, mem == VK_STORAGE_BUFFER,
          clip.width % 2 == 1);
  GST_BUFFER_PTS (out) = GST_BUFFER_PTS (sys);
  GST_BUFFER_DURATION (out) = GST_BUFFER_DURATION (sys);
  gst_buffer_unref (sys);
  return out;
}

/* The bus's messages until EOS or an error: errors, warnings and the
 * "VMAF" messages, into `run`. */
void
collect (GstBus *bus, Run *run)
{
  for (bool done = false; !done;) {
    GstMessage *m = gst_bus_timed_pop (bus, 120 * GST_SECOND);
    fail_unless (m != NULL, "no EOS or error in 120 s");
    switch (GST_MESSAGE_TYPE (m)) {
      case GST_MESSAGE_EOS:
        done = true;
        break;
      case GST_MESSAGE_ERROR:
      case GST_MESSAGE_WARNING: {
        GError *e = NULL;
        gchar *dbg = NULL;
        if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
          gst_message_parse_error (m, &e, &dbg);
          run->error = std::string (e->message) + " / " + (dbg ? dbg : "");
          done = true;
        } else {
          gst_message_parse_warning (m, &e, &dbg);
          run->warning = e->message;
        }
        g_clear_error (&e);
        g_free (dbg);
        break;
      }
      case GST_MESSAGE_ELEMENT: {
        const GstStructure *st = gst_message_get_structure (m);
        if (!gst_structure_has_name (st, "VMAF"))
          break;
        std::map<std::string, double> v;
        for (int i = 0; i < gst_structure_n_fields (st); i++) {
          const char *name = gst_structure_nth_field_name (st, i);
          if (gst_structure_get_field_type (st, name) == G_TYPE_DOUBLE)
            gst_structure_get_double (st, name, &v[name]);
        }
        if (!g_strcmp0 (gst_structure_get_string (st, "type"), "pooled")) {
          run->pooled = v;
        } else {
          int index = -1;
          gst_structure_get_int (st, "index", &index);
          run->index.push_back (index);
          run->frames.push_back (v);
        }
        break;
      }
      default:
        break;
    }
    gst_message_unref (m);
  }
}

void
run_clip (const VmafClip &clip, const RunOpts &o, Run *run)
{
  const VmafClip &dclip = o.dist_clip ? *o.dist_clip : clip;
  const int dbpc = o.dist_bpc ? o.dist_bpc : clip.bpc;
  const std::string chain = o.chain.empty () ? "" : o.chain + " ! ";
  const std::string launch = "appsrc name=r format=time caps=\"" + caps_of (clip, clip.bpc, o.memory)
      + "\" ! " + chain + "v.ref_sink appsrc name=d format=time caps=\""
      + caps_of (dclip, dbpc, o.memory)
      + "\" ! " + chain + "v.dist_sink vkvmaf name=v frame-message=true " + o.props
      + " ! appsink name=s sync=false wait-on-eos=false";
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (launch.c_str (), &err);
  fail_unless (pipe != NULL, "%s: %s", launch.c_str (), err ? err->message : "");
  GstElement *r = gst_bin_get_by_name (GST_BIN (pipe), "r");
  GstElement *d = gst_bin_get_by_name (GST_BIN (pipe), "d");
  GstElement *s = gst_bin_get_by_name (GST_BIN (pipe), "s");
  GstBus *bus = gst_element_get_bus (pipe);
  GpcVkTestDevice *dev = o.memory == SYSTEM ? nullptr : new GpcVkTestDevice ();
  if (dev) {
    GstElement *v = gst_bin_get_by_name (GST_BIN (pipe), "v");
    dev->share_with (v);
    gst_object_unref (v);
  }
  gst_element_set_state (pipe, GST_STATE_PLAYING);

  const GstClockTime t0 = o.extra_dist_frame ? 40 * GST_MSECOND : 0;
  const int nr = o.ref_frames < 0 ? clip.frames : o.ref_frames;
  const int nd = o.dist_frames < 0 ? dclip.frames : o.dist_frames;
  auto push = [&] (GstElement *src, const VmafClip &c, const std::vector<uint16_t> &luma, int bpc,
      GstClockTime pts) {
    gst_app_src_push_buffer (GST_APP_SRC (src), to_memory (picture (c, luma, bpc, pts), c, bpc,
            o.memory, dev));
  };
  if (o.extra_dist_frame)
    push (d, dclip, dclip.dist[0], dbpc, 0);
  for (int f = 0; f < std::max (nr, nd); f++) {
    if (f < nr)
      push (r, clip, clip.ref[f], clip.bpc, t0 + f * 40 * GST_MSECOND);
    if (f < nd)
      push (d, dclip, dclip.dist[f], dbpc, t0 + f * 40 * GST_MSECOND);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (r));
  gst_app_src_end_of_stream (GST_APP_SRC (d));

  collect (bus, run);
  GstSample *sample;
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (s), 0)) != NULL) {
    run->out.push_back (gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (r);
  gst_object_unref (d);
  gst_object_unref (s);
  gst_object_unref (pipe);
  delete dev;
  gpc_vk_test_check_validation ();
}

/* Every scored frame equals libvmaf: the score (expectation `key`) and each
 * feature the message carries. */
void
check_frames (const VmafClip &clip, const Run &run, const char *key, int subsample)
{
  fail_unless (run.error.empty (), "%s: %s", clip.name.c_str (), run.error.c_str ());
  fail_unless_equals_int (run.frames.size (), (clip.frames + subsample - 1) / subsample);
  for (size_t i = 0; i < run.frames.size (); i++) {
    fail_unless_equals_int (run.index[i], (int) i * subsample);
    const auto &want = clip.expect[run.index[i]];
    for (const auto &kv : run.frames[i]) {
      const std::string k = kv.first == "score" ? key : kv.first;
      if (kv.first == "duration")
        continue;
      fail_unless (want.count (k), "%s: no expectation %s", clip.name.c_str (), k.c_str ());
      fail_unless (kv.second == want.at (k), "%s frame %d %s: %.17g, libvmaf %.17g",
          clip.name.c_str (), run.index[i], k.c_str (), kv.second, want.at (k));
    }
  }
}

VmafClip
load (const std::string &name)
{
  VmafClip c;
  fail_unless (vmaf_load_clip (name, &c), "clip %s", name.c_str ());
  return c;
}

/* The pooled score is the mean of libvmaf's (expectation `key`), as libvmaf
 * pools. */
void
check_pooled_mean (const VmafClip &clip, const Run &run, const char *key)
{
  double sum = 0;
  for (int f = 0; f < clip.frames; f++)
    sum += clip.expect[f].at (key);
  fail_unless (run.pooled.count ("score") && run.pooled.at ("score") == sum / clip.frames,
      "%s: pooled %s is not libvmaf's mean", clip.name.c_str (), key);
}

/* A log's `text` (named `what`) prints every frame's score (expectation
 * `key`) as libvmaf does, to 6 decimals. */
void
check_log_scores (const char *text, const char *what, const VmafClip &clip, const char *key)
{
  for (int f = 0; f < clip.frames; f++) {
    char want[64];
    snprintf (want, sizeof want, "%.6f", clip.expect[f].at (key));
    fail_unless (strstr (text, want) != NULL, "%s: %s missing", what, want);
  }
}

/* A model given by its properties, and the expectations' key of its score. */
struct ModelRun {
  const char *props, *key;
};

/* Every frame of `clip` and its pooled mean equal libvmaf's, for each model. */
void
check_models (const VmafClip &clip, const std::vector<ModelRun> &models)
{
  for (const ModelRun &m : models) {
    RunOpts o;
    o.props = m.props;
    Run run;
    run_clip (clip, o, &run);
    check_frames (clip, run, m.key, 1);
    check_pooled_mean (clip, run, m.key);
    GST_INFO ("%s %s: %d frames equal", clip.name.c_str (), m.key, clip.frames);
  }
}

const ModelRun kDefault = { "", "vmaf" }, kNeg = { "model-filename=vmaf_v0.6.1neg", "vmaf_neg" };

} // namespace

GST_START_TEST (clips_match_libvmaf)
{
  for (const std::string &name : vmaf_clip_names ())
    check_models (load (name), { kDefault, kNeg, { "model-filename=vmaf_4k_v0.6.1", "vmaf_4k" },
        { "phone-model=true", "vmaf_transform" } });
}
GST_END_TEST;

GST_START_TEST (real_clips_match_libvmaf)
{
  const std::vector<std::string> names = vmaf_real_clip_names ();
  if (names.empty ())
    printf ("SKIP real_clips_match_libvmaf: no real clip's pictures are here\n");
  for (const std::string &name : names)
    check_models (load (name), { kDefault, kNeg });
}
GST_END_TEST;

GST_START_TEST (subsample_and_pool_methods)
{
  const VmafClip clip = load ("mandelbrot-176x144-10bit");
  RunOpts o;
  o.props = "subsample=2 pool-method=min";
  Run run;
  run_clip (clip, o, &run);
  check_frames (clip, run, "vmaf", 2);
  double min = 1e9;
  for (int f = 0; f < clip.frames; f += 2)
    min = std::min (min, clip.expect[f].at ("vmaf"));
  fail_unless (run.pooled.at ("score") == min);
}
GST_END_TEST;

GST_START_TEST (vulkan_input)
{
  /* Frames the test puts into Vulkan memory itself: buffers bound in place
   * (storage usage) or copied on the GPU, and 8-bit images. */
  const Memory memories[] = { VK_STORAGE_BUFFER, VK_BUFFER, VK_IMAGE };
  for (Memory mem : memories) {
    for (const std::string &name : vmaf_clip_names ()) {
      const VmafClip clip = load (name);
      if (mem == VK_IMAGE && clip.bpc != 8)
        continue;
      RunOpts o;
      o.memory = mem;
      Run run;
      run_clip (clip, o, &run);
      check_frames (clip, run, "vmaf", 1);
    }
  }
  /* vulkanupload's output, where this GStreamer and device have it (the
   * frames are appsrc's own memory). */
  if (gpc_vk_test_vulkanupload_can ("I420", "VulkanBuffer", true)) {
    const VmafClip clip = load ("testsrc2-320x180-8bit");
    RunOpts o;
    o.chain = "vulkanupload ! video/x-raw(memory:VulkanBuffer)";
    Run run;
    run_clip (clip, o, &run);
    check_frames (clip, run, "vmaf", 1);
  }
}
GST_END_TEST;

GST_START_TEST (passes_frames_through)
{
  const VmafClip clip = load ("testsrc2-320x180-8bit");
  for (int ref = 0; ref < 2; ref++) {
    RunOpts o;
    o.props = ref ? "output=reference" : "";
    Run run;
    run_clip (clip, o, &run);
    fail_unless (run.error.empty (), "%s", run.error.c_str ());
    fail_unless_equals_int (run.out.size (), clip.frames);
    for (int f = 0; f < clip.frames; f++) {
      GstMapInfo map;
      gst_buffer_map (run.out[f], &map, GST_MAP_READ);
      const std::vector<uint16_t> &want = ref ? clip.ref[f] : clip.dist[f];
      for (int x = 0; x < clip.width; x++)
        fail_unless_equals_int (map.data[x], want[x]);
      gst_buffer_unmap (run.out[f], &map);
      fail_unless_equals_uint64 (GST_BUFFER_PTS (run.out[f]), f * 40 * GST_MSECOND);
    }
  }
}
GST_END_TEST;

GST_START_TEST (pairs_by_running_time)
{
  /* One distorted frame before the first reference one: dropped, with a
   * warning; the rest pairs as before. */
  const VmafClip clip = load ("demo-odd-191x107-8bit");
  RunOpts o;
  o.extra_dist_frame = true;
  Run run;
  run_clip (clip, o, &run);
  check_frames (clip, run, "vmaf", 1);
  fail_unless (run.warning.find ("without a partner") != std::string::npos, "%s",
      run.warning.c_str ());
}
GST_END_TEST;

GST_START_TEST (mismatched_inputs_error)
{
  const VmafClip a = load ("testsrc2-320x180-8bit"), b = load ("mandelbrot-176x144-10bit");
  struct Case {
    RunOpts o;
    const char *says;
  };
  RunOpts size, depth, fewer, more;
  size.dist_clip = &b;
  size.dist_bpc = 8;
  depth.dist_bpc = 10;
  fewer.dist_frames = a.frames - 1;
  more.ref_frames = a.frames - 2;
  const Case cases[] = {
    { size, "same size" }, { depth, "sample format" },
    { fewer, "distorted input ended after 4 frames" },
    { more, "reference input ended after 3 frames" },
  };
  for (const Case &c : cases) {
    Run run;
    run_clip (a, c.o, &run);
    fail_unless (run.error.find (c.says) != std::string::npos, "'%s' not in '%s'", c.says,
        run.error.c_str ());
  }
  /* Settings the element cannot start with. */
  const char *const bad[][2] = {
    { "model-filename=/nonexistent/model.json", "/nonexistent/model.json" },
    { "results-filename=/nonexistent/dir/log.xml", "/nonexistent/dir/log.xml" },
  };
  for (const auto &c : bad) {
    RunOpts o;
    o.props = c[0];
    Run run;
    run_clip (a, o, &run);
    fail_unless (run.error.find (c[1]) != std::string::npos, "%s", run.error.c_str ());
  }
}
GST_END_TEST;

GST_START_TEST (results_files)
{
  const VmafClip clip = load ("cellauto-odd-129x75-10bit");
  gchar *dir = g_dir_make_tmp ("vkvmaf-XXXXXX", NULL);
  const char *const formats[] = { "json", "xml", "csv" };
  for (const char *fmt : formats) {
    const std::string path = std::string (dir) + "/vmaf." + fmt;
    RunOpts o;
    o.props = "results-filename=" + path + " log-format=" + fmt;
    Run run;
    run_clip (clip, o, &run);
    fail_unless (run.error.empty (), "%s", run.error.c_str ());
    gchar *text = NULL;
    fail_unless (g_file_get_contents (path.c_str (), &text, NULL, NULL));
    check_log_scores (text, fmt, clip, "vmaf");
    if (!strcmp (fmt, "json")) {
      JsonParser *p = json_parser_new ();
      fail_unless (json_parser_load_from_data (p, text, -1, NULL));
      JsonObject *root = json_node_get_object (json_parser_get_root (p));
      fail_unless_equals_int (json_array_get_length (json_object_get_array_member (root,
                  "frames")), clip.frames);
      g_object_unref (p);
    }
    g_free (text);
    g_unlink (path.c_str ());
  }
  g_rmdir (dir);
  g_free (dir);
}
GST_END_TEST;

/* Whether this GStreamer has decodebin, qtdemux and an H.264 decoder
 * (gstreamer1.0-libav's, or a hardware one). */
static bool
can_decode_h264_mp4 ()
{
  for (const char *name : { "decodebin", "qtdemux" }) {
    GstElementFactory *f = gst_element_factory_find (name);
    if (!f)
      return false;
    gst_object_unref (f);
  }
  GList *decoders = gst_element_factory_list_get_elements (GST_ELEMENT_FACTORY_TYPE_DECODER,
      GST_RANK_MARGINAL);
  GstCaps *h264 = gst_caps_from_string ("video/x-h264");
  GList *able = gst_element_factory_list_filter (decoders, h264, GST_PAD_SINK, FALSE);
  const bool found = able != NULL;
  gst_plugin_feature_list_free (able);
  gst_plugin_feature_list_free (decoders);
  gst_caps_unref (h264);
  return found;
}

/* docs/vkvmaf.md's examples: an encoded file against its source, each through
 * decodebin (H.264 here, at a high and a low rate, tests/media/vmaf), the
 * per-frame messages on the bus and a JSON log; then the same frames
 * uploaded by vulkanupload, with the 4K model and an XML log. H.264
 * decoding is exact, so the decoded frames are those whose libvmaf values
 * example.expect holds. */
GST_START_TEST (example_pipeline)
{
  VmafClip clip;
  fail_unless (vmaf_load_expect ("example", &clip));
  if (!can_decode_h264_mp4 ()) {
    printf ("SKIP example_pipeline: no decodebin, qtdemux or H.264 decoder here\n");
    return;
  }
  struct Example {
    const char *chain, *props, *format, *key;
  };
  /* Where upstream's vulkanupload makes images that vkvmaf takes (as
   * vulkan_input checks its buffers). */
  const bool upload = gpc_vk_test_vulkanupload_can ("I420", "VulkanImage");
  const Example examples[] = {
    { "", "", "json", "vmaf" },
    { "vulkanupload ! ", "model-filename=vmaf_4k_v0.6.1 ", "xml", "vmaf_4k" },
  };
  const std::string media = gpc_test::media_dir () + "/vmaf/";
  gchar *dir = g_dir_make_tmp ("vkvmaf-XXXXXX", NULL);
  for (const Example &e : examples) {
    if (*e.chain && !upload) {
      printf ("SKIP example_pipeline with vulkanupload: it does not upload I420 here\n");
      continue;
    }
    const std::string log = std::string (dir) + "/vmaf." + e.format;
    const std::string launch = "filesrc location=" + media + "example-source.mp4 ! decodebin ! "
        + e.chain + "v.ref_sink filesrc location=" + media + "example-encoded.mp4 ! decodebin ! "
        + e.chain + "v.dist_sink vkvmaf name=v frame-message=true " + e.props
        + "results-filename=" + log + " log-format=" + e.format + " ! fakesink";
    GError *err = NULL;
    GstElement *pipe = gst_parse_launch (launch.c_str (), &err);
    fail_unless (pipe != NULL, "%s: %s", launch.c_str (), err ? err->message : "");
    GstBus *bus = gst_element_get_bus (pipe);
    gst_element_set_state (pipe, GST_STATE_PLAYING);
    Run run;
    collect (bus, &run);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (bus);
    gst_object_unref (pipe);
    check_frames (clip, run, e.key, 1);
    fail_unless (run.warning.empty (), "%s", run.warning.c_str ());
    check_pooled_mean (clip, run, e.key);
    gchar *text = NULL;
    fail_unless (g_file_get_contents (log.c_str (), &text, NULL, NULL), "no log %s", log.c_str ());
    check_log_scores (text, log.c_str (), clip, e.key);
    g_free (text);
    g_unlink (log.c_str ());
    gpc_vk_test_check_validation ();
  }
  g_rmdir (dir);
  g_free (dir);
}
GST_END_TEST;

GST_START_TEST (start_failures)
{
  gpc_vk_test_start_failures ("videotestsrc num-buffers=3 ! video/x-raw,width=64,height=48 ! "
      "tee name=t ! queue ! e.ref_sink t. ! queue ! e.dist_sink vkvmaf name=e ! fakesink");
}
GST_END_TEST;

/* Queries, flushing seeks, pauses and READY cycles from the application
 * thread while both inputs stream (tests/common/gpc-hammer.h). */
GST_START_TEST (concurrent_use)
{
  gpc_test_hammer ("videotestsrc ! video/x-raw,format=I420,width=64,height=48,framerate=30/1 ! "
      "tee name=t ! queue ! vkvmaf name=m ! fakesink t. ! queue ! m.dist_sink", 48);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "vkvmaf", {
        GPC_CHECK_TEST (clips_match_libvmaf),
        GPC_CHECK_TEST (real_clips_match_libvmaf),
        GPC_CHECK_TEST (subsample_and_pool_methods),
        GPC_CHECK_TEST (vulkan_input),
        GPC_CHECK_TEST (passes_frames_through),
        GPC_CHECK_TEST (pairs_by_running_time),
        GPC_CHECK_TEST (mismatched_inputs_error),
        GPC_CHECK_TEST (results_files),
        GPC_CHECK_TEST (example_pipeline),
        GPC_CHECK_TEST (start_failures),
        GPC_CHECK_TEST (concurrent_use) }, 900);
}
