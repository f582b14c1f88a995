/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Makes a long ProRes QuickTime file from a short one, for the pipeline
 * benchmark (pipeline-bench.sh) on a machine without an encoder: the GPU
 * machine has no ffmpeg and a device call carries only a few frames.
 *
 *   prores-longclip [--seed S] [--size WxH | --repeat] in.mov out.mov frames
 *
 * The encoded frames of in.mov (filesrc ! qtdemux ! appsink) give the
 * frames of out.mov (appsrc ! qtmux ! filesink, fresh timestamps at the
 * clip's frame rate). ProRes slices decode independently and a slice's place
 * in the picture is only its index in the slice table, so every output frame
 * is assembled from slices of the input frames drawn at random (a slice of
 * the same width in macroblocks for each place): no two frames are the same
 * picture, each costs what an input frame costs per macroblock, and --size
 * makes frames of another size (2160p from 1080p input) at the input's bits
 * per macroblock. The generator's seed is printed (--seed to repeat a file).
 * --repeat writes the input frames again and again as they are (the only
 * mode for interlaced input).
 */
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "prores-frame.h"

namespace {

struct Clip {
  GstCaps *caps = nullptr;
  std::vector<std::vector<uint8_t>> frames;
};

bool wait_eos (GstElement *pipe, const char *what)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, GST_CLOCK_TIME_NONE,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  bool ok = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (!ok) {
    GError *err = nullptr;
    gst_message_parse_error (msg, &err, nullptr);
    fprintf (stderr, "prores-longclip: %s: %s\n", what, err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  return ok;
}

bool read_clip (const char *path, Clip *clip)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! video/x-prores ! "
      "appsink name=s sync=false", path);
  GError *err = nullptr;
  GstElement *pipe = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipe) {
    fprintf (stderr, "prores-longclip: %s\n", err->message);
    g_error_free (err);
    return false;
  }
  GstAppSink *sink = GST_APP_SINK (gst_bin_get_by_name (GST_BIN (pipe), "s"));
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  while (GstSample *s = gst_app_sink_pull_sample (sink)) {
    if (!clip->caps)
      clip->caps = gst_caps_copy (gst_sample_get_caps (s));
    GstMapInfo map;
    GstBuffer *buf = gst_sample_get_buffer (s);
    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      clip->frames.emplace_back (map.data, map.data + map.size);
      gst_buffer_unmap (buf, &map);
    }
    gst_sample_unref (s);
  }
  bool ok = wait_eos (pipe, path) && !clip->frames.empty ();
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return ok;
}

/* The slices of the input frames by width (macroblocks), and a header to
 * build frames of any size from: progressive input with the plain layout
 * (slice table right after the picture header, slices back to back). */
struct SlicePool {
  std::vector<uint8_t> frame_header;   /* bytes 0 .. 8 + header size */
  std::vector<uint8_t> picture_header;
  uint32_t log2_w = 0;
  std::vector<std::vector<std::pair<const uint8_t *, uint32_t>>> by_width =
      std::vector<std::vector<std::pair<const uint8_t *, uint32_t>>> (9);
};

bool make_pool (const Clip &clip, SlicePool *pool)
{
  for (const std::vector<uint8_t> &in : clip.frames) {
    gpc::prores::Frame f;
    std::string error;
    if (gpc::prores::parse_frame (in.data (), in.size (), &f, &error) != gpc::prores::Status::kOk
        || f.header.interlaced ()) {
      fprintf (stderr, "prores-longclip: %s\n", f.header.interlaced () ? "interlaced input" : error.c_str ());
      return false;
    }
    const gpc::prores::Picture &pic = f.picture[0];
    if (pool->frame_header.empty ()) {
      pool->frame_header.assign (in.data (), in.data () + 8 + f.header.header_size);
      pool->picture_header.assign (in.data () + pic.offset, in.data () + pic.offset + pic.header_size);
      pool->log2_w = pic.log2_slice_mb_width;
    } else if (pic.log2_slice_mb_width != pool->log2_w) {
      fprintf (stderr, "prores-longclip: frames with different slice widths\n");
      return false;
    }
    for (uint32_t i = 0; i < pic.slice_count; i++) {
      const uint32_t mbs = gpc::prores::slice_position (i, f.header.mb_width (), pic.log2_slice_mb_width).mb_count;
      pool->by_width[mbs].emplace_back (in.data () + pic.slice_offset[i], pic.slice_size[i]);
    }
  }
  return true;
}

/* A width x height frame whose every slice is one of the pool's slices of
 * the same width, drawn at random. */
bool assemble_frame (const SlicePool &pool, uint32_t width, uint32_t height, std::mt19937_64 &rng,
    std::vector<uint8_t> *out)
{
  const uint32_t mb_width = (width + 15) >> 4, mb_height = (height + 15) >> 4;
  const uint32_t n = mb_height * gpc::prores::slices_per_row (mb_width, pool.log2_w);
  std::vector<std::pair<const uint8_t *, uint32_t>> pick (n);
  size_t data = 0;
  for (uint32_t i = 0; i < n; i++) {
    const auto &choices = pool.by_width[gpc::prores::slice_position (i, mb_width, pool.log2_w).mb_count];
    if (choices.empty ()) {
      fprintf (stderr, "prores-longclip: the input has no slice as wide as %ux%u needs\n", width, height);
      return false;
    }
    pick[i] = choices[std::uniform_int_distribution<size_t> (0, choices.size () - 1) (rng)];
    data += pick[i].second;
  }
  const size_t hdr = pool.frame_header.size (), ph = pool.picture_header.size ();
  const size_t picture = ph + 2 * (size_t) n + data;
  out->resize (hdr + picture);
  uint8_t *o = out->data ();
  memcpy (o, pool.frame_header.data (), hdr);
  const auto wb16 = [] (uint8_t *p, uint32_t v) { p[0] = (uint8_t) (v >> 8); p[1] = (uint8_t) v; };
  const auto wb32 = [&] (uint8_t *p, uint32_t v) { wb16 (p, v >> 16); wb16 (p + 2, v); };
  wb32 (o, (uint32_t) out->size ());
  wb16 (o + 16, width);
  wb16 (o + 18, height);
  o += hdr;
  memcpy (o, pool.picture_header.data (), ph);
  wb32 (o + 1, (uint32_t) picture);
  wb16 (o + 5, n);
  uint8_t *table = o + ph, *slices = table + 2 * (size_t) n;
  for (uint32_t i = 0; i < n; i++) {
    wb16 (table + 2 * i, pick[i].second);
    memcpy (slices, pick[i].first, pick[i].second);
    slices += pick[i].second;
  }
  return true;
}

/* mode: the frames as they are (pool == nullptr), or assembled at
 * width x height from the pool. */
bool write_clip (const Clip &clip, const SlicePool *pool, uint32_t width, uint32_t height,
    const char *path, uint64_t frames, uint64_t seed)
{
  gchar *desc = g_strdup_printf ("appsrc name=s format=time ! m.video_0 qtmux name=m ! "
      "filesink location=\"%s\"", path);
  GstElement *pipe = gst_parse_launch (desc, nullptr);
  g_free (desc);
  if (!pipe)
    return false;
  GstAppSrc *src = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (pipe), "s"));
  GstCaps *caps = gst_caps_copy (clip.caps);
  gst_caps_set_simple (caps, "width", G_TYPE_INT, (int) width, "height", G_TYPE_INT, (int) height, NULL);
  gst_app_src_set_caps (src, caps);
  /* Block instead of queueing the whole file in memory. */
  gst_app_src_set_max_bytes (src, 64 << 20);
  g_object_set (src, "block", TRUE, NULL);
  gint fps_n = 25, fps_d = 1;
  gst_structure_get_fraction (gst_caps_get_structure (caps, 0), "framerate", &fps_n, &fps_d);
  gst_caps_unref (caps);
  if (fps_n <= 0 || fps_d <= 0)
    fps_n = 25, fps_d = 1;
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  std::mt19937_64 rng (seed);
  bool ok = true;
  for (uint64_t i = 0; i < frames && ok; i++) {
    auto *data = new std::vector<uint8_t> ();
    if (pool)
      ok = assemble_frame (*pool, width, height, rng, data);
    else
      *data = clip.frames[i % clip.frames.size ()];
    if (!ok) {
      delete data;
      break;
    }
    GstBuffer *buf = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY, data->data (),
        data->size (), 0, data->size (), data,
        [] (gpointer d) { delete static_cast<std::vector<uint8_t> *> (d); });
    GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) =
        gst_util_uint64_scale (i, GST_SECOND * fps_d, fps_n);
    GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (i + 1, GST_SECOND * fps_d, fps_n)
        - GST_BUFFER_PTS (buf);
    if (gst_app_src_push_buffer (src, buf) != GST_FLOW_OK)
      ok = false;
  }
  gst_app_src_end_of_stream (src);
  ok = wait_eos (pipe, path) && ok;
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (pipe);
  if (ok && pool)
    printf ("%s: %" G_GUINT64_FORMAT " frames of %ux%u, each assembled from random slices of "
        "%zu input frame(s) (seed %" G_GUINT64_FORMAT ")\n", path, frames, width, height,
        clip.frames.size (), seed);
  else if (ok)
    printf ("%s: %" G_GUINT64_FORMAT " frames, %zu input frame(s) repeated\n", path, frames,
        clip.frames.size ());
  return ok;
}

}  // namespace

int main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  bool repeat = false;
  uint64_t seed = g_get_real_time ();
  unsigned width = 0, height = 0;
  int a = 1;
  for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; a++) {
    if (!strcmp (argv[a], "--repeat"))
      repeat = true;
    else if (!strcmp (argv[a], "--seed") && a + 1 < argc)
      seed = strtoull (argv[++a], nullptr, 0);
    else if (!strcmp (argv[a], "--size") && a + 1 < argc
        && sscanf (argv[++a], "%ux%u", &width, &height) == 2 && width > 0 && height > 0
        && width <= 8192 && height <= 8192)
      ;
    else
      break;
  }
  if (argc - a != 3 || atoll (argv[a + 2]) <= 0 || (repeat && width)) {
    fprintf (stderr, "usage: prores-longclip [--seed S] [--size WxH | --repeat] in.mov out.mov frames\n");
    return 2;
  }
  Clip clip;
  if (!read_clip (argv[a], &clip)) {
    fprintf (stderr, "prores-longclip: no ProRes frames read from %s\n", argv[a]);
    return 1;
  }
  SlicePool pool;
  if (!repeat && !make_pool (clip, &pool)) {
    gst_caps_unref (clip.caps);
    return 1;
  }
  if (!width) {
    const GstStructure *st = gst_caps_get_structure (clip.caps, 0);
    int w = 0, h = 0;
    gst_structure_get_int (st, "width", &w);
    gst_structure_get_int (st, "height", &h);
    width = (unsigned) w, height = (unsigned) h;
  }
  bool ok = write_clip (clip, repeat ? nullptr : &pool, width, height, argv[a + 1],
      (uint64_t) atoll (argv[a + 2]), seed);
  gst_caps_unref (clip.caps);
  return ok ? 0 : 1;
}
