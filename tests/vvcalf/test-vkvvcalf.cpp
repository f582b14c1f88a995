/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvvcalf against the CPU reference, bit for bit: fresh random pictures
 * and parameters (seed printed) through GstVvcAlfMeta in every format,
 * Vulkan buffer / image input and Vulkan buffer output, the synthetic
 * parameters, params-location patterns, flushes, error paths, and every
 * conformance picture of ../shared/vectors/vvc-alf through params-location.
 * Runs with the Khronos validation layer; any validation error fails.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

#include <dirent.h>
#include <stdio.h>
#include <unistd.h>
#include <string.h>

#include <algorithm>
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
#include "gstvvcalfmeta.h"
#include "vvcalf-builder.h"
#include "vvcalf-derive.h"
#include "vvcalf-json.h"
#include "vvcalf-random.h"
#include "vvcalf-test-util.h"
#include "vkalfkernel.h"
#include "compute/gpcvkexec.h"

using namespace vvcalf_test;

/* The raw format holding a picture of this chroma format and depth. */
static const char *
format_name (int chroma_format, int depth)
{
  static const char *names[4][3] = {
    /* 4:0:0 at 10 and 12 bits: 16-bit words, the depth from the parameters */
    {"GRAY8", "GRAY16_LE", "GRAY16_LE"},
    {"I420", "I420_10LE", "I420_12LE"},
    {"Y42B", "I422_10LE", "I422_12LE"},
    {"Y444", "Y444_10LE", "Y444_12LE"},
  };
  return names[chroma_format][(depth - 8) / 2];
}

static void
video_info_for (const gpc::VvcAlfPicParams &p, GstVideoInfo *info)
{
  const char *name = format_name (p.chroma_format, p.bit_depth);
  fail_unless (name != NULL);
  gst_video_info_set_format (info, gst_video_format_from_string (name), p.width, p.height);
  GST_VIDEO_INFO_FPS_N (info) = 25;
  GST_VIDEO_INFO_FPS_D (info) = 1;
}

/* A system-memory buffer of @pic in @info's layout. */
static GstBuffer *
picture_to_buffer (const Picture &pic, const GstVideoInfo *info)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  const bool wide = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8;
  for (int p = 0; p < pic.planes (); p++) {
    guint8 *d = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);
    for (int y = 0; y < pic.height[p]; y++)
      for (int x = 0; x < pic.width[p]; x++) {
        const uint16_t v = pic.at (p, x, y);
        if (wide)
          GST_WRITE_UINT16_LE (d + (gsize) y * stride + 2 * x, v);
        else
          d[(gsize) y * stride + x] = (guint8) v;
      }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* Compares output buffer @buf with @want; fails naming the first mismatch. */
static void
check_output (GstBuffer *buf, const GstVideoInfo *info, const Picture &want, const char *what)
{
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_READ), "%s: cannot map output", what);
  const bool wide = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8;
  for (int p = 0; p < want.planes (); p++) {
    const guint8 *d = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    const gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&f, p);
    long bad = 0;
    int fx = -1, fy = -1, got = 0;
    for (int y = 0; y < want.height[p]; y++)
      for (int x = 0; x < want.width[p]; x++) {
        const int v = wide ? GST_READ_UINT16_LE (d + (gsize) y * stride + 2 * x) :
            d[(gsize) y * stride + x];
        if (v != want.at (p, x, y)) {
          if (!bad) {
            fx = x;
            fy = y;
            got = v;
          }
          bad++;
        }
      }
    if (bad) {
      gst_video_frame_unmap (&f);
      fail ("%s: plane %d: %ld mismatches, first at (%d, %d): GPU %d, CPU %d", what, p, bad,
          fx, fy, got, want.at (p, fx, fy));
    }
  }
  gst_video_frame_unmap (&f);
}

namespace {

/* One test picture: parameters (as info, for the meta), input and the CPU
 * reference output. */
struct Case {
  GstVvcAlfInfo info;
  gpc::VvcAlfParams params;
  Picture in, want;
  GstVideoInfo vinfo;
  Case () { memset (&info, 0, sizeof info); }
  ~Case () { gst_vvc_alf_info_clear (&info); }
  Case (const Case &) = delete;
  Case &operator= (const Case &) = delete;
};

} // namespace

/* Random input of `depth` bits for the parameters of `c`, the reference's
 * output and the caps. */
static void
random_picture (gpc_test::Rng &rng, Case &c, int depth)
{
  c.in.alloc (c.params.pic);
  random_content (rng, c.in, depth);
  c.want.alloc (c.params.pic);
  apply (c.params, c.in, c.want);
  video_info_for (c.params.pic, &c.vinfo);
}

static void
make_case (gpc_test::Rng &rng, Case &c, const RandomLimits &lim)
{
  random_info (rng, c.info, lim);
  /* Chroma filters without clipping (the shader's no-clip path) are rare
   * in random APSs: make some. */
  if (rng.chance (30))
    for (GstVvcAlfAps &a : c.info.aps)
      memset (a.chroma_clip_idx, 0, sizeof (a.chroma_clip_idx));
  std::string err;
  fail_unless (gpc::vvc_alf_params_from_info (c.info, c.params, err), "%s", err.c_str ());
  random_picture (rng, c, c.params.pic.bit_depth);
}

static std::string
describe (const gpc::VvcAlfPicParams &p)
{
  char buf[128];
  snprintf (buf, sizeof buf, "%dx%d %s %d-bit CTB %d vb %d/%d", p.width, p.height,
      format_name (p.chroma_format, p.bit_depth), p.bit_depth, p.ctb_size, p.num_vb_x,
      p.num_vb_y);
  return buf;
}

/* Whether every memory of @buf is a Vulkan buffer with storage usage. */
static bool
is_storage_buffer (GstBuffer *buf)
{
  for (guint i = 0; i < gst_buffer_n_memory (buf); i++) {
    GstMemory *m = gst_buffer_peek_memory (buf, i);
    if (!gst_is_vulkan_buffer_memory (m) ||
        !(((GstVulkanBufferMemory *) m)->usage & VK_BUFFER_USAGE_STORAGE_BUFFER_BIT))
      return false;
  }
  return gst_buffer_n_memory (buf) > 0;
}

/* Turns a system-memory buffer into what the element receives. */
typedef std::function<GstBuffer *(GstBuffer *, const GstVideoInfo &)> Convert;

/* Pushes every case (meta attached) through @h, then EOS, and compares. */
static void
run_cases (GstHarness *h, std::vector<Case> &cases, const char *in_feature,
    const char *out_feature, Convert convert = nullptr)
{
  gst_harness_set_sink_caps_str (h, out_feature ?
      "video/x-raw(memory:VulkanBuffer)" : "video/x-raw");
  gst_harness_play (h);
  for (size_t i = 0; i < cases.size (); i++) {
    Case &c = cases[i];
    if (i == 0 || !gst_video_info_is_equal (&c.vinfo, &cases[i - 1].vinfo)) {
      GstCaps *caps = gst_video_info_to_caps (&c.vinfo);
      if (in_feature)
        gst_caps_set_features (caps, 0, gst_caps_features_new (in_feature, NULL));
      gst_harness_set_src_caps (h, caps);
    }
    GstBuffer *buf = picture_to_buffer (c.in, &c.vinfo);
    if (c.info.n_ctbs)
      gst_buffer_add_vvc_alf_meta (buf, &c.info);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 25;
    if (convert)
      buf = convert (buf, c.vinfo);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (size_t i = 0; i < cases.size (); i++) {
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "missing output %zu", i);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 25);
    if (out_feature) {
      fail_unless (is_storage_buffer (out));
    }
    check_output (out, &cases[i].vinfo, cases[i].want, describe (cases[i].params.pic).c_str ());
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_try_pull (h) == NULL);
}

/* Random pictures and parameters in every format, system memory both ways,
 * one harness (so caps change between pictures). */
GST_START_TEST (random_system_memory)
{
  gpc_test::Rng rng = gpc_test::rng ("random");
  RandomLimits lim;
  lim.max_width = 200;
  lim.max_height = 144;
  /* Which (class, transposition) pairs the filtered luma blocks had. */
  unsigned seen[25][4] = { { 0 } };
  for (int round = 0; round < 4; round++) {
    std::vector<Case> cases (12);
    for (Case &c : cases) {
      make_case (rng, c, lim);
      const gpc::VvcAlfPicParams &p = c.params.pic;
      gpc::VvcAlfPlane luma = c.in.in (0);
      for (int by = 0; by < p.height; by += 4)
        for (int bx = 0; bx < p.width; bx += 4)
          if (c.params.ctbs[gpc::vvc_alf_ctb_index (p, bx, by)].flags & gpc::kVvcAlfCtbY) {
            gpc::VvcAlfClass k = gpc::vvc_alf_classify_block (p, c.params.ctbs.data (), luma, bx, by);
            seen[k.filt_idx][k.transpose_idx]++;
          }
    }
    GstHarness *h = gst_harness_new ("vkvvcalf");
    GstElement *e = gst_harness_find_element (h, "vkvvcalf");
    g_object_set (e, "frames-in-flight", (guint) rng.range (0, 4), NULL);
    gst_object_unref (e);
    run_cases (h, cases, NULL, NULL);
    gst_harness_teardown (h);
    gpc_vk_test_check_validation ();
  }
  unsigned pairs = 0, classes = 0, transposes = 0;
  for (int t = 0; t < 4; t++) {
    unsigned n = 0;
    for (int k = 0; k < 25; k++)
      n += seen[k][t];
    transposes += n > 0;
  }
  for (int k = 0; k < 25; k++) {
    unsigned n = 0;
    for (int t = 0; t < 4; t++) {
      n += seen[k][t];
      pairs += seen[k][t] > 0;
    }
    classes += n > 0;
  }
  printf ("random_system_memory: %u/25 classes, %u/4 transpositions, %u (class, transposition) "
      "pairs filtered\n", classes, transposes, pairs);
  fail_unless_equals_int (classes, 25);
  fail_unless_equals_int (transposes, 4);
}
GST_END_TEST;

/* Per format, several pictures of each CTB size (parameters differ), in one
 * harness per format (its kernel is built once). */
GST_START_TEST (every_format)
{
  gpc_test::Rng rng = gpc_test::rng ("formats");
  for (int cf = 0; cf < 4; cf++) {
    for (int depth = 8; depth <= 12; depth += 2) {
      if (!format_name (cf, depth))
        continue;
      std::vector<Case> cases (9);
      for (size_t i = 0; i < cases.size (); i++) {
        Case &c = cases[i];
        const unsigned ctb = 32u << (i / 3);
        RandomLimits lim;
        lim.max_width = 192;
        lim.max_height = 144;
        for (;;) {
          gst_vvc_alf_info_clear (&c.info);
          random_info (rng, c.info, lim);
          if (c.info.ctb_size == ctb && (int) c.info.chroma_format == cf)
            break;
        }
        c.info.bit_depth = depth;
        std::string err;
        fail_unless (gpc::vvc_alf_params_from_info (c.info, c.params, err), "%s", err.c_str ());
        random_picture (rng, c, depth);
      }
      GstHarness *h = gst_harness_new ("vkvvcalf");
      run_cases (h, cases, NULL, NULL);
      gst_harness_teardown (h);
    }
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* The kernel alone (what the element dispatches), for what no GStreamer
 * 1.22 format carries: 8-bit samples at any depth layout, odd plane offsets
 * and strides; 4:0:0 at 10 and 12 bits and all formats and depths at
 * random. */
GST_START_TEST (kernel_all_layouts)
{
  gpc_test::Rng rng = gpc_test::rng ("kernel");
  GError *err = NULL;
  GstVulkanInstance *instance = gst_vulkan_instance_new ();
  fail_unless (gst_vulkan_instance_open (instance, &err));
  GstVulkanDevice *device = gst_vulkan_device_new_with_index (instance, 0);
  fail_unless (gst_vulkan_device_open (device, &err));
  GstVulkanQueue *queue = NULL;
  gst_vulkan_device_foreach_queue (device, [] (GstVulkanDevice *d, GstVulkanQueue *q, gpointer u) -> gboolean {
        if (d->physical_device->queue_family_props[q->family].queueFlags & VK_QUEUE_COMPUTE_BIT) {
          *(GstVulkanQueue **) u = (GstVulkanQueue *) gst_object_ref (q);
          return FALSE;
        }
        return TRUE;
      }, &queue);
  fail_unless (queue != NULL);
  gpc::VkExec *exec = gpc::VkExec::create (queue, &err);
  fail_unless (exec != NULL);
  /* Kernel variants, each on every picture: the default, and a set in
   * which every technique is both on and off (in both the one-dispatch
   * and the split form), so that every code path of the shader runs. Each
   * variant costs a pipeline (seconds under validation on lavapipe): the
   * full sweep runs in bench-vvcalf --variants all. */
  std::vector<gpc::VkAlfKernel *> kernels;
  for (const char *v : { "default", "baseline", "tables+hoist+split",
           "default+wordload+pretrans", "split+rows2+pack16+wordload", "hoist+consttap+coefbuf+wordload+pretrans" }) {
    gpc::AlfOptions o;
    std::string e;
    fail_unless (gpc::AlfOptions::parse (v, &o, e), "%s", e.c_str ());
    gpc::VkAlfKernel *k = gpc::VkAlfKernel::create (device, o, &err);
    fail_unless (k != NULL, "%s: %s", v, err ? err->message : "");
    kernels.push_back (k);
  }
  /* Every variant of the sweep has a valid name. */
  for (const std::string &v : gpc::VkAlfKernel::sweep_variants ()) {
    gpc::AlfOptions o;
    std::string e;
    fail_unless (gpc::AlfOptions::parse (v.c_str (), &o, e), "%s", e.c_str ());
  }
  {
    gpc::AlfOptions o;
    std::string e;
    fail_if (gpc::AlfOptions::parse ("default+nothing", &o, e));
    fail_if (gpc::AlfOptions::parse ("tables*hoist", &o, e));
    fail_unless (gpc::AlfOptions::parse ("default-split", &o, e) && !o.split && o.hoist);
  }
  gpc::VkBufferCache staging (device, true), devcache (device, false);

  RandomLimits lim;
  lim.max_width = 136;
  lim.max_height = 104;
  unsigned checked = 0;
  for (int i = 0; i < 28; i++) {
    Case c;
    /* The last pictures are larger, with no slice, tile or virtual
     * boundary and with word-aligned planes: most of their tiles lie inside
     * their window, the case of the word-load path (wordload). */
    const bool open_tiles = i >= 24;
    RandomLimits big;
    random_info (rng, c.info, open_tiles ? big : lim);
    if (open_tiles) {
      c.info.num_vb_x = c.info.num_vb_y = 0;
      for (guint t = 0; t < c.info.n_ctbs; t++)
        c.info.ctbs[t].flags &= (guint16) ~(GST_VVC_ALF_CTB_EDGE_LEFT * 0xf |
            GST_VVC_ALF_CTB_CORNER_TOP_LEFT | GST_VVC_ALF_CTB_CORNER_BOTTOM_RIGHT);
    }
    if (i < 6) {
      /* 4:0:0 at every depth first */
      gst_vvc_alf_info_clear (&c.info);
      do {
        gst_vvc_alf_info_clear (&c.info);
        random_info (rng, c.info, lim);
      } while (c.info.chroma_format != GST_VVC_ALF_CHROMA_400);
      c.info.bit_depth = 8 + 2 * (i % 3);
    }
    std::string e;
    fail_unless (gpc::vvc_alf_params_from_info (c.info, c.params, e), "%s", e.c_str ());
    const gpc::VvcAlfPicParams &p = c.params.pic;
    c.in.alloc (p);
    random_content (rng, c.in, p.bit_depth);
    c.want.alloc (p);
    apply (c.params, c.in, c.want);

    /* 8-bit containers only for 8-bit pictures. */
    const bool wide = p.bit_depth > 8 || rng.chance (30);
    const unsigned bps = wide ? 2 : 1;
    const int np = c.in.planes ();
    GstBuffer *inbuf[3], *outbuf[3];
    gpc::AlfPlane in[3], out[3];
    for (int k = 0; k < np; k++) {
      const unsigned in_off = (unsigned) rng.range (0, 7) * 4 +
          (open_tiles ? 0 : wide ? 2 * (unsigned) rng.range (0, 1) : (unsigned) rng.range (0, 3));
      const unsigned in_stride = open_tiles ? GST_ROUND_UP_4 (c.in.width[k] * bps) + 4 * (unsigned) rng.range (0, 2) :
          c.in.width[k] * bps + (unsigned) rng.range (0, 9) * (wide ? 2 : 1);
      const unsigned out_off = (unsigned) rng.range (0, 7) * 4;
      const unsigned out_stride = GST_ROUND_UP_4 (c.in.width[k] * bps) + 4 * (unsigned) rng.range (0, 2);
      const gsize in_size = GST_ROUND_UP_4 (in_off + (gsize) in_stride * c.in.height[k]);
      const gsize out_size = out_off + (gsize) out_stride * c.in.height[k];
      inbuf[k] = staging.acquire (in_size, &err);
      outbuf[k] = gst_buffer_new ();
      gst_buffer_append_memory (outbuf[k], gpc::vk_storage_alloc (device, out_size, true, &err));
      GstMemory *m = gst_buffer_peek_memory (inbuf[k], 0);
      GstMapInfo map;
      fail_unless (gst_memory_map (m, &map, GST_MAP_WRITE));
      memset (map.data, 0xa5, in_size);
      for (int y = 0; y < c.in.height[k]; y++)
        for (int x = 0; x < c.in.width[k]; x++) {
          guint8 *d = map.data + in_off + (gsize) y * in_stride + x * bps;
          if (wide)
            GST_WRITE_UINT16_LE (d, c.in.at (k, x, y));
          else
            *d = (guint8) c.in.at (k, x, y);
        }
      gst_memory_unmap (m, &map);
      in[k] = { gpc::vk_buffer_memory (inbuf[k]), in_off, in_stride };
      out[k] = { gpc::vk_buffer_memory (outbuf[k]), out_off, out_stride };
      in[k].mem->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_HOST_BIT;
      in[k].mem->barrier.parent.access_flags = VK_ACCESS_HOST_WRITE_BIT;
    }
    GstBuffer *params = NULL;
    for (gpc::VkAlfKernel *kernel : kernels) {
      const std::string vname = kernel->options ().name ();
      fail_unless (exec->begin (&err));
      if (!params) {
        params = gpc::VkAlfKernel::upload_params (exec, c.params, &staging, &devcache, &err);
        fail_unless (params != NULL);
      }
      for (int k = 0; k < np; k++) {
        exec->barrier (in[k].mem, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
        exec->barrier (out[k].mem, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
      }
      fail_unless (kernel->dispatch (exec, in, out, gpc::vk_buffer_memory (params), p, wide, &err));
      for (int k = 0; k < np; k++)
        exec->barrier (out[k].mem, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
      GstVulkanFence *fence = exec->submit (&err);
      fail_unless (fence && exec->wait (fence, 60 * GST_SECOND, &err));
      gst_vulkan_fence_unref (fence);

      for (int k = 0; k < np; k++) {
        GstMemory *m = gst_buffer_peek_memory (outbuf[k], 0);
        GstMapInfo map;
        fail_unless (gst_memory_map (m, &map, GST_MAP_READWRITE));
        for (int y = 0; y < c.in.height[k]; y++)
          for (int x = 0; x < c.in.width[k]; x++) {
            const guint8 *d = map.data + out[k].offset + (gsize) y * out[k].stride + x * bps;
            const int v = wide ? GST_READ_UINT16_LE (d) : *d;
            if (v != c.want.at (k, x, y))
              fail ("variant %s: %s (%s samples) plane %d (%d, %d): GPU %d, CPU %d", vname.c_str (),
                  describe (p).c_str (), wide ? "16-bit" : "8-bit", k, x, y, v, c.want.at (k, x, y));
          }
        /* Poisoned for the next variant, so that it must write every sample. */
        memset (map.data, 0x5a, map.size);
        gst_memory_unmap (m, &map);
        out[k].mem->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_HOST_BIT;
        out[k].mem->barrier.parent.access_flags = VK_ACCESS_HOST_WRITE_BIT;
      }
    }
    for (int k = 0; k < np; k++) {
      gst_buffer_unref (inbuf[k]);
      gst_buffer_unref (outbuf[k]);
    }
    gst_buffer_unref (params);
    checked++;
  }
  exec->wait_idle ();
  for (gpc::VkAlfKernel *k : kernels)
    delete k;
  delete exec;
  gst_object_unref (queue);
  gst_object_unref (device);
  gst_object_unref (instance);
  GST_INFO ("%u pictures bit-exact in %zu variants", checked, kernels.size ());
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

namespace {

/* A device of the test's own, handed to the element through GstContext, so
 * that buffers made here are the element's buffers. */
struct SharedDevice : GpcVkTestDevice {
  /* One host-visible Vulkan buffer per plane; with @storage the element
   * binds them directly, else it copies. @skew offsets each plane by 2
   * bytes inside its buffer (forces the copy path). */
  GstBuffer *upload (GstBuffer *sys, const GstVideoInfo &info, bool storage, bool skew) {
    GstBuffer *out = gpc_vk_test_to_vulkan_buffers (device, sys, &info, storage, skew);
    gst_buffer_copy_into (out, sys, (GstBufferCopyFlags) (GST_BUFFER_COPY_TIMESTAMPS |
            GST_BUFFER_COPY_META), 0, -1);
    gst_buffer_unref (sys);
    return out;
  }
};

} // namespace

/* Vulkan buffers in (bound directly, or copied), Vulkan buffers out. */
GST_START_TEST (vulkan_buffers)
{
  gpc_test::Rng rng = gpc_test::rng ("vkbuffer");
  SharedDevice dev;
  RandomLimits lim;
  lim.max_width = 160;
  lim.max_height = 96;
  for (int mode = 0; mode < 3; mode++) {
    const bool storage = mode != 0, skew = mode == 2;
    std::vector<Case> cases (6);
    for (Case &c : cases)
      make_case (rng, c, lim);
    /* Vulkan output is read back through a second vkvvcalf that filters
     * nothing (synthetic parameters, every component off) and outputs
     * system memory: Vulkan buffers between the two, never mapped. */
    GstElement *bin = gst_parse_bin_from_description ("vkvvcalf name=alf ! "
        "video/x-raw(memory:VulkanBuffer) ! vkvvcalf name=copy params-source=synthetic "
        "fixed-filter-set=-1 cb=false cr=false cc-cb=false cc-cr=false", TRUE, NULL);
    fail_unless (bin != NULL);
    dev.share_with (bin);
    GstElement *alf = gst_bin_get_by_name (GST_BIN (bin), "alf");
    GstPad *pad = gst_element_get_static_pad (alf, "src");
    guint storage_outputs = 0;
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, [] (GstPad *, GstPadProbeInfo *info,
            gpointer data) -> GstPadProbeReturn {
          if (is_storage_buffer (GST_PAD_PROBE_INFO_BUFFER (info)))
            (*(guint *) data)++;
          return GST_PAD_PROBE_OK;
        }, &storage_outputs, NULL);
    gst_object_unref (pad);
    gst_object_unref (alf);
    GstElement *e = mode == 1 ? gst_element_factory_make ("vkvvcalf", NULL) : bin;
    if (mode == 1) {
      gst_object_unref (gst_object_ref_sink (bin));
      dev.share_with (e);
    }
    GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
    run_cases (h, cases, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, NULL,
        [&] (GstBuffer *b, const GstVideoInfo &info) { return dev.upload (b, info, storage, skew); });
    if (mode != 1)
      fail_unless_equals_int (storage_outputs, cases.size ());
    gst_harness_teardown (h);
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

/* Vulkan images in (8-bit formats, one image per plane). */
GST_START_TEST (vulkan_images)
{
  gpc_test::Rng rng = gpc_test::rng ("vkimage");
  SharedDevice dev;
  for (int cf : {0, 1, 3}) {
    std::vector<Case> cases (2);
    const unsigned w = 8 * (unsigned) rng.range (2, 16), hh = 8 * (unsigned) rng.range (2, 12);
    for (Case &c : cases) {
      /* One size per pipeline (1.22's vulkanupload mishandles caps
       * changes): synthetic parameters of random filters. */
      gpc::VvcAlfSyntheticConfig cfg;
      cfg.width = w;
      cfg.height = hh;
      cfg.chroma_format = (GstVvcAlfChromaFormat) cf;
      cfg.bit_depth = 8;
      cfg.ctb_size = 32u << rng.range (0, 2);
      cfg.fixed_set = (unsigned) rng.range (0, 15);
      cfg.cc_cb = rng.chance (50);
      cfg.cc_cr = rng.chance (50);
      std::string err;
      gst_vvc_alf_info_clear (&c.info);
      fail_unless (gpc::vvc_alf_build_synthetic_info (cfg, c.info, err), "%s", err.c_str ());
      c.info.bit_depth = 8;
      fail_unless (gpc::vvc_alf_params_from_info (c.info, c.params, err), "%s", err.c_str ());
      c.in.alloc (c.params.pic);
      random_content (rng, c.in, 8);
      c.want.alloc (c.params.pic);
      apply (c.params, c.in, c.want);
      video_info_for (c.params.pic, &c.vinfo);
    }
    /* One image per plane, laid out as vulkanupload lays out 8-bit
     * formats, made by the test: 1.26's vulkanupload uploads none of
     * these formats on lavapipe. */
    GstElement *e = gst_element_factory_make ("vkvvcalf", NULL);
    dev.share_with (e);
    GstHarness *h = gst_harness_new_with_element (e, "sink", "src");
    run_cases (h, cases, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, NULL,
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

/* The synthetic parameters from the properties equal the builder's. */
GST_START_TEST (synthetic_properties)
{
  gpc_test::Rng rng = gpc_test::rng ("synthetic");
  for (int i = 0; i < 6; i++) {
    gpc::VvcAlfSyntheticConfig cfg;
    const int cf = (int) rng.range (0, 3);
    const int depth = 8 + 2 * (int) rng.range (0, 2);
    cfg.width = 8 * (unsigned) rng.range (1, 30);
    cfg.height = 8 * (unsigned) rng.range (1, 20);
    cfg.chroma_format = (GstVvcAlfChromaFormat) cf;
    cfg.bit_depth = depth;
    cfg.ctb_size = 32u << rng.range (0, 2);
    int fixed = (int) rng.range (-1, 15);
    cfg.fixed_set = fixed < 0 ? 0 : fixed;
    bool en[5];
    for (bool &b : en)
      b = rng.chance (70);
    cfg.y = en[0] && fixed >= 0;
    cfg.cb = en[1];
    cfg.cr = en[2];
    cfg.cc_cb = en[3];
    cfg.cc_cr = en[4];
    std::vector<Case> cases (2);
    for (Case &c : cases) {
      std::string err;
      fail_unless (gpc::vvc_alf_build_synthetic (cfg, c.params, err), "%s", err.c_str ());
      random_picture (rng, c, depth);
    }
    GstHarness *h = gst_harness_new ("vkvvcalf");
    GstElement *e = gst_harness_find_element (h, "vkvvcalf");
    g_object_set (e, "params-source", 3, "ctb-size", cfg.ctb_size, "fixed-filter-set", fixed,
        "luma", en[0], "cb", en[1], "cr", en[2], "cc-cb", en[3], "cc-cr", en[4],
        "gray16-depth", depth > 8 ? depth : 10, NULL);
    gst_object_unref (e);
    /* run_cases attaches no meta when the info is empty */
    run_cases (h, cases, NULL, NULL);
    gst_harness_teardown (h);
  }
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* params-location as a per-picture pattern (the files written by the JSON
 * writer from random infos). */
GST_START_TEST (params_location_pattern)
{
  gpc_test::Rng rng = gpc_test::rng ("pattern");
  gchar *dir = g_dir_make_tmp ("vkvvcalf-XXXXXX", NULL);
  fail_unless (dir != NULL);
  std::vector<Case> cases (4);
  std::vector<std::string> files;
  RandomLimits lim;
  lim.max_width = 96;
  lim.max_height = 64;
  make_case (rng, cases[0], lim);
  for (size_t i = 0; i < cases.size (); i++) {
    Case &c = cases[i];
    if (i > 0) {
      /* same geometry, new random parameters */
      for (;;) {
        gst_vvc_alf_info_clear (&c.info);
        RandomLimits l2;
        l2.max_width = cases[0].info.width;
        l2.max_height = cases[0].info.height;
        random_info (rng, c.info, l2);
        if (c.info.width == cases[0].info.width && c.info.height == cases[0].info.height &&
            c.info.chroma_format == cases[0].info.chroma_format)
          break;
      }
      c.info.bit_depth = cases[0].info.bit_depth;
      std::string err;
      fail_unless (gpc::vvc_alf_params_from_info (c.info, c.params, err), "%s", err.c_str ());
      c.in.alloc (c.params.pic);
      random_content (rng, c.in, c.params.pic.bit_depth);
      c.want.alloc (c.params.pic);
      video_info_for (c.params.pic, &c.vinfo);
    }
    /* JSON files always mean the line-buffer rule of the vectors. */
    c.info.line_buffer_boundary_in_last_row = TRUE;
    std::string err;
    fail_unless (gpc::vvc_alf_params_from_info (c.info, c.params, err), "%s", err.c_str ());
    apply (c.params, c.in, c.want);
    gchar *path = g_strdup_printf ("%s/p-%03d.json", dir, (int) (i + 7));
    std::string text = gpc::vvc_alf_info_to_json (c.info);
    fail_unless (g_file_set_contents (path, text.c_str (), -1, NULL));
    files.push_back (path);
    g_free (path);
  }
  GstHarness *h = gst_harness_new ("vkvvcalf");
  GstElement *e = gst_harness_find_element (h, "vkvvcalf");
  gchar *pattern = g_strdup_printf ("%s/p-%%03d.json", dir);
  g_object_set (e, "params-source", 2, "params-location", pattern, "params-first-index", 7, NULL);
  gst_object_unref (e);
  g_free (pattern);
  /* Strip the infos so that run_cases attaches no meta: the files rule. */
  for (Case &c : cases)
    gst_vvc_alf_info_clear (&c.info);
  run_cases (h, cases, NULL, NULL);
  gst_harness_teardown (h);
  for (const std::string &f : files)
    g_unlink (f.c_str ());
  g_rmdir (dir);
  g_free (dir);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Pictures after a flush are filtered as usual; nothing leaks across. */
GST_START_TEST (flush)
{
  gpc_test::Rng rng = gpc_test::rng ("flush");
  RandomLimits lim;
  lim.max_width = 64;
  lim.max_height = 64;
  std::vector<Case> cases (1);
  make_case (rng, cases[0], lim);
  GstHarness *h = gst_harness_new ("vkvvcalf");
  GstElement *e = gst_harness_find_element (h, "vkvvcalf");
  g_object_set (e, "frames-in-flight", 4u, NULL);
  gst_object_unref (e);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&cases[0].vinfo));
  for (int i = 0; i < 3; i++) {
    GstBuffer *b = picture_to_buffer (cases[0].in, &cases[0].vinfo);
    gst_buffer_add_vvc_alf_meta (b, &cases[0].info);
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  GstSegment seg;
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  GstBuffer *b;
  while ((b = gst_harness_try_pull (h)))
    gst_buffer_unref (b);
  for (int i = 0; i < 2; i++) {
    b = picture_to_buffer (cases[0].in, &cases[0].vinfo);
    gst_buffer_add_vvc_alf_meta (b, &cases[0].info);
    GST_BUFFER_PTS (b) = 100 + i;
    fail_unless_equals_int (gst_harness_push (h, b), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (int i = 0; i < 2; i++) {
    b = gst_harness_pull (h);
    fail_unless_equals_uint64 (GST_BUFFER_PTS (b), 100 + i);
    check_output (b, &cases[0].vinfo, cases[0].want, "after flush");
    gst_buffer_unref (b);
  }
  fail_unless (gst_harness_try_pull (h) == NULL);
  gst_harness_teardown (h);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Pushes one 64x64 I420 picture with @setup applied; the push must fail
 * with an error on the bus and no output. */
static void
expect_error (const char *launch, std::function<void (GstBuffer *)> setup,
    const char *caps = "video/x-raw,format=I420,width=64,height=64,framerate=25/1")
{
  GstHarness *h = gst_harness_new_parse (launch);
  gst_harness_set_sink_caps_str (h, "video/x-raw");
  gst_harness_set_src_caps_str (h, caps);
  GstVideoInfo info;
  GstCaps *c = gst_caps_from_string (caps);
  gst_video_info_from_caps (&info, c);
  gst_caps_unref (c);
  GstBuffer *b = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_memset (b, 0, 77, GST_VIDEO_INFO_SIZE (&info));
  if (setup)
    setup (b);
  GstFlowReturn ret = gst_harness_push (h, b);
  fail_if (ret == GST_FLOW_OK && gst_harness_push_event (h, gst_event_new_eos ()) &&
      gst_harness_try_pull (h) != NULL, "%s: no error", launch);
  gst_harness_teardown (h);
}

GST_START_TEST (bad_parameters)
{
  /* meta for a different picture size */
  expect_error ("vkvvcalf", [] (GstBuffer *b) {
        GstVvcAlfInfo info;
        gst_vvc_alf_info_init (&info, 64, 56, GST_VVC_ALF_CHROMA_420, 8, 32);
        gst_buffer_add_vvc_alf_meta (b, &info);
        gst_vvc_alf_info_clear (&info);
      });
  /* invalid meta: a CTB using an absent APS */
  expect_error ("vkvvcalf", [] (GstBuffer *b) {
        GstVvcAlfInfo info;
        gst_vvc_alf_info_init (&info, 64, 64, GST_VVC_ALF_CHROMA_420, 8, 32);
        info.ctbs[1].flags |= GST_VVC_ALF_CTB_Y;
        info.ctbs[1].luma_set = 16;
        info.ctbs[1].luma_aps = 3;
        gst_buffer_add_vvc_alf_meta (b, &info);
        gst_vvc_alf_info_clear (&info);
      });
  /* bit depth of the meta differs from the caps */
  expect_error ("vkvvcalf", [] (GstBuffer *b) {
        GstVvcAlfInfo info;
        gst_vvc_alf_info_init (&info, 64, 64, GST_VVC_ALF_CHROMA_420, 10, 32);
        gst_buffer_add_vvc_alf_meta (b, &info);
        gst_vvc_alf_info_clear (&info);
      });
  expect_error ("vkvvcalf params-source=meta", nullptr);
  expect_error ("vkvvcalf params-location=/nonexistent/p.json", nullptr);
  expect_error ("vkvvcalf params-location=/tmp/p-%s.json", nullptr);
  expect_error ("vkvvcalf params-location=/tmp/p-%d-%d.json", nullptr);
  expect_error ("vkvvcalf ctb-size=48", nullptr);
  /* a buffer smaller than the caps say */
  expect_error ("vkvvcalf", [] (GstBuffer *b) { gst_buffer_resize (b, 0, 100); });
  /* not a multiple of 8 */
  expect_error ("vkvvcalf", nullptr, "video/x-raw,format=I420,width=60,height=64,framerate=25/1");
  /* a JSON file that is not vvc-alf-params */
  /* Per process, as tests/stress.sh may run this test several times at once. */
  gchar *path = g_strdup_printf ("%s/vkvvcalf-bad-%d.json", g_get_tmp_dir (), (int) getpid ());
  fail_unless (g_file_set_contents (path, "{\"format\":\"something\"}", -1, NULL));
  gchar *launch = g_strdup_printf ("vkvvcalf params-location=%s", path);
  expect_error (launch, nullptr);
  g_unlink (path);
  g_free (path);
  g_free (launch);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Every conformance picture through params-location, pre -> post. */
GST_START_TEST (conformance_vectors)
{
  std::string dir = gpc_test::vector_path ("vvc-alf");
  if (dir.empty ()) {
    printf ("SKIP conformance_vectors: %s/vvc-alf is absent\n", gpc_test::vectors_dir ().c_str ());
    return;
  }
  if (!have_zstd ()) {
    printf ("SKIP conformance_vectors: no zstd command-line tool\n");
    return;
  }
  std::vector<std::string> names;
  if (DIR *d = opendir (dir.c_str ())) {
    while (dirent *e = readdir (d)) {
      std::string f = e->d_name;
      if (f.size () > 5 && f.compare (f.size () - 5, 5, ".json") == 0)
        names.push_back (f.substr (0, f.size () - 5));
    }
    closedir (d);
  }
  std::sort (names.begin (), names.end ());
  unsigned passed = 0;
  for (const std::string &name : names) {
    const std::string base = dir + "/" + name;
    std::vector<Case> cases (1);
    Case &c = cases[0];
    std::string err;
    fail_unless (gpc::vvc_alf_params_from_json_file ((base + ".json").c_str (), c.params, err),
        "%s: %s", name.c_str (), err.c_str ());
    std::vector<uint8_t> raw;
    fail_unless (read_zstd (base + ".pre.yuv.zst", raw) && load_raw (raw, c.params.pic, c.in),
        "%s: pre picture", name.c_str ());
    fail_unless (read_zstd (base + ".post.yuv.zst", raw) && load_raw (raw, c.params.pic, c.want),
        "%s: post picture", name.c_str ());
    video_info_for (c.params.pic, &c.vinfo);
    GstHarness *h = gst_harness_new ("vkvvcalf");
    GstElement *e = gst_harness_find_element (h, "vkvvcalf");
    g_object_set (e, "params-location", (base + ".json").c_str (), NULL);
    gst_object_unref (e);
    run_cases (h, cases, NULL, NULL);
    gst_harness_teardown (h);
    printf ("PASS %-32s %s\n", name.c_str (), describe (c.params.pic).c_str ());
    fflush (stdout);
    passed++;
  }
  printf ("%u conformance pictures bit-exact through vkvvcalf\n", passed);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Queries, seeks and state changes from the application thread while the
 * element streams: what tools/sanitize.sh thread watches for races. */
GST_START_TEST (concurrent_use)
{
  gpc_test_hammer ("videotestsrc ! video/x-raw,format=I420,width=64,height=64,framerate=30/1 ! "
      "vkvvcalf params-source=synthetic ! fakesink", 64);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Start failing before and after the exec exists releases what start
 * made, and the element starts afterwards. */
GST_START_TEST (start_failure)
{
  gpc_vk_test_start_failures ("videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=64 ! vkvvcalf name=e ! fakesink");
}
GST_END_TEST;

/* frames-in-flight follows upstream's liveness, in the latency too. */
GST_START_TEST (live_latency)
{
  gpc_vk_test_live_latency ("videotestsrc is-live=%s ! "
      "video/x-raw,format=I420,width=64,height=64,framerate=30/1 ! vkvvcalf name=e ! fakesink");
}
GST_END_TEST;

/* GstVideoMeta and a pool for upstream; downstream's pool and strides for
 * system-memory output. */
GST_START_TEST (allocation)
{
  gpc_vk_test_allocation ("vkvvcalf", "video/x-raw,format=I420,width=72,height=40,framerate=25/1",
      "video/x-raw,format=I420,width=72,height=40,framerate=25/1");
}
GST_END_TEST;

/* Late pictures are dropped, as GstBaseTransform does. */
GST_START_TEST (qos)
{
  gpc_vk_test_qos ("vkvvcalf", "video/x-raw,format=I420,width=64,height=32,framerate=25/1", true);
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "vkvvcalf", {
        GPC_CHECK_TEST (random_system_memory),
        GPC_CHECK_TEST (every_format),
        GPC_CHECK_TEST (kernel_all_layouts),
        GPC_CHECK_TEST (vulkan_buffers),
        GPC_CHECK_TEST (vulkan_images),
        GPC_CHECK_TEST (synthetic_properties),
        GPC_CHECK_TEST (params_location_pattern),
        GPC_CHECK_TEST (flush),
        GPC_CHECK_TEST (bad_parameters),
        GPC_CHECK_TEST (conformance_vectors),
        GPC_CHECK_TEST (concurrent_use),
        GPC_CHECK_TEST (start_failure),
        GPC_CHECK_TEST (allocation),
        GPC_CHECK_TEST (qos),
        GPC_CHECK_TEST (live_latency) }, 900);
}
