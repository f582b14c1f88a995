/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmafmotion against the CPU reference, bit for bit, on fresh random frames
 * (seed printed): every supported format from system memory, Vulkan buffers
 * and images from vulkanupload, odd sizes from 3x3 up to 4K, all bit depths,
 * caps changes, flushes, options, bus messages, results files. Runs with the
 * Khronos validation layer; any validation error fails the test.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include <functional>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>
extern "C" {
#include <gst/vulkan/vulkan.h>
}

#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "gpc-hammer.h"
#include "gpcvkcontext.h"
#include "gstvmafmotionmeta.h"
#include "vmaf-motion-layout.h"
#include "vmaf-motion-ref.h"

using namespace gpc;

/* Random luma with the kind of content a case asks for: uniform noise,
 * extremes only (0 / max), or a smooth gradient with a little noise. */
static void
fill_frame (GstBuffer *buf, const GstVideoInfo *info, const LumaLayout &l,
    gpc_test::Rng &rng, int kind)
{
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    guint8 *d = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    gsize n = (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) *
        GST_VIDEO_FRAME_COMP_HEIGHT (&f, p == l.plane ? 0 : p);
    for (gsize i = 0; i < n; i++)
      d[i] = rng.bits (8);
  }
  const unsigned w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  const uint32_t max = (1u << l.bpc) - 1;
  const int gx = rng.range (-8, 8), gy = rng.range (-8, 8);
  guint8 *plane = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, l.plane);
  const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&f, l.plane);
  for (unsigned y = 0; y < h; y++) {
    for (unsigned x = 0; x < w; x++) {
      uint32_t v;
      if (kind == 0)
        v = rng.bits (l.bpc);
      else if (kind == 1)
        v = rng.chance (50) ? max : 0;
      else
        v = (uint32_t) std::min<int64_t> (max, std::max<int64_t> (0,
                (int64_t) (max / 2) + ((gx * (int) x + gy * (int) y) << (l.bpc - 8)) +
                rng.range (-4, 4)));
      luma_store (plane + (gsize) y * stride, l, x, (uint16_t) v);
    }
  }
  gst_video_frame_unmap (&f);
}

static std::vector<uint16_t>
unpack (GstBuffer *buf, const GstVideoInfo *info, const LumaLayout &l)
{
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_READ));
  std::vector<uint16_t> out = luma_unpack ((const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&f, l.plane),
      GST_VIDEO_FRAME_PLANE_STRIDE (&f, l.plane), l, GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info));
  gst_video_frame_unmap (&f);
  return out;
}

namespace {

struct Size {
  unsigned w, h;
};

} // namespace

/* Turns a system-memory frame into what the element receives (identity by
 * default), and names the caps feature that goes with it. */
typedef std::function<GstBuffer *(GstBuffer *, const GstVideoInfo &)> Convert;

/* Pushes `n` random frames of each size through `h` (set up for `format`),
 * EOS, and checks every frame's SAD against the CPU reference. */
static void
run_case (GstHarness *h, const char *format, const std::vector<Size> &sizes,
    const char *caps_feature, gpc_test::Rng &rng, unsigned n_frames, bool five,
    Convert convert = nullptr, bool downstream_pool = false)
{
  GstVideoFormat fmt = gst_video_format_from_string (format);
  LumaLayout l;
  fail_unless (luma_layout_for_format (fmt, &l), "%s", format);
  std::vector<std::vector<uint16_t>> planes;
  std::vector<Size> plane_size;
  std::vector<GstBufferPool *> pools;
  std::vector<GstBuffer *> held;
  unsigned checked = 0;

  gst_harness_play (h);
  for (const Size &s : sizes) {
    GstVideoInfo info;
    gst_video_info_set_format (&info, fmt, s.w, s.h);
    GST_VIDEO_INFO_FPS_N (&info) = 25;
    GST_VIDEO_INFO_FPS_D (&info) = 1;
    GstCaps *caps = gst_video_info_to_caps (&info);
    if (convert)
      gst_caps_set_features (caps, 0, gst_caps_features_new (caps_feature, NULL));
    gst_harness_set_src_caps (h, gst_caps_ref (caps));
    GstBufferPool *pool = NULL;
    if (downstream_pool) {
      /* As a real source does: write into the pool downstream proposes,
       * where it proposes one (1.22's vulkanupload does; 1.26's answers
       * no allocation query for system memory, and sources then allocate
       * their own buffers, as below). */
      GstQuery *q = gst_query_new_allocation (caps, TRUE);
      if (gst_pad_peer_query (h->srcpad, q) && gst_query_get_n_allocation_pools (q) > 0)
        gst_query_parse_nth_allocation_pool (q, 0, &pool, NULL, NULL, NULL);
      gst_query_unref (q);
      if (pool) {
        GstStructure *config = gst_buffer_pool_get_config (pool);
        gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), 0, 0);
        gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
        fail_unless (gst_buffer_pool_set_config (pool, config));
        fail_unless (gst_buffer_pool_set_active (pool, TRUE));
      }
    }
    gst_caps_unref (caps);
    for (unsigned i = 0; i < n_frames; i++) {
      GstBuffer *buf = NULL;
      if (pool) {
        fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL), GST_FLOW_OK);
      } else {
        buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
      }
      fill_frame (buf, &info, l, rng, (int) rng.range (0, 2));
      GST_BUFFER_PTS (buf) = (planes.size ()) * GST_SECOND / 25;
      planes.push_back (unpack (buf, &info, l));
      plane_size.push_back (s);
      if (convert)
        buf = convert (buf, info);
      /* 1.22's vulkanupload gives its input back before its GPU copy has
       * run: hold pool buffers so that none is refilled too early. */
      if (pool)
        held.push_back (gst_buffer_ref (buf));
      fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
    }
    /* Like a real source, keep the pool until the stream has ended. */
    if (pool)
      pools.push_back (pool);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  /* Outputs come in order; the history restarts at each size change. */
  size_t k = 0;
  unsigned hist = 0;
  GstBuffer *out;
  while ((out = gst_harness_try_pull (h)) != NULL) {
    fail_unless (k < planes.size ());
    if (k > 0 && (plane_size[k].w != plane_size[k - 1].w || plane_size[k].h != plane_size[k - 1].h))
      hist = 0;
    GstVmafMotionMeta *m = gst_buffer_get_vmaf_motion_meta (out);
    fail_unless (m != NULL, "no motion meta on frame %zu", k);
    fail_unless_equals_int (m->index, k);
    unsigned back = five ? 2 : 1;
    if (hist >= back) {
      const Size &s = plane_size[k];
      LumaPlane prev = { planes[k - back].data (), (ptrdiff_t) s.w };
      LumaPlane cur = { planes[k].data (), (ptrdiff_t) s.w };
      uint64_t expect = motion_sad_ref (prev, cur, s.w, s.h, l.bpc);
      fail_unless (m->has_sad);
      if (m->sad != expect)
        fail ("%s %s %ux%u frame %zu: GPU SAD %" G_GUINT64_FORMAT " != CPU %" G_GUINT64_FORMAT,
            format, caps_feature, s.w, s.h, k, m->sad, expect);
      checked++;
    } else {
      fail_if (m->has_sad);
    }
    gst_buffer_unref (out);
    k++;
    hist++;
  }
  fail_unless_equals_int (k, planes.size ());
  for (GstBuffer *b : held)
    gst_buffer_unref (b);
  for (GstBufferPool *p : pools) {
    gst_buffer_pool_set_active (p, FALSE);
    gst_object_unref (p);
  }
  GST_INFO ("%s (%s): %u SADs bit-exact", format, caps_feature, checked);
}

/* A harness's element has no bus: give it one that prints its errors, so a
 * failing start says why. */
static GstBusSyncReply
print_error (GstBus *bus, GstMessage *msg, gpointer data)
{
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &e, &dbg);
    printf ("element error: %s (%s)\n", e->message, dbg ? dbg : "");
    fflush (stdout);
    g_clear_error (&e);
    g_free (dbg);
  }
  /* A handler that drops a message owns it. */
  gst_message_unref (msg);
  return GST_BUS_DROP;
}

static void
watch_errors (GstElement *e)
{
  GstBus *bus = gst_bus_new ();
  gst_bus_set_sync_handler (bus, print_error, NULL, NULL);
  gst_element_set_bus (e, bus);
  gst_object_unref (bus);
}

static GstHarness *
new_harness (const char *launch, gpc_test::Rng &rng)
{
  GstHarness *h = gst_harness_new_parse (launch);
  GstElement *e = gst_harness_find_element (h, "vkvmafmotion");
  g_object_set (e, "frames-in-flight", (guint) rng.range (0, 4), NULL);
  gst_object_unref (e);
  watch_errors (h->element);
  return h;
}

/* The element configured before the harness starts it. */
static GstHarness *
new_harness_with (GstElement *e, gpc_test::Rng &rng)
{
  g_object_set (e, "frames-in-flight", (guint) rng.range (0, 4), NULL);
  watch_errors (e);
  /* The harness takes its own reference. */
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}


GST_START_TEST (every_format_system_memory)
{
  gpc_test::Rng rng = gpc_test::rng ("formats");
  for (const std::string &f : luma_supported_formats ()) {
    GstVideoFormat fmt = gst_video_format_from_string (f.c_str ());
    const GstVideoFormatInfo *fi = gst_video_format_get_info (fmt);
    /* Sizes the format can hold (subsampled formats need even sizes in
     * GStreamer's layout, but odd ones are allowed and rounded up). */
    std::vector<Size> sizes = { {3, 3}, {67, 17}, {(unsigned) rng.range (3, 300),
        (unsigned) rng.range (3, 200)} };
    (void) fi;
    printf ("format %s\n", f.c_str ());
    fflush (stdout);
    GstHarness *h = new_harness_with (gst_element_factory_make ("vkvmafmotion", NULL), rng);
    run_case (h, f.c_str (), sizes, "system", rng, 3, false);
    gst_harness_teardown (h);
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

GST_START_TEST (bit_depths_and_sizes)
{
  gpc_test::Rng rng = gpc_test::rng ("depths");
  struct { const char *fmt; std::vector<Size> sizes; } cases[] = {
    {"GRAY8", {{3, 4}, {4, 3}, {5, 129}, {129, 5}, {64, 16}, {65, 17}, {1920, 1080}}},
    {"I420_10LE", {{33, 9}, {1000, 562}, {1920, 1080}}},
    {"I420_12LE", {{7, 7}, {1282, 722}}},
    {"GRAY16_LE", {{3, 3}, {127, 31}, {1920, 1080}}},
    {"P016_BE", {{11, 5}, {400, 300}}},
  };
  for (auto &c : cases) {
    GstHarness *h = new_harness ("vkvmafmotion", rng);
    run_case (h, c.fmt, c.sizes, "system", rng, 3, false);
    gst_harness_teardown (h);
  }
  /* One 2160p 10-bit clip, the size of the benchmark. */
  GstHarness *h = new_harness ("vkvmafmotion", rng);
  run_case (h, "I420_10LE", {{3840, 2160}}, "system", rng, 3, false);
  gst_harness_teardown (h);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

GST_START_TEST (five_frame_window)
{
  gpc_test::Rng rng = gpc_test::rng ("five");
  GstHarness *h = new_harness ("vkvmafmotion five-frame-window=true", rng);
  run_case (h, "I420", {{97, 41}, {50, 50}}, "system", rng, 6, true);
  gst_harness_teardown (h);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

namespace {

/* A device of the test's own, handed to the element through GstContext
 * (as an application would), so that buffers made here are its buffers. */
struct SharedDevice : GpcVkTestDevice {
  /* One host-visible Vulkan buffer per plane, as GStreamer lays them out;
   * with `storage` the element binds them directly, else it copies. */
  GstBuffer *upload (GstBuffer *sys, const GstVideoInfo &info, bool storage) {
    GstBuffer *out = gpc_vk_test_to_vulkan_buffers (device, sys, &info, storage, false);
    GST_BUFFER_PTS (out) = GST_BUFFER_PTS (sys);
    gst_buffer_unref (sys);
    return out;
  }
};

} // namespace

GST_START_TEST (vulkan_buffer_input)
{
  gpc_test::Rng rng = gpc_test::rng ("vkbuffer");
  SharedDevice dev;
  for (bool storage : {false, true}) {
    for (const char *f : {"GRAY8", "I420", "NV12", "Y444", "I420_10LE", "P010_10LE", "GRAY16_LE",
             "NV12_10LE32"}) {
      GstElement *e = gst_element_factory_make ("vkvmafmotion", NULL);
      dev.share_with (e);
      GstHarness *h = new_harness_with (e, rng);
      run_case (h, f, {{77, 33}, {(unsigned) rng.range (3, 200), (unsigned) rng.range (3, 200)}},
          GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, rng, 3, false,
          [&] (GstBuffer *b, const GstVideoInfo &info) { return dev.upload (b, info, storage); });
      gst_harness_teardown (h);
    }
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

GST_START_TEST (vulkan_image_input)
{
  gpc_test::Rng rng = gpc_test::rng ("vkimage");
  /* Images made by vulkanupload, the upstream element users chain us
   * after, in the format every release of it uploads on lavapipe (1.26's
   * fails I420 and GRAY8 there). One size per pipeline: 1.22's
   * vulkanupload mishandles caps changes. */
  for (const char *f : {"NV12"}) {
    /* Widths stay multiples of 4 and heights even: 1.22's vulkanupload
     * copies other sizes wrongly into images (seen with upload ! download
     * alone, no element of ours involved). */
    for (Size s : {Size {64, 36}, Size {(unsigned) rng.range (1, 75) * 4, (unsigned) rng.range (2, 100) * 2}}) {
      GstHarness *h = new_harness ("vulkanupload ! video/x-raw(memory:VulkanImage) ! vkvmafmotion", rng);
      run_case (h, f, {s}, "VulkanImage", rng, 3, false, nullptr, true);
      gst_harness_teardown (h);
    }
  }
  /* Images of every 8-bit layout, I420 among them, made by the test
   * itself: the same element path, whatever vulkanupload supports. */
  SharedDevice dev;
  for (const char *f : {"I420", "NV12", "GRAY8", "Y444"}) {
    GstElement *e = gst_element_factory_make ("vkvmafmotion", NULL);
    dev.share_with (e);
    GstHarness *h = new_harness_with (e, rng);
    run_case (h, f, {{64, 36}, {(unsigned) rng.range (3, 200), (unsigned) rng.range (3, 200)}},
        GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, rng, 3, false,
        [&] (GstBuffer *b, const GstVideoInfo &info) {
          GstBuffer *images = gpc_vk_test_to_vulkan_images (dev.exec, b, &info);
          gst_buffer_unref (b);
          return images;
        });
    gst_harness_teardown (h);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Frames after a flush start a new history; nothing from before it leaks. */
GST_START_TEST (flush_restarts_history)
{
  gpc_test::Rng rng = gpc_test::rng ("flush");
  GstHarness *h = new_harness ("vkvmafmotion", rng);
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=16,height=8,framerate=25/1");
  for (int i = 0; i < 4; i++) {
    GstBuffer *b = gst_buffer_new_allocate (NULL, 16 * 8, NULL);
    gst_buffer_memset (b, 0, (guint8) rng.bits (8), 16 * 8);
    gst_harness_push (h, b);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  GstSegment seg;
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  /* Drop what came out before the flush. */
  GstBuffer *b;
  while ((b = gst_harness_try_pull (h)))
    gst_buffer_unref (b);
  for (int i = 0; i < 3; i++) {
    b = gst_buffer_new_allocate (NULL, 16 * 8, NULL);
    gst_buffer_memset (b, 0, 7, 16 * 8);
    gst_harness_push (h, b);
  }
  gst_harness_push_event (h, gst_event_new_eos ());
  guint64 first_index = 0;
  for (int i = 0; i < 3; i++) {
    b = gst_harness_pull (h);
    GstVmafMotionMeta *m = gst_buffer_get_vmaf_motion_meta (b);
    if (i == 0)
      first_index = m->index;
    /* (gst-check's macros declare a local named "first") */
    fail_unless_equals_int (m->index, first_index + i);
    /* The first frame after the flush has no predecessor. */
    fail_unless_equals_int (m->has_sad, i > 0);
    fail_unless_equals_int (m->sad, 0);
    gst_buffer_unref (b);
  }
  gst_harness_teardown (h);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Pops messages of `pipe` until EOS; fails on an error or after 60 s
 * without a message. `on_message` sees every other message. */
static void
run_until_eos (GstElement *pipe, const std::function<void (GstMessage *)> &on_message)
{
  GstBus *bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop (bus, 60 * GST_SECOND);
    fail_unless (msg != NULL, "timeout");
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *e;
      gst_message_parse_error (msg, &e, NULL);
      fail ("error: %s", e->message);
    }
    bool eos = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    if (!eos && on_message)
      on_message (msg);
    gst_message_unref (msg);
    if (eos)
      break;
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
}

/* Bus messages, the EOS summary and the three results file layouts. */
GST_START_TEST (messages_and_results_files)
{
  gpc_test::Rng rng = gpc_test::rng ("messages");
  for (const char *fmt : {"xml", "json", "csv"}) {
    /* Per process: vkvmafmotion-leaks runs this test beside vkvmafmotion. */
    gchar *path = g_strdup_printf ("%s/motion-%d.%s", g_get_tmp_dir (), (int) getpid (), fmt);
    gchar *launch = g_strdup_printf ("videotestsrc num-buffers=10 pattern=ball ! "
        "video/x-raw,format=I420_10LE,width=96,height=54 ! vkvmafmotion results-location=%s "
        "results-format=%s frames-in-flight=%d ! fakesink", path, fmt, (int) rng.range (0, 3));
    GstElement *pipe = gst_parse_launch (launch, NULL);
    unsigned frames = 0, scores = 0;
    bool summary = false;
    run_until_eos (pipe, [&] (GstMessage *msg) {
      const GstStructure *s = gst_message_get_structure (msg);
      if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT)
        return;
      if (gst_structure_has_name (s, "vkvmafmotion")) {
        guint64 idx;
        fail_unless (gst_structure_get_uint64 (s, "index", &idx));
        fail_unless_equals_int (idx, frames);
        frames++;
      } else if (gst_structure_has_name (s, "vkvmafmotion-scores")) {
        double m2;
        fail_unless (gst_structure_get_double (s, "motion2", &m2));
        scores++;
      } else if (gst_structure_has_name (s, "vkvmafmotion-summary")) {
        summary = true;
        fail_unless (gst_structure_has_field (s, "integer_motion3"));
      }
    });
    fail_unless_equals_int (frames, 10);
    fail_unless_equals_int (scores, 10);
    fail_unless (summary);
    gchar *text = NULL;
    fail_unless (g_file_get_contents (path, &text, NULL, NULL));
    fail_unless (strstr (text, "integer_motion2") != NULL);
    if (!strcmp (fmt, "xml"))
      fail_unless (strstr (text, "<frame frameNum=\"9\"") && strstr (text, "harmonic_mean="));
    if (!strcmp (fmt, "csv"))
      fail_unless (g_str_has_prefix (text, "Frame,integer_motion,"));
    if (!strcmp (fmt, "json"))
      fail_unless (strstr (text, "\"pooled_metrics\"") != NULL);
    g_free (text);
    g_unlink (path);
    g_free (path);
    g_free (launch);
    gst_object_unref (pipe);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Pipelines built and torn down one after another in one process, as a
 * playout application does: they share the process-wide instance and device
 * (drivers limit how many instances a process may ever create: 29 on the
 * NVIDIA driver of our H100 machine). */
GST_START_TEST (pipeline_churn)
{
  for (int i = 0; i < 40; i++) {
    GstElement *pipe = gst_parse_launch ("videotestsrc num-buffers=2 ! "
        "video/x-raw,format=GRAY8,width=32,height=16 ! vkvmafmotion ! fakesink", NULL);
    run_until_eos (pipe, nullptr);
    gst_object_unref (pipe);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

GST_START_TEST (bad_input_errors)
{
  /* Too small for the 5-tap mirror: a negotiation error, not a crash. */
  GstHarness *h = gst_harness_new ("vkvmafmotion");
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=2,height=2,framerate=25/1");
  GstBuffer *b = gst_buffer_new_allocate (NULL, 4, NULL);
  fail_if (gst_harness_push (h, b) == GST_FLOW_OK);
  gst_harness_teardown (h);

  /* A buffer smaller than its caps say. */
  h = gst_harness_new ("vkvmafmotion");
  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=64,height=64,framerate=25/1");
  b = gst_buffer_new_allocate (NULL, 100, NULL);
  fail_if (gst_harness_push (h, b) == GST_FLOW_OK);
  gst_harness_teardown (h);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Queries, seeks and state changes from the application thread while the
 * element streams: what tools/sanitize.sh thread watches for races. */
GST_START_TEST (concurrent_use)
{
  gpc_test_hammer ("videotestsrc ! video/x-raw,format=I420,width=64,height=64,framerate=30/1 ! "
      "vkvmafmotion ! fakesink", 64);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Start failing before and after the exec exists releases what start
 * made, and the element starts afterwards. */
GST_START_TEST (start_failure)
{
  gpc_vk_test_start_failures ("videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=64 ! vkvmafmotion name=e ! fakesink");
}
GST_END_TEST;

/* frames-in-flight follows upstream's liveness, in the latency too. */
GST_START_TEST (live_latency)
{
  gpc_vk_test_live_latency ("videotestsrc is-live=%s ! "
      "video/x-raw,format=I420,width=64,height=64,framerate=30/1 ! vkvmafmotion name=e ! fakesink");
}
GST_END_TEST;

/* No frame is dropped for QoS (a gap would change the scores); the QoS
 * event still goes upstream. */
GST_START_TEST (qos)
{
  gpc_vk_test_qos ("vkvmafmotion", "video/x-raw,format=I420,width=64,height=32,framerate=25/1", false);
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "vkvmafmotion", {
        GPC_CHECK_TEST (every_format_system_memory),
        GPC_CHECK_TEST (bit_depths_and_sizes),
        GPC_CHECK_TEST (five_frame_window),
        GPC_CHECK_TEST (vulkan_buffer_input),
        GPC_CHECK_TEST (vulkan_image_input),
        GPC_CHECK_TEST (flush_restarts_history),
        GPC_CHECK_TEST (messages_and_results_files),
        GPC_CHECK_TEST (bad_input_errors),
        GPC_CHECK_TEST (pipeline_churn),
        GPC_CHECK_TEST (concurrent_use),
        GPC_CHECK_TEST (start_failure),
        GPC_CHECK_TEST (qos),
        GPC_CHECK_TEST (live_latency) }, 900);
}
