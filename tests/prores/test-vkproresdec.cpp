/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkproresdec against FFmpeg's checksums and the CPU reference decoder, bit
 * for bit: every committed vector (tests/media/prores) to system memory and
 * to memory:VulkanBuffer (read back here), both IDCT arithmetics, alpha
 * options, caps and size changes mid-stream, flushes, a qtdemux pipeline,
 * and randomly damaged frames (seed printed) that must never crash, hang or
 * upset the Khronos validation layer (any validation error fails).
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

#include <stdio.h>
#include <string.h>

#include <atomic>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "compute/gpcvk.h"
#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"

#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "gpc-hammer.h"
#include "prores-decoder.h"
#include "prores-test-util.h"
#include "vkproreskernel.h"

using namespace gpc::prores;
using namespace prores_test;

/* ------------------------------------------------------------ test data */

namespace {

struct Vector {
  VectorInfo info;
  std::vector<uint8_t> data;
  std::vector<Span> frames;
};

} // namespace

static std::vector<Vector> *g_vectors;

static const char *variant_for_fourcc (const std::string &f)
{
  static const std::map<std::string, const char *> m = {
    {"apco", "proxy"}, {"apcs", "lt"}, {"apcn", "standard"}, {"apch", "hq"},
    {"ap4h", "4444"}, {"ap4x", "4444xq"},
  };
  auto it = m.find (f);
  return it == m.end () ? nullptr : it->second;
}

static const std::vector<Vector> &vectors ()
{
  if (g_vectors)
    return *g_vectors;
  g_vectors = new std::vector<Vector> ();
  std::string dir = gpc_test::media_dir ();
  if (dir.empty ())
    return *g_vectors;
  dir += "/prores";
  std::vector<VectorInfo> infos;
  if (!read_checksums (dir + "/checksums.txt", &infos))
    return *g_vectors;
  for (const VectorInfo &vi : infos) {
    Vector v;
    v.info = vi;
    /* Called from main (outside any test): report, do not assert. */
    if (!read_file (dir + "/" + vi.file, &v.data) || !mov_prores_frames (v.data, &v.frames)) {
      fprintf (stderr, "cannot read the frames of %s\n", vi.file.c_str ());
      g_vectors->clear ();
      return *g_vectors;
    }
    g_vectors->push_back (std::move (v));
  }
  return *g_vectors;
}

static const Vector &vector_named (const char *name)
{
  for (const Vector &v : vectors ())
    if (v.info.file == name)
      return v;
  fail ("vector %s missing", name);
  return vectors ()[0];
}

static std::string md5_of (const std::vector<uint16_t> &p)
{
  std::vector<uint8_t> le (p.size () * 2);
  for (size_t i = 0; i < p.size (); i++) {
    le[2 * i] = (uint8_t) p[i];
    le[2 * i + 1] = (uint8_t) (p[i] >> 8);
  }
  gchar *s = g_compute_checksum_for_data (G_CHECKSUM_MD5, le.data (), le.size ());
  std::string r = s;
  g_free (s);
  return r;
}

/* --------------------------------------------------------------- output */

namespace {

/* A decoded frame as planes of samples (cropped), whatever memory it came in. */
struct Planes {
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  uint32_t width = 0, height = 0, n = 0;
  std::vector<uint16_t> plane[4];
};

} // namespace

/* Copies every memory of a Vulkan buffer into host-visible memory. */
static std::vector<std::vector<uint8_t>> read_back (GstBuffer *buf)
{
  std::vector<std::vector<uint8_t>> out;
  GstVulkanBufferMemory *first = (GstVulkanBufferMemory *) gst_buffer_peek_memory (buf, 0);
  GstVulkanDevice *device = first->device;
  GstVulkanQueue *queue = nullptr;
  for (guint i = 0; i < device->physical_device->n_queue_families && !queue; i++)
    if (device->physical_device->queue_family_props[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      queue = gst_vulkan_device_get_queue (device, i, 0);
  fail_unless (queue != nullptr);
  GError *error = nullptr;
  gpc::VkExec *exec = gpc::VkExec::create (queue, &error);
  fail_unless (exec != nullptr);
  fail_unless (exec->begin (&error));
  std::vector<GstMemory *> hosts;
  for (guint m = 0; m < gst_buffer_n_memory (buf); m++) {
    GstMemory *mem = gst_buffer_peek_memory (buf, m);
    fail_unless (gst_is_vulkan_buffer_memory (mem));
    gsize size = gst_memory_get_sizes (mem, nullptr, nullptr);
    GstMemory *host = gpc::vk_storage_alloc (device, size, true, &error);
    fail_unless (host != nullptr);
    GstVulkanBufferMemory *src = (GstVulkanBufferMemory *) mem;
    GstVulkanBufferMemory *dst = (GstVulkanBufferMemory *) host;
    exec->barrier (src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferCopy region = { mem->offset, 0, size };
    vkCmdCopyBuffer (exec->cmd (), src->buffer, dst->buffer, 1, &region);
    exec->barrier (dst, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    hosts.push_back (host);
  }
  exec->keep (GST_MINI_OBJECT_CAST (buf));
  GstVulkanFence *fence = exec->submit (&error);
  fail_unless (fence != nullptr);
  fail_unless (exec->wait (fence, 10 * GST_SECOND, &error));
  gst_vulkan_fence_unref (fence);
  for (GstMemory *h : hosts) {
    GstMapInfo map;
    fail_unless (gst_memory_map (h, &map, GST_MAP_READ));
    out.emplace_back (map.data, map.data + map.size);
    gst_memory_unmap (h, &map);
    gst_memory_unref (h);
  }
  exec->wait_idle ();
  delete exec;
  gst_object_unref (queue);
  return out;
}

static Planes planes_of (GstBuffer *buf, GstCaps *caps)
{
  GstVideoInfo info;
  fail_unless (gst_video_info_from_caps (&info, caps));
  Planes p;
  p.format = GST_VIDEO_INFO_FORMAT (&info);
  p.width = GST_VIDEO_INFO_WIDTH (&info);
  p.height = GST_VIDEO_INFO_HEIGHT (&info);
  p.n = GST_VIDEO_INFO_N_PLANES (&info);
  GstCapsFeatures *f = gst_caps_get_features (caps, 0);
  const bool vk = f && gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER);
  std::vector<std::vector<uint8_t>> mems;
  GstVideoFrame vf;
  GstVideoMeta *meta = gst_buffer_get_video_meta (buf);
  if (vk) {
    fail_unless (meta != nullptr, "Vulkan output without GstVideoMeta");
    mems = read_back (buf);
  } else {
    fail_unless (gst_video_frame_map (&vf, &info, buf, GST_MAP_READ));
  }
  for (uint32_t i = 0; i < p.n; i++) {
    /* samples per row: AYUV64 has four per pixel */
    const uint32_t w = GST_VIDEO_INFO_COMP_WIDTH (&info, i) *
        (p.format == GST_VIDEO_FORMAT_AYUV64 ? 4 : 1);
    const uint8_t *base;
    gsize stride;
    if (vk) {
      /* meta offsets run over the memories back to back */
      gsize off = meta->offset[i];
      guint m = 0;
      while (m < mems.size () && off >= mems[m].size ()) {
        off -= mems[m].size ();
        m++;
      }
      fail_unless (m < mems.size ());
      stride = meta->stride[i];
      fail_unless (off + stride * (p.height - 1) + w * 2 <= mems[m].size ());
      base = mems[m].data () + off;
    } else {
      base = (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&vf, i);
      stride = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, i);
    }
    p.plane[i].resize ((size_t) w * p.height);
    for (uint32_t y = 0; y < p.height; y++)
      memcpy (&p.plane[i][(size_t) y * w], base + y * stride, (size_t) w * 2);
  }
  if (!vk)
    gst_video_frame_unmap (&vf);
  if (p.format == GST_VIDEO_FORMAT_AYUV64) {
    /* A, Y, U, V uint16 per pixel, 12 bits widened by replication: back
     * to 12-bit Y, Cb, Cr, A planes, checking the low bits on the way. */
    std::vector<uint16_t> packed;
    packed.swap (p.plane[0]);
    for (uint32_t k = 0; k < 4; k++)
      p.plane[k].resize ((size_t) p.width * p.height);
    static const int order[4] = { 3, 0, 1, 2 }; /* A Y U V -> plane */
    for (size_t i = 0; i < (size_t) p.width * p.height; i++)
      for (int c = 0; c < 4; c++) {
        uint16_t v = packed[4 * i + c];
        fail_unless_equals_int (v & 15, v >> 12);
        p.plane[order[c]][i] = v >> 4;
      }
    p.n = 4;
  }
  return p;
}

/* -------------------------------------------------------------- harness */

/* Caps of each buffer as it arrived (the harness queues buffers and
 * events apart, so the sink pad's current caps at pull time can be later
 * ones). */
static std::map<GstPad *, std::deque<GstCaps *>> g_buffer_caps;

static GstPadProbeReturn record_caps (GstPad *pad, GstPadProbeInfo *, gpointer)
{
  g_buffer_caps[pad].push_back (gst_pad_get_current_caps (pad));
  return GST_PAD_PROBE_OK;
}

/* props: "name=value name=value" */
static GstHarness *new_decoder (const char *props, bool vulkan_out)
{
  GstElement *e = gst_element_factory_make ("vkproresdec", nullptr);
  fail_unless (e != nullptr);
  if (props) {
    gchar **kv = g_strsplit (props, " ", -1);
    for (gchar **p = kv; *p; p++) {
      gchar **pair = g_strsplit (*p, "=", 2);
      if (pair[0] && pair[1])
        gst_util_set_object_arg (G_OBJECT (e), pair[0], pair[1]);
      g_strfreev (pair);
    }
    g_strfreev (kv);
  }
  GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  gst_pad_add_probe (h->sinkpad, GST_PAD_PROBE_TYPE_BUFFER, record_caps, nullptr, nullptr);
  gst_harness_set_sink_caps_str (h, vulkan_out ? "video/x-raw(memory:VulkanBuffer)" : "video/x-raw");
  return h;
}

static void teardown (GstHarness *h)
{
  auto it = g_buffer_caps.find (h->sinkpad);
  if (it != g_buffer_caps.end ()) {
    for (GstCaps *c : it->second)
      if (c)
        gst_caps_unref (c);
    g_buffer_caps.erase (it);
  }
  gst_harness_teardown (h);
}

/* Drops every queued output and what we recorded about it. */
static void drop_outputs (GstHarness *h)
{
  GstBuffer *b;
  while ((b = gst_harness_try_pull (h)))
    gst_buffer_unref (b);
  for (GstCaps *c : g_buffer_caps[h->sinkpad])
    if (c)
      gst_caps_unref (c);
  g_buffer_caps[h->sinkpad].clear ();
}

static void set_vector_caps (GstHarness *h, const Vector &v, const char *variant_override = nullptr)
{
  const char *variant = variant_override ? variant_override : variant_for_fourcc (v.info.fourcc);
  gchar *caps = g_strdup_printf ("video/x-prores, variant=(string)%s, width=(int)%u, "
      "height=(int)%u, framerate=(fraction)25/1", variant, v.info.width, v.info.height);
  gst_harness_set_src_caps_str (h, caps);
  g_free (caps);
}

static GstBuffer *frame_buffer (const uint8_t *d, size_t n, uint64_t index)
{
  GstBuffer *b = gst_buffer_new_memdup (d, n);
  GST_BUFFER_PTS (b) = index * GST_SECOND / 25;
  GST_BUFFER_DURATION (b) = GST_SECOND / 25;
  return b;
}

namespace {

/* Pulls every output after EOS, with its caps. */
struct Output {
  GstBuffer *buf;
  GstCaps *caps;
};

} // namespace

static std::vector<Output> pull_all (GstHarness *h)
{
  std::vector<Output> out;
  GstBuffer *b;
  std::deque<GstCaps *> &caps = g_buffer_caps[h->sinkpad];
  while ((b = gst_harness_try_pull (h))) {
    fail_unless (!caps.empty () && caps.front () != nullptr);
    out.push_back ({b, caps.front ()});
    caps.pop_front ();
  }
  return out;
}

static void free_outputs (std::vector<Output> &outs)
{
  for (Output &o : outs) {
    gst_buffer_unref (o.buf);
    gst_caps_unref (o.caps);
  }
  outs.clear ();
}

/* The CPU reference for a frame. */
static DecodedFrame reference (const uint8_t *d, size_t n, uint32_t depth, bool skip_alpha,
    IdctFlavor flavor, Status *status = nullptr)
{
  DecodeOptions o;
  o.bit_depth = depth;
  o.skip_alpha = skip_alpha;
  o.idct_flavor = flavor;
  DecodedFrame f;
  std::string err;
  Status s = decode_frame (d, n, o, &f, &err);
  if (status)
    *status = s;
  else
    fail_unless (s == Status::kOk, "reference: %s", err.c_str ());
  return f;
}

static bool same_planes (const Planes &p, const DecodedFrame &ref, std::string *why)
{
  if (p.width != ref.width || p.height != ref.height) {
    *why = "size differs";
    return false;
  }
  for (uint32_t i = 0; i < p.n; i++) {
    if (p.plane[i] != ref.plane[i]) {
      for (size_t k = 0; k < p.plane[i].size () && k < ref.plane[i].size (); k++)
        if (p.plane[i][k] != ref.plane[i][k]) {
          char buf[160];
          snprintf (buf, sizeof buf, "plane %u differs first at x=%zu y=%zu: %u, reference %u", i,
              k % ref.plane_width[i], k / ref.plane_width[i], p.plane[i][k], ref.plane[i][k]);
          *why = buf;
          return false;
        }
      *why = "plane sizes differ";
      return false;
    }
  }
  return true;
}

static GstVideoFormat expected_format (const DecodedFrame &r)
{
  if (r.num_planes == 4 && r.bit_depth == 12)
    return GST_VIDEO_FORMAT_AYUV64;
  if (r.num_planes == 4)
    return r.chroma_444 ? GST_VIDEO_FORMAT_A444_10LE : GST_VIDEO_FORMAT_A422_10LE;
  if (r.bit_depth == 12)
    return r.chroma_444 ? GST_VIDEO_FORMAT_Y444_12LE : GST_VIDEO_FORMAT_I422_12LE;
  return r.chroma_444 ? GST_VIDEO_FORMAT_Y444_10LE : GST_VIDEO_FORMAT_I422_10LE;
}

/* Every frame of `v` through `h`, then EOS: one output each. */
static std::vector<Output> decode_all (GstHarness *h, const Vector &v)
{
  for (size_t i = 0; i < v.frames.size (); i++)
    fail_unless_equals_int (gst_harness_push (h, frame_buffer (&v.data[v.frames[i].offset],
                v.frames[i].size, i)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  std::vector<Output> outs = pull_all (h);
  fail_unless_equals_int ((int) outs.size (), (int) v.frames.size ());
  return outs;
}

/* Decodes a whole vector and checks every frame against the reference and,
 * where the output is FFmpeg's own layout, against its checksums. */
static void check_vector (const Vector &v, bool vulkan_out, const char *props,
    const char *variant, IdctFlavor flavor)
{
  GstHarness *h = new_decoder (props, vulkan_out);
  set_vector_caps (h, v, variant);
  std::vector<Output> outs = decode_all (h, v);

  const uint32_t depth = bit_depth_for_variant (variant ? variant :
      variant_for_fourcc (v.info.fourcc));
  const bool skip_alpha = props && strstr (props, "skip-alpha=true");
  for (size_t i = 0; i < outs.size (); i++) {
    const uint8_t *fd = &v.data[v.frames[i].offset];
    DecodedFrame ref = reference (fd, v.frames[i].size, depth, skip_alpha, flavor);
    Planes p = planes_of (outs[i].buf, outs[i].caps);
    fail_unless_equals_int (p.format, expected_format (ref));
    fail_unless_equals_int (p.n, ref.num_planes);
    std::string why;
    fail_unless (same_planes (p, ref, &why), "%s frame %zu (%s, %s): %s", v.info.file.c_str (), i,
        vulkan_out ? "Vulkan" : "system", props ? props : "", why.c_str ());
    /* FFmpeg's checksums where our output is FFmpeg's layout. */
    const auto &sums = flavor == IdctFlavor::kC ? v.info.md5_c : v.info.md5;
    if (!variant && !skip_alpha && i < sums.size ()) {
      for (uint32_t k = 0; k < p.n; k++)
        fail_unless (md5_of (p.plane[k]) == sums[i][k], "%s frame %zu plane %u: MD5 differs "
            "from ffmpeg", v.info.file.c_str (), i, k);
    }
    if (v.info.field_order != "progressive") {
      fail_unless (GST_BUFFER_FLAG_IS_SET (outs[i].buf, GST_VIDEO_BUFFER_FLAG_INTERLACED));
      fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (outs[i].buf, GST_VIDEO_BUFFER_FLAG_TFF),
          v.info.field_order == "tt");
    }
  }
  free_outputs (outs);
  teardown (h);
  gpc_vk_test_check_validation ();
}

/* ---------------------------------------------------------------- tests */

GST_START_TEST (vectors_system_memory)
{
  for (const Vector &v : vectors ()) {
    check_vector (v, false, nullptr, nullptr, IdctFlavor::kX86);
    printf ("PASS %-36s system memory, %zu frame(s)\n", v.info.file.c_str (), v.frames.size ());
  }
}
GST_END_TEST;

GST_START_TEST (vectors_vulkan_memory)
{
  for (const Vector &v : vectors ()) {
    /* The harness is a live upstream: the throughput pacing here, the live
     * one (the default there) for system memory. */
    check_vector (v, true, "frames-in-flight=32 batch=16", nullptr, IdctFlavor::kX86);
    printf ("PASS %-36s memory:VulkanBuffer, %zu frame(s)\n", v.info.file.c_str (),
        v.frames.size ());
  }
}
GST_END_TEST;

GST_START_TEST (idct_c_arithmetic)
{
  check_vector (vector_named ("x_extreme_422_336x200.mov"), false, "idct=c", nullptr, IdctFlavor::kC);
  check_vector (vector_named ("x_extreme_4444_336x200.mov"), true, "idct=c", nullptr, IdctFlavor::kC);
  check_vector (vector_named ("ks_hq_tff_336x200.mov"), false, "idct=c", nullptr, IdctFlavor::kC);
}
GST_END_TEST;

GST_START_TEST (alpha_options)
{
  /* 4:4:4 + alpha under a 10-bit variant: A444_10LE with alpha. */
  check_vector (vector_named ("ks_4444_alpha8_346x202.mov"), false, nullptr, "hq", IdctFlavor::kX86);
  check_vector (vector_named ("ks_4444_alpha16_tff_336x200.mov"), true, nullptr, "standard",
      IdctFlavor::kX86);
  /* skip-alpha: FFmpeg's Y, Cb, Cr. */
  check_vector (vector_named ("ks_4444xq_alpha16_530x302.mov"), false, "skip-alpha=true", nullptr,
      IdctFlavor::kX86);
  check_vector (vector_named ("ks_4444_alpha8_346x202.mov"), true, "skip-alpha=true", "lt",
      IdctFlavor::kX86);
}
GST_END_TEST;

/* matroskademux's caps: "format" instead of "variant", and "standard" for
 * FourCCs it does not know (ap4x). */
GST_START_TEST (matroska_caps)
{
  struct { const char *file, *caps; } cases[] = {
    { "ks_4444xq_336x200_mbs2.mov", "video/x-prores, format=(string)standard" },
    { "ks_4444_336x200.mov", "video/x-prores, format=(string)4444" },
    { "ks_hq_66x34.mov", "video/x-prores, format=(string)hq" },
    { "ks_lt_336x200_mbs4.mov", "video/x-prores" },
  };
  for (auto &cs : cases) {
    const Vector &v = vector_named (cs.file);
    GstHarness *h = new_decoder (nullptr, false);
    gst_harness_set_src_caps_str (h, cs.caps);
    for (size_t i = 0; i < v.frames.size (); i++)
      fail_unless_equals_int (gst_harness_push (h, frame_buffer (&v.data[v.frames[i].offset],
                  v.frames[i].size, i)), GST_FLOW_OK);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    std::vector<Output> outs = pull_all (h);
    fail_unless_equals_int ((int) outs.size (), (int) v.frames.size ());
    for (size_t i = 0; i < outs.size (); i++) {
      Planes p = planes_of (outs[i].buf, outs[i].caps);
      for (uint32_t k = 0; k < p.n; k++)
        fail_unless (md5_of (p.plane[k]) == v.info.md5[i][k], "%s (%s) frame %zu plane %u: MD5 "
            "differs from ffmpeg", cs.file, cs.caps, i, k);
    }
    free_outputs (outs);
    teardown (h);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* One stream: caps changes (variant), and size / format changes inside the
 * same caps, as a ProRes stream may do; frames submitted one by one and in
 * batches. */
GST_START_TEST (renegotiation)
{
  const char *seq[] = { "ks_proxy_336x200.mov", "ks_proxy_1000x562.mov", "ks_hq_66x34.mov",
    "ks_4444_336x200.mov", "ks_standard_bff_346x202.mov", "ks_proxy_336x200.mov" };
  /* Twice per memory kind: one submission per frame, and batches. */
  for (int run = 0; run < 4; run++) {
    const int vk = run & 1;
    GstHarness *h = new_decoder (run < 2 ? nullptr : vk ? "batch=2" : "batch=3 frames-in-flight=4",
        vk);
    std::vector<std::pair<const Vector *, size_t>> sent;
    uint64_t n = 0;
    for (const char *name : seq) {
      const Vector &v = vector_named (name);
      /* Caps of the first vector for the 4:2:2 ones: the stream changes
       * inside the caps; the 4444 one comes with new caps. */
      set_vector_caps (h, v.info.fourcc == "ap4h" ? v : vector_named (seq[0]));
      for (size_t i = 0; i < v.frames.size (); i++) {
        fail_unless_equals_int (gst_harness_push (h, frame_buffer (&v.data[v.frames[i].offset],
                    v.frames[i].size, n++)), GST_FLOW_OK);
        sent.push_back ({&v, i});
      }
    }
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    std::vector<Output> outs = pull_all (h);
    fail_unless_equals_int ((int) outs.size (), (int) sent.size ());
    for (size_t k = 0; k < outs.size (); k++) {
      const Vector &v = *sent[k].first;
      const Span &s = v.frames[sent[k].second];
      const uint32_t depth = v.info.fourcc == "ap4h" ? 12 : 10;
      DecodedFrame ref = reference (&v.data[s.offset], s.size, depth, false, IdctFlavor::kX86);
      Planes p = planes_of (outs[k].buf, outs[k].caps);
      fail_unless_equals_int (p.format, expected_format (ref));
      std::string why;
      fail_unless (same_planes (p, ref, &why), "output %zu (%s): %s", k, v.info.file.c_str (),
          why.c_str ());
    }
    free_outputs (outs);
    teardown (h);
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

GST_START_TEST (flush_and_restart)
{
  const Vector &v = vector_named ("aw_hq_336x200.mov");
  /* Batches of 4: flushes also drop frames not submitted yet. */
  GstHarness *h = new_decoder ("frames-in-flight=8 batch=4", true);
  set_vector_caps (h, v);
  for (int round = 0; round < 3; round++) {
    for (size_t i = 0; i < v.frames.size (); i++)
      fail_unless_equals_int (gst_harness_push (h, frame_buffer (&v.data[v.frames[i].offset],
                  v.frames[i].size, i)), GST_FLOW_OK);
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
    fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
    drop_outputs (h);
    GstSegment seg;
    gst_segment_init (&seg, GST_FORMAT_TIME);
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
  fail_unless_equals_int (gst_harness_push (h, frame_buffer (&v.data[v.frames[0].offset],
              v.frames[0].size, 0)), GST_FLOW_OK);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  std::vector<Output> outs = pull_all (h);
  fail_unless_equals_int ((int) outs.size (), 1);
  DecodedFrame ref = reference (&v.data[v.frames[0].offset], v.frames[0].size, 10, false,
      IdctFlavor::kX86);
  Planes p = planes_of (outs[0].buf, outs[0].caps);
  std::string why;
  fail_unless (same_planes (p, ref, &why), "%s", why.c_str ());
  free_outputs (outs);
  teardown (h);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* A pool of a kind of its own, as GL, XImage or Vulkan sinks give. */
typedef GstVideoBufferPool TestPool;
typedef GstVideoBufferPoolClass TestPoolClass;
G_DEFINE_TYPE (TestPool, test_pool, GST_TYPE_VIDEO_BUFFER_POOL);
static void test_pool_class_init (TestPoolClass *) {}
static void test_pool_init (TestPool *) {}

/* Padded pictures in host-visible Vulkan buffers (one per plane, each
 * plane 2 bytes in) of the decoder's device, with a GstVideoMeta: what a
 * Vulkan-aware element may offer for system-memory caps. */
struct VkHostPool {
  GstBufferPool parent;
  GstVulkanDevice *device;
};
typedef GstBufferPoolClass VkHostPoolClass;
G_DEFINE_TYPE (VkHostPool, vk_host_pool, GST_TYPE_BUFFER_POOL);

static GstFlowReturn vk_host_pool_alloc (GstBufferPool *pool, GstBuffer **buffer,
    GstBufferPoolAcquireParams *)
{
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstCaps *caps = nullptr;
  GstVideoInfo info;
  fail_unless (gst_buffer_pool_config_get_params (config, &caps, nullptr, nullptr, nullptr));
  fail_unless (caps && gst_video_info_from_caps (&info, caps));
  gst_structure_free (config);
  GstVideoAlignment align;
  gpc_vk_test_padded_alignment (&align);
  fail_unless (gst_video_info_align (&info, &align));
  GstBuffer *sys = gst_buffer_new_allocate (nullptr, GST_VIDEO_INFO_SIZE (&info), nullptr);
  *buffer = gpc_vk_test_to_vulkan_buffers (((VkHostPool *) pool)->device, sys, &info, false, true);
  gst_buffer_unref (sys);
  GstVideoMeta *meta = gst_buffer_get_video_meta (*buffer);
  meta->meta.flags = (GstMetaFlags) (meta->meta.flags | GST_META_FLAG_POOLED);
  return GST_FLOW_OK;
}

static void vk_host_pool_finalize (GObject *object)
{
  gst_clear_object (&((VkHostPool *) object)->device);
  G_OBJECT_CLASS (vk_host_pool_parent_class)->finalize (object);
}

static void vk_host_pool_class_init (VkHostPoolClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = vk_host_pool_finalize;
  klass->alloc_buffer = vk_host_pool_alloc;
}

static void vk_host_pool_init (VkHostPool *) {}

namespace {

/* What downstream offers in its answer to the allocation query. */
enum class Offer {
  kNone,          /* no pool (GstVideoMeta read) */
  kPaddedPlain,   /* a GstVideoBufferPool of padded pictures */
  kOwnKind,       /* a pool of its own kind */
  kOwnKindNoMeta, /* the same, GstVideoMeta not read */
  kVulkanHost,    /* VkHostPool */
};

struct AllocAnswer {
  Offer offer;
  GstBufferPool *pool;
};

} // namespace

static GstPadProbeReturn answer_allocation (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  GstQuery *q = GST_PAD_PROBE_INFO_QUERY (info);
  if (GST_QUERY_TYPE (q) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  AllocAnswer *a = (AllocAnswer *) data;
  GstCaps *caps = nullptr;
  gst_query_parse_allocation (q, &caps, nullptr);
  GstVideoInfo vi;
  fail_unless (caps && gst_video_info_from_caps (&vi, caps));
  gst_clear_object (&a->pool);
  if (a->offer == Offer::kPaddedPlain) {
    a->pool = gst_video_buffer_pool_new ();
    GstVideoAlignment align;
    gpc_vk_test_padded_alignment (&align);
    GstStructure *config = gst_buffer_pool_get_config (a->pool);
    gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&vi), 0, 0);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_ALIGNMENT);
    gst_buffer_pool_config_set_video_alignment (config, &align);
    fail_unless (gst_buffer_pool_set_config (a->pool, config));
  } else if (a->offer == Offer::kOwnKind || a->offer == Offer::kOwnKindNoMeta) {
    a->pool = (GstBufferPool *) gst_object_ref_sink (g_object_new (test_pool_get_type (), nullptr));
  } else if (a->offer == Offer::kVulkanHost) {
    /* The decoder's device, from the decoder (`pad` is its source pad). */
    GstQuery *cq = gst_query_new_context (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);
    fail_unless (gst_pad_query (pad, cq));
    GstContext *ctx = nullptr;
    gst_query_parse_context (cq, &ctx);
    VkHostPool *pool = (VkHostPool *) gst_object_ref_sink (g_object_new (vk_host_pool_get_type (),
            nullptr));
    fail_unless (ctx && gst_context_get_vulkan_device (ctx, &pool->device));
    gst_query_unref (cq);
    a->pool = GST_BUFFER_POOL_CAST (pool);
  }
  if (a->pool)
    gst_query_add_allocation_pool (q, a->pool, vi.size, 0, 0);
  if (a->offer != Offer::kOwnKindNoMeta)
    gst_query_add_allocation_meta (q, GST_VIDEO_META_API_TYPE, nullptr);
  return GST_PAD_PROBE_HANDLED;
}

/* Messages of the decoder that say the GPU writes into downstream's
 * buffers (ProResDelivery::prepare). */
static std::atomic<int> g_gpu_writes_downstream;

static void count_gpu_writes (GstDebugCategory *cat, GstDebugLevel, const gchar *, const gchar *,
    gint, GObject *, GstDebugMessage *message, gpointer)
{
  const gchar *text = gst_debug_message_get (message);
  if (!strcmp (gst_debug_category_get_name (cat), "vkproresdec") && text
      && strstr (text, "the GPU writes into it"))
    g_gpu_writes_downstream++;
}

/* System-memory output and downstream's allocation answer: a pool that
 * downstream offers gets every frame, laid out as its GstVideoMeta says
 * (padded strides), written there by the GPU where its buffers are
 * host-visible Vulkan memory of our device; without a pool the downloads
 * are lent (no copy), with a GstVideoMeta where downstream reads it.
 * Bit-exact either way. */
GST_START_TEST (allocation)
{
  gst_debug_set_threshold_for_name ("vkproresdec", GST_LEVEL_DEBUG);
  gst_debug_add_log_function (count_gpu_writes, nullptr, nullptr);
  const char *names[] = { "ks_4444_alpha16_97x53.mov", "ks_4444_alpha8_346x202.mov",
    "aw_hq_336x200.mov" };
  const Offer offers[] = { Offer::kNone, Offer::kPaddedPlain, Offer::kOwnKind,
    Offer::kOwnKindNoMeta, Offer::kVulkanHost };
  for (const char *name : names) {
    const Vector &v = vector_named (name);
    const uint32_t depth = bit_depth_for_fourcc (v.info.fourcc.c_str ());
    for (Offer offer : offers) {
      AllocAnswer a = { offer, nullptr };
      g_gpu_writes_downstream = 0;
      GstHarness *h = new_decoder (nullptr, false);
      GstPad *src = gst_element_get_static_pad (h->element, "src");
      gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, answer_allocation, &a, nullptr);
      gst_object_unref (src);
      set_vector_caps (h, v);
      std::vector<Output> outs = decode_all (h, v);
      fail_unless (offer == Offer::kNone || a.pool != nullptr, "no allocation query");
      for (size_t k = 0; k < outs.size (); k++) {
        GstBuffer *b = outs[k].buf;
        GstVideoMeta *meta = gst_buffer_get_video_meta (b);
        GstVideoInfo info;
        fail_unless (gst_video_info_from_caps (&info, outs[k].caps));
        fail_unless (b->pool == a.pool, "%s, offer %d: frame %zu is not in the offered pool",
            name, (int) offer, k);
        if (offer != Offer::kOwnKindNoMeta)
          fail_unless (meta != nullptr);
        if (offer == Offer::kPaddedPlain || offer == Offer::kVulkanHost)
          fail_unless (meta->stride[0] % 64 == 0
              && meta->stride[0] > GST_VIDEO_INFO_PLANE_STRIDE (&info, 0), "stride %d",
              meta->stride[0]);
        if (offer == Offer::kVulkanHost)
          fail_unless (gst_is_vulkan_buffer_memory (gst_buffer_peek_memory (b, 0)));
        const Span &s = v.frames[k];
        DecodedFrame ref = reference (&v.data[s.offset], s.size, depth, false, IdctFlavor::kX86);
        std::string why;
        fail_unless (same_planes (planes_of (b, outs[k].caps), ref, &why), "%s, offer %d: %s",
            name, (int) offer, why.c_str ());
      }
      free_outputs (outs);
      teardown (h);
      gst_clear_object (&a.pool);
      fail_unless_equals_int (g_gpu_writes_downstream.load (), offer == Offer::kVulkanHost ? 1 : 0);
    }
  }
  gst_debug_remove_log_function (count_gpu_writes);
  gst_debug_unset_threshold_for_name ("vkproresdec");
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Whether qtdemux is installed; prints the skip of `test` when not. */
static bool
have_qtdemux (const char *test)
{
  GstElement *demux = gst_element_factory_make ("qtdemux", nullptr);
  if (!demux) {
    printf ("SKIP %s: no qtdemux\n", test);
    return false;
  }
  gst_object_unref (demux);
  return true;
}

/* Plays `desc` to its end; returns the error message, "" at EOS. */
static std::string play_to_end (const std::string &desc)
{
  GstElement *pipe = gst_parse_launch (desc.c_str (), nullptr);
  fail_unless (pipe != nullptr);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  fail_unless (msg != nullptr, "%s: timed out", desc.c_str ());
  std::string r;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = nullptr;
    gst_message_parse_error (msg, &err, nullptr);
    r = err->message;
    g_error_free (err);
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return r;
}

/* The decoder's own latency, from a latency query on its source pad
 * less what upstream reports. */
static GstClockTime own_latency (GstElement *dec, gboolean *live)
{
  GstPad *src = gst_element_get_static_pad (dec, "src");
  GstPad *sink = gst_element_get_static_pad (dec, "sink");
  GstQuery *q = gst_query_new_latency (), *up = gst_query_new_latency ();
  fail_unless (gst_pad_query (src, q));
  fail_unless (gst_pad_peer_query (sink, up));
  GstClockTime min = 0, up_min = 0;
  gst_query_parse_latency (q, live, &min, nullptr);
  gst_query_parse_latency (up, nullptr, &up_min, nullptr);
  gst_query_unref (q);
  gst_query_unref (up);
  gst_object_unref (src);
  gst_object_unref (sink);
  return min - up_min;
}

/* Pacing by liveness: a live upstream (the harness answers latency queries
 * as live) gets one frame a submission and two in flight, output at the
 * latest when a third frame arrives, and 2 frames of latency reported; a file
 * (qtdemux, not live) gets 32 in flight and reports 32 frames; the
 * properties override either. */
GST_START_TEST (live_pacing)
{
  const Vector &v = vector_named ("aw_hq_336x200.mov");
  for (const char *props : { (const char *) nullptr, "frames-in-flight=5 batch=2" }) {
    GstHarness *h = new_decoder (props, false);
    set_vector_caps (h, v);
    int pushed = 0;
    while (gst_harness_buffers_received (h) == 0 && pushed < 8) {
      const Span &s = v.frames[pushed % v.frames.size ()];
      fail_unless_equals_int (gst_harness_push (h, frame_buffer (&v.data[s.offset], s.size,
                  pushed)), GST_FLOW_OK);
      pushed++;
    }
    gboolean live = FALSE;
    const GstClockTime lat = own_latency (h->element, &live);
    printf ("live upstream, %s: first output after %d frames, latency %" GST_TIME_FORMAT "\n",
        props ? props : "defaults", pushed, GST_TIME_ARGS (lat));
    fail_unless (live);
    /* At the latest when the window overflows; earlier if the GPU was done. */
    fail_unless (pushed <= (props ? 6 : 3), "no output after %d frames", pushed);
    fail_unless_equals_uint64 (lat, (props ? 5 : 2) * GST_SECOND / 25);
    teardown (h);
  }
  if (!have_qtdemux ("live_pacing"))
    return;
  const std::string path = gpc_test::media_dir () + "/prores/aw_hq_336x200.mov";
  for (const char *props : { "", "frames-in-flight=3" }) {
    GstElement *pipe = gst_parse_launch (("filesrc location=\"" + path + "\" ! qtdemux ! "
            "vkproresdec name=dec " + props + " ! fakesink").c_str (), nullptr);
    fail_unless (pipe != nullptr);
    fail_unless (gst_element_set_state (pipe, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
    fail_unless (gst_element_get_state (pipe, nullptr, nullptr, 60 * GST_SECOND) ==
        GST_STATE_CHANGE_SUCCESS);
    GstElement *dec = gst_bin_get_by_name (GST_BIN (pipe), "dec");
    gboolean live = TRUE;
    const GstClockTime lat = own_latency (dec, &live);
    printf ("file, %s: latency %" GST_TIME_FORMAT "\n", *props ? props : "defaults",
        GST_TIME_ARGS (lat));
    fail_unless (!live);
    fail_unless_equals_uint64 (lat, (*props ? 3 : 32) * GST_SECOND / 25);
    gst_object_unref (dec);
    gst_element_set_state (pipe, GST_STATE_NULL);
    gst_object_unref (pipe);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* filesrc ! qtdemux ! vkproresdec ! videoconvert: qtdemux's caps, the
 * system-memory fallback in front of a CPU element. */
GST_START_TEST (qtdemux_pipeline)
{
  if (!have_qtdemux ("qtdemux_pipeline"))
    return;
  for (const char *name : { "ks_standard_bff_346x202.mov", "ks_4444_alpha16_336x200.mov",
      "ks_lt_1282x722.mov" }) {
    std::string path = gpc_test::media_dir () + "/prores/" + name;
    const std::string err = play_to_end ("filesrc location=\"" + path + "\" ! qtdemux ! "
        "vkproresdec ! videoconvert ! video/x-raw,format=AYUV64 ! fakesink");
    fail_unless (err.empty (), "%s: %s", name, err.c_str ());
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

/* vkproresdec's Vulkan buffers straight into vkvmafmotion (zero copy) give
 * the SADs of the same frames through system memory. */
static std::vector<guint64> motion_sads (const std::string &path, const char *caps)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec ! %s ! "
      "vkvmafmotion ! fakesink", path.c_str (), caps);
  GstElement *pipe = gst_parse_launch (desc, nullptr);
  g_free (desc);
  fail_unless (pipe != nullptr);
  GstBus *bus = gst_element_get_bus (pipe);
  fail_unless (gst_element_set_state (pipe, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE);
  std::vector<guint64> sads;
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT));
    fail_unless (msg != nullptr, "timed out");
    const GstMessageType t = GST_MESSAGE_TYPE (msg);
    if (t == GST_MESSAGE_ELEMENT && gst_message_has_name (msg, "vkvmafmotion")) {
      guint64 sad = 0;
      gst_structure_get_uint64 (gst_message_get_structure (msg), "sad", &sad);
      sads.push_back (sad);
    }
    gst_message_unref (msg);
    fail_unless (t != GST_MESSAGE_ERROR, "pipeline error");
    if (t == GST_MESSAGE_EOS)
      break;
  }
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return sads;
}

GST_START_TEST (vmafmotion_zero_copy)
{
  if (!have_qtdemux ("vmafmotion_zero_copy"))
    return;
  for (const char *name : { "ks_hq_66x34.mov", "aw_hq_336x200.mov", "ks_4444_336x200.mov" }) {
    std::string path = gpc_test::media_dir () + "/prores/" + name;
    std::vector<guint64> vk = motion_sads (path, "video/x-raw(memory:VulkanBuffer)");
    std::vector<guint64> sys = motion_sads (path, "video/x-raw");
    fail_unless (!vk.empty (), "%s: no motion results", name);
    fail_unless (vk == sys, "%s: SADs differ between Vulkan and system memory", name);
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

/* ------------------------------------------------------------ robustness */

/* Damages a frame in one of several ways; returns a description. */
static std::string damage (std::vector<uint8_t> &f, gpc_test::Rng &rng)
{
  const int kind = (int) rng.range (0, 6);
  char buf[96];
  switch (kind) {
    case 0: { /* random bit flips anywhere */
      int n = (int) rng.range (1, 16);
      for (int i = 0; i < n; i++)
        f[rng.range (0, f.size () - 1)] ^= (uint8_t) (1u << rng.range (0, 7));
      snprintf (buf, sizeof buf, "%d bit flips", n);
      break;
    }
    case 1: { /* truncation */
      size_t n = (size_t) rng.range (0, f.size () - 1);
      f.resize (n);
      snprintf (buf, sizeof buf, "truncated to %zu bytes", n);
      break;
    }
    case 2: { /* garbage over a range of slice data */
      size_t a = (size_t) rng.range (0, f.size () - 1);
      size_t n = std::min<size_t> ((size_t) rng.range (1, 4096), f.size () - a);
      for (size_t i = 0; i < n; i++)
        f[a + i] = (uint8_t) rng.bits (8);
      snprintf (buf, sizeof buf, "%zu garbage bytes at %zu", n, a);
      break;
    }
    case 3: { /* corrupt slice index entries (after the headers) */
      int n = (int) rng.range (1, 8);
      size_t lo = std::min<size_t> (f.size () - 1, 160);
      size_t hi = std::min<size_t> (f.size () - 1, 600);
      for (int i = 0; i < n; i++)
        f[rng.range (lo, hi)] = (uint8_t) rng.bits (8);
      snprintf (buf, sizeof buf, "%d slice-table bytes", n);
      break;
    }
    case 4: { /* header fields: sizes, formats, alpha, interlacing */
      int n = (int) rng.range (1, 4);
      for (int i = 0; i < n; i++)
        f[rng.range (8, std::min<size_t> (f.size () - 1, 40))] = (uint8_t) rng.bits (8);
      snprintf (buf, sizeof buf, "%d header bytes", n);
      break;
    }
    case 5: { /* zeroed tail: slices of zeros */
      size_t a = (size_t) rng.range (f.size () / 2, f.size () - 1);
      memset (&f[a], 0, f.size () - a);
      snprintf (buf, sizeof buf, "zeros from %zu", a);
      break;
    }
    default: { /* pure noise with a valid signature */
      for (auto &b : f)
        b = (uint8_t) rng.bits (8);
      if (f.size () >= 8)
        memcpy (&f[4], "icpf", 4);
      snprintf (buf, sizeof buf, "noise");
      break;
    }
  }
  return buf;
}

GST_START_TEST (damaged_frames)
{
  gpc_test::Rng rng = gpc_test::rng ("damaged_frames");
  const char *names[] = { "ks_hq_336x200_mbs1.mov", "ks_4444_alpha16_tff_336x200.mov",
    "ks_standard_bff_346x202.mov", "aw_lt_336x200.mov", "ks_4444_alpha8_defaultmat_208x96.mov",
    "x_extreme_422_336x200.mov" };
  int frames = 0, outputs = 0, exact = 0;
  for (int vk = 0; vk < 2; vk++) {
    for (const char *name : names) {
      const Vector &v = vector_named (name);
      GstHarness *h = new_decoder (vk ? "frames-in-flight=3 max-errors=-1 batch=2" :
          "frames-in-flight=3 max-errors=-1", vk);
      set_vector_caps (h, v);
      std::vector<std::vector<uint8_t>> sent;
      for (int k = 0; k < 12; k++) {
        const Span &s = v.frames[k % v.frames.size ()];
        std::vector<uint8_t> f (&v.data[s.offset], &v.data[s.offset] + s.size);
        std::string what = rng.chance (15) ? "intact" : damage (f, rng);
        GST_INFO ("%s frame %d: %s", name, k, what.c_str ());
        GstFlowReturn r = gst_harness_push (h, frame_buffer (f.data (), f.size (), k));
        fail_unless (r == GST_FLOW_OK || r == GST_FLOW_ERROR, "flow %s", gst_flow_get_name (r));
        sent.push_back (f);
        frames++;
      }
      gst_harness_push_event (h, gst_event_new_eos ());
      std::vector<Output> outs = pull_all (h);
      outputs += (int) outs.size ();
      /* Outputs whose frame the reference decodes without error must match. */
      for (Output &o : outs) {
        size_t k = (size_t) (GST_BUFFER_PTS (o.buf) * 25 / GST_SECOND);
        fail_unless (k < sent.size ());
        const std::vector<uint8_t> &f = sent[k];
        Frame parsed;
        if (parse_frame (f.data (), f.size (), &parsed, nullptr) != Status::kOk)
          continue;
        if (parsed.header.interlaced () && parsed.num_pictures != 2)
          continue;
        Status st;
        const uint32_t depth = bit_depth_for_fourcc (v.info.fourcc.c_str ());
        DecodedFrame ref = reference (f.data (), f.size (), depth, false, IdctFlavor::kX86, &st);
        /* The GPU finds the same bad slices as the CPU: such frames, and
         * only those, are flagged corrupted. */
        fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (o.buf, GST_BUFFER_FLAG_CORRUPTED),
            st == Status::kBadSlice);
        if (st != Status::kOk)
          continue;
        Planes p = planes_of (o.buf, o.caps);
        std::string why;
        fail_unless (same_planes (p, ref, &why), "%s frame %zu: %s", name, k, why.c_str ());
        exact++;
      }
      free_outputs (outs);
      teardown (h);
      gpc_vk_test_check_validation ();
    }
  }
  printf ("damaged frames: %d sent, %d output, %d checked bit-exact against the reference\n",
      frames, outputs, exact);
}
GST_END_TEST;

/* Frames no decoder can use: the signature broken (the CPU parser refuses
 * it), or every slice's luma size past the slice (the GPU fails each). */
static std::vector<uint8_t> bad_signature (const uint8_t *d, size_t n)
{
  std::vector<uint8_t> f (d, d + n);
  memcpy (&f[4], "xxxx", 4);
  return f;
}

static std::vector<uint8_t> bad_slices (const uint8_t *d, size_t n)
{
  std::vector<uint8_t> f (d, d + n);
  Frame parsed;
  fail_unless (parse_frame (f.data (), f.size (), &parsed, nullptr) == Status::kOk);
  for (uint32_t p = 0; p < parsed.num_pictures; p++)
    for (uint32_t off : parsed.picture[p].slice_offset)
      f[off + 2] = f[off + 3] = 0xff;
  Status st;
  reference (f.data (), f.size (), 10, false, IdctFlavor::kX86, &st);
  fail_unless (st == Status::kBadSlice);
  return f;
}

namespace {

/* The messages an element posted, by type. */
struct Posted {
  int errors = 0, warnings = 0, qos = 0;
  std::string error;
};

} // namespace

static Posted posted (GstBus *bus)
{
  Posted r;
  GstMessage *m;
  while ((m = gst_bus_pop (bus))) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *e = nullptr;
      gst_message_parse_error (m, &e, nullptr);
      r.errors++;
      r.error = e->message;
      g_error_free (e);
    }
    r.warnings += GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING;
    r.qos += GST_MESSAGE_TYPE (m) == GST_MESSAGE_QOS;
    gst_message_unref (m);
  }
  return r;
}

/* Damaged frames among good ones are skipped (a QoS message each, one
 * warning for the stream) and the stream goes on with the default
 * max-errors, the base class's; a stream of which no frame decodes ends in
 * an error at EOS, as with avdec_prores. */
GST_START_TEST (undecodable_frames)
{
  const Vector &v = vector_named ("aw_hq_336x200.mov");
  const Span &s = v.frames[0];
  const uint8_t *good = &v.data[s.offset];
  const std::vector<uint8_t> sig = bad_signature (good, s.size), sl = bad_slices (good, s.size);
  GstElement *probe = gst_element_factory_make ("vkproresdec", nullptr);
  gint max_errors = 0;
  g_object_get (probe, "max-errors", &max_errors, NULL);
  gst_object_unref (probe);
  fail_unless_equals_int (max_errors, GST_VIDEO_DECODER_MAX_ERRORS);

  for (int vk = 0; vk < 2; vk++) {
    /* good, bad, bad, good */
    GstHarness *h = new_decoder (vk ? "batch=4" : nullptr, vk);
    GstBus *bus = gst_bus_new ();
    gst_element_set_bus (h->element, bus);
    set_vector_caps (h, v);
    const std::vector<uint8_t> *frames[] = { nullptr, &sig, &sl, nullptr };
    for (int k = 0; k < 4; k++)
      fail_unless_equals_int (gst_harness_push (h, frames[k] ?
              frame_buffer (frames[k]->data (), frames[k]->size (), k) :
              frame_buffer (good, s.size, k)), GST_FLOW_OK);
    fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
    std::vector<Output> outs = pull_all (h);
    fail_unless_equals_int ((int) outs.size (), 2);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (outs[0].buf), 0);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (outs[1].buf), 3 * GST_SECOND / 25);
    free_outputs (outs);
    Posted p = posted (bus);
    fail_unless_equals_int (p.errors, 0);
    fail_unless_equals_int (p.warnings, 1);
    fail_unless_equals_int (p.qos, 2);
    gst_element_set_bus (h->element, nullptr);
    gst_object_unref (bus);
    teardown (h);

    /* Nothing decodable: an error at EOS, and nothing out. */
    for (const std::vector<uint8_t> *bad : { &sig, &sl }) {
      h = new_decoder (nullptr, vk);
      bus = gst_bus_new ();
      gst_element_set_bus (h->element, bus);
      set_vector_caps (h, v);
      for (int k = 0; k < 3; k++)
        fail_unless_equals_int (gst_harness_push (h, frame_buffer (bad->data (), bad->size (), k)),
            GST_FLOW_OK);
      gst_harness_push_event (h, gst_event_new_eos ());
      outs = pull_all (h);
      fail_unless_equals_int ((int) outs.size (), 0);
      p = posted (bus);
      fail_unless_equals_int (p.errors, 1);
      fail_unless (p.error == "No valid frames decoded before end of stream", "%s",
          p.error.c_str ());
      gst_element_set_bus (h->element, nullptr);
      gst_object_unref (bus);
      teardown (h);
    }
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

/* A file whose every frame header is broken ends in the same error through
 * vkproresdec as through avdec_prores (not a silent EOS). */
GST_START_TEST (undecodable_file)
{
  if (!have_qtdemux ("undecodable_file"))
    return;
  const Vector &v = vector_named ("aw_hq_336x200.mov");
  std::vector<uint8_t> d = v.data;
  for (const Span &s : v.frames)
    memcpy (&d[s.offset + 4], "xxxx", 4);
  gchar *dir = g_dir_make_tmp ("gpc-prores-XXXXXX", nullptr);
  const std::string path = std::string (dir) + "/broken.mov";
  fail_unless (g_file_set_contents (path.c_str (), (const gchar *) d.data (), d.size (), nullptr));
  std::vector<const char *> decoders = { "vkproresdec" };
  GstElementFactory *av = gst_element_factory_find ("avdec_prores");
  if (av) {
    decoders.push_back ("avdec_prores");
    gst_object_unref (av);
  }
  for (const char *dec : decoders) {
    const std::string err = play_to_end ("filesrc location=\"" + path + "\" ! qtdemux ! " + dec +
        " ! fakesink");
    printf ("%s on a file of broken frames: %s\n", dec, err.c_str ());
    fail_unless (err == "No valid frames decoded before end of stream", "%s: %s", dec, err.c_str ());
  }
  g_unlink (path.c_str ());
  g_rmdir (dir);
  g_free (dir);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* One frame through a kernel directly: the upload read from host-visible
 * memory, the planes (the GPU layout, host-visible) cropped to the
 * reference's, the status slot's failed-slice count. */
static uint32_t kernel_decode (GpcVkTestDevice &dev, gpc::VkProResKernel *kernel,
    const std::vector<uint8_t> &f, uint32_t depth, Planes *out)
{
  Frame parsed;
  fail_unless (parse_frame (f.data (), f.size (), &parsed, nullptr) == Status::kOk);
  GpuFrameParams fp;
  std::vector<GpuSliceDesc> slices;
  build_gpu_layout (parsed, depth, false, IdctFlavor::kX86, &fp, &slices);
  GError *err = nullptr;
  const size_t up = gpc::VkProResKernel::upload_size (slices.size (), f.size ());
  GstMemory *input = gpc::vk_storage_alloc (dev.device, up, true, &err);
  fail_unless (input != nullptr);
  GstMapInfo map;
  fail_unless (gst_memory_map (input, &map, GST_MAP_WRITE));
  gpc::VkProResKernel::fill_upload (map.data, fp, slices, f.data (), f.size ());
  gst_memory_unmap (input, &map);

  const uint32_t n_planes = fp.alpha_bits ? 4 : 3;
  gpc::ProResPlanes planes = { };
  size_t total = 0;
  for (uint32_t k = 0; k < n_planes; k++) {
    planes.offset[k] = (uint32_t) (total / 4);
    planes.stride[k] = planes.row_words[k] = fp.plane_stride[k] / 2;
    total += (size_t) fp.plane_stride[k] * 2 * fp.padded_height;
  }
  planes.rows = fp.padded_height;
  GstMemory *mem = gpc::vk_storage_alloc (dev.device, total, true, &err);
  GstMemory *status = gpc::vk_storage_alloc (dev.device, 16, true, &err);
  fail_unless (mem && status);
  for (uint32_t k = 0; k < n_planes; k++)
    planes.mem[k] = (GstVulkanBufferMemory *) mem;
  GstMapInfo smap;
  fail_unless (gst_memory_map (status, &smap, (GstMapFlags) (GST_MAP_READ | GST_MAP_WRITE)));

  gpc::VkExec *exec = dev.exec;
  fail_unless (exec->begin (&err));
  exec->barrier ((GstVulkanBufferMemory *) input, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
      VK_ACCESS_SHADER_READ_BIT);
  fail_unless (kernel->record (exec, (GstVulkanBufferMemory *) input, fp, f.size (), planes,
          (GstVulkanBufferMemory *) status, 0, (guint32 *) smap.data, &err), "%s",
      err ? err->message : "?");
  exec->global_barrier (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
      VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  GstVulkanFence *fence = exec->submit (&err);
  fail_unless (fence && exec->wait (fence, 60 * GST_SECOND, &err));
  gst_vulkan_fence_unref (fence);
  const uint32_t failed = ((const guint32 *) smap.data)[0];
  gst_memory_unmap (status, &smap);

  Status st;
  DecodedFrame ref = reference (f.data (), f.size (), depth, false, IdctFlavor::kX86, &st);
  fail_unless (gst_memory_map (mem, &map, GST_MAP_READ));
  out->width = ref.width;
  out->height = ref.height;
  out->n = ref.num_planes;
  for (uint32_t k = 0; k < ref.num_planes; k++) {
    out->plane[k].clear ();
    for (uint32_t y = 0; y < ref.plane_height[k]; y++) {
      const uint16_t *row = (const uint16_t *) (map.data + planes.offset[k] * 4) +
          (size_t) y * fp.plane_stride[k];
      out->plane[k].insert (out->plane[k].end (), row, row + ref.plane_width[k]);
    }
  }
  gst_memory_unmap (mem, &map);
  gst_memory_unref (input);
  gst_memory_unref (mem);
  gst_memory_unref (status);
  return failed;
}

/* Both decoding paths in every workgroup layout the benchmark can choose
 * (the element runs the split path's defaults only), on the layouts'
 * corner cases and on damaged frames: bit-exact with the reference, and
 * failed slices reported exactly where the reference finds them. */
GST_START_TEST (kernel_paths)
{
  using Options = gpc::VkProResKernel::Options;
  using Path = gpc::VkProResKernel::Path;
  std::vector<Options> layouts;
  for (auto wg : { std::pair<uint32_t, uint32_t> { 128, 1 }, { 256, 0 }, { 128, 0 }, { 64, 0 } }) {
    Options o;
    o.path = Path::Fused;
    o.wg = wg.first;
    o.spread = wg.second;
    layouts.push_back (o);
  }
  /* The split path: its defaults, a pass 1 workgroup holding several
   * components' groups, pass 2 with more invocations than tasks. */
  for (auto wg : { std::pair<uint32_t, uint32_t> { 128, 64 }, { 96, 256 }, { 64, 128 } }) {
    Options o;
    o.vld_wg = wg.first;
    o.idct_wg = wg.second;
    layouts.push_back (o);
  }
  GpcVkTestDevice dev;
  Options bad;
  bad.wg = 96;
  GError *bad_err = nullptr;
  fail_unless (gpc::VkProResKernel::create (dev.device, bad, &bad_err) == nullptr && bad_err);
  g_clear_error (&bad_err);
  gpc_test::Rng rng = gpc_test::rng ("kernel_paths");
  int checked = 0, damaged = 0;
  for (const Options &o : layouts) {
    GError *err = nullptr;
    gpc::VkProResKernel *kernel = gpc::VkProResKernel::create (dev.device, o, &err);
    fail_unless (kernel != nullptr, "%s", err ? err->message : "?");
    for (const char *name : { "ks_4444_alpha16_tff_336x200.mov", "ks_standard_bff_346x202.mov",
        "ks_hq_336x200_mbs1.mov", "x_extreme_422_336x200.mov", "ks_4444xq_alpha16_530x302.mov" }) {
      const Vector &v = vector_named (name);
      const uint32_t depth = bit_depth_for_fourcc (v.info.fourcc.c_str ());
      for (size_t i = 0; i < v.frames.size () + 2; i++) {
        const Span &s = v.frames[i % v.frames.size ()];
        std::vector<uint8_t> f (&v.data[s.offset], &v.data[s.offset] + s.size);
        /* After the intact frames, two damaged ones the parser still takes. */
        if (i >= v.frames.size ()) {
          std::vector<uint8_t> g = f;
          Frame parsed;
          for (int tries = 0; tries < 20; tries++) {
            g = f;
            damage (g, rng);
            if (parse_frame (g.data (), g.size (), &parsed, nullptr) == Status::kOk &&
                (!parsed.header.interlaced () || parsed.num_pictures == 2))
              break;
            g.clear ();
          }
          if (g.empty ())
            continue;
          f = g;
          damaged++;
        }
        Planes p;
        const uint32_t failed = kernel_decode (dev, kernel, f, depth, &p);
        Status st;
        DecodedFrame ref = reference (f.data (), f.size (), depth, false, IdctFlavor::kX86, &st);
        fail_unless_equals_int (failed > 0, st == Status::kBadSlice);
        if (st != Status::kOk)
          continue;
        std::string why;
        fail_unless (same_planes (p, ref, &why), "%s path, wg %u/%u/%u/%u, %s frame %zu: %s",
            o.path == Path::Split ? "split" : "fused", o.wg, o.spread, o.vld_wg, o.idct_wg, name,
            i, why.c_str ());
        checked++;
      }
    }
    /* The submissions hold the kernel's descriptor sets until collected. */
    dev.exec->wait_idle ();
    delete kernel;
    gpc_vk_test_check_validation ();
  }
  printf ("kernel paths: %zu layouts, %d frames bit-exact, %d damaged\n", layouts.size (),
      checked, damaged);
}
GST_END_TEST;

/* Queries, seeks and state changes from the application thread while the
 * element streams: what tools/sanitize.sh thread watches for races. */
GST_START_TEST (concurrent_use)
{
  if (!have_qtdemux ("concurrent_use"))
    return;
  std::string path = gpc_test::media_dir () + "/prores/aw_hq_336x200.mov";
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! qtdemux ! vkproresdec ! fakesink",
      path.c_str ());
  gpc_test_hammer (desc, 64, false);
  g_free (desc);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  gst_check_init (&argc, &argv);
  gpc_test::seed ();
  gpc_vk_test_init ();
  if (vectors ().empty ())
    gpc_test::skip ("no ProRes vectors (GPC_MEDIA_DIR/prores)");
  Suite *s = gpc_test::check_suite ("vkproresdec", {
        GPC_CHECK_TEST (vectors_system_memory),
        GPC_CHECK_TEST (vectors_vulkan_memory),
        GPC_CHECK_TEST (idct_c_arithmetic),
        GPC_CHECK_TEST (alpha_options),
        GPC_CHECK_TEST (matroska_caps),
        GPC_CHECK_TEST (renegotiation),
        GPC_CHECK_TEST (flush_and_restart),
        GPC_CHECK_TEST (live_pacing),
        GPC_CHECK_TEST (allocation),
        GPC_CHECK_TEST (qtdemux_pipeline),
        GPC_CHECK_TEST (vmafmotion_zero_copy),
        GPC_CHECK_TEST (damaged_frames),
        GPC_CHECK_TEST (undecodable_frames),
        GPC_CHECK_TEST (undecodable_file),
        GPC_CHECK_TEST (kernel_paths),
        GPC_CHECK_TEST (concurrent_use) }, 600);
  int r = gst_check_run_suite (s, "vkproresdec", __FILE__);
  delete g_vectors;
  return r;
}
