/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkrgbaconvert against the CPU reference (gst/rgbaconvert), bit for bit:
 * random pictures (seeded, printed) of every input format at odd sizes,
 * random colorimetry, from system memory, from Vulkan buffers (bound in
 * place when they are storage buffers, copied otherwise), from Vulkan
 * images (8-bit formats), and from vkvvcalf's output; out as Vulkan images
 * (read through vulkandownload) and as system memory. The validation layer
 * is on: any error fails.
 */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include <string.h>

#include <algorithm>

#include <string>
#include <vector>

#include "compute/gpcvk.h"
#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "gpc-hammer.h"
#include "rgba-convert-video.h"

namespace {

const GstVideoFormat kFormats[] = { GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420,
  GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I420_12LE, GST_VIDEO_FORMAT_Y42B,
  GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_I422_12LE, GST_VIDEO_FORMAT_Y444,
  GST_VIDEO_FORMAT_Y444_10LE, GST_VIDEO_FORMAT_Y444_12LE, GST_VIDEO_FORMAT_A422_10LE,
  GST_VIDEO_FORMAT_A444_10LE, GST_VIDEO_FORMAT_AYUV64 };

/* A picture and what the reference makes of it. */
struct Case {
  GstVideoInfo info;
  GstBuffer *in = nullptr; /* system memory */
  std::vector<uint8_t> want; /* RGBA, width * 4 a row */
  std::string name;
};

/* Random colorimetry: matrix and range (or GStreamer's defaults). */
void
random_colorimetry (gpc_test::Rng &rng, GstVideoInfo *info)
{
  if (GST_VIDEO_INFO_IS_GRAY (info) || rng.chance (20))
    return; /* defaults */
  static const GstVideoColorMatrix m[] = { GST_VIDEO_COLOR_MATRIX_BT601,
    GST_VIDEO_COLOR_MATRIX_BT709, GST_VIDEO_COLOR_MATRIX_BT2020 };
  static const GstVideoTransferFunction t[] = { GST_VIDEO_TRANSFER_BT601,
    GST_VIDEO_TRANSFER_BT709, GST_VIDEO_TRANSFER_BT2020_10 };
  static const GstVideoColorPrimaries p[] = { GST_VIDEO_COLOR_PRIMARIES_SMPTE170M,
    GST_VIDEO_COLOR_PRIMARIES_BT709, GST_VIDEO_COLOR_PRIMARIES_BT2020 };
  const int k = (int) rng.range (0, 2);
  info->colorimetry.matrix = m[k];
  info->colorimetry.transfer = t[k];
  info->colorimetry.primaries = p[k];
  info->colorimetry.range = rng.chance (50) ? GST_VIDEO_COLOR_RANGE_0_255 :
      GST_VIDEO_COLOR_RANGE_16_235;
}

/* A random picture of `format`; samples within the depth, a tenth of them
 * at 0 or the maximum (clamping). */
Case
make_case (gpc_test::Rng &rng, GstVideoFormat format, unsigned w, unsigned h)
{
  Case c;
  gst_video_info_set_format (&c.info, format, w, h);
  random_colorimetry (rng, &c.info);
  /* What the element will see: the info parsed back from the caps. */
  GstCaps *caps = gst_video_info_to_caps (&c.info);
  fail_unless (gst_video_info_from_caps (&c.info, caps));
  gst_caps_unref (caps);
  gpc::RgbaFormat f;
  fail_unless (gpc::rgba_format_of (format, &f));
  c.in = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&c.info), NULL);
  GstVideoFrame frame;
  fail_unless (gst_video_frame_map (&frame, &c.info, c.in, GST_MAP_WRITE));
  const uint32_t max = (1u << f.depth) - 1;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    uint8_t *data = (uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    const gsize stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    guint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (c.info.finfo, p, (gint *) comp);
    const gsize row = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp[0]);
    const guint rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp[0]);
    for (guint y = 0; y < rows; y++)
      for (gsize x = 0; x < row; x += f.bytes) {
        uint32_t v = rng.chance (10) ? (rng.chance (50) ? max : 0) : rng.bits (f.depth);
        data[y * stride + x] = (uint8_t) v;
        if (f.bytes == 2)
          data[y * stride + x + 1] = (uint8_t) (v >> 8);
      }
  }
  gpc::RgbaSource src = gpc::rgba_source_of (&frame);
  c.want.resize ((size_t) w * h * 4);
  gpc::rgba_convert_ref (src, gpc::rgba_coeffs_of (&c.info), c.want.data (), (size_t) w * 4);
  gst_video_frame_unmap (&frame);
  gchar *col = gst_video_colorimetry_to_string (&c.info.colorimetry);
  c.name = std::string (gst_video_format_to_string (format)) + " " + std::to_string (w) + "x" +
      std::to_string (h) + " " + (col ? col : "default");
  g_free (col);
  return c;
}

void
check_output (GstBuffer *out, const Case &c, const char *path, bool bgra)
{
  const guint w = GST_VIDEO_INFO_WIDTH (&c.info), h = GST_VIDEO_INFO_HEIGHT (&c.info);
  GstVideoInfo oi;
  gst_video_info_set_format (&oi, bgra ? GST_VIDEO_FORMAT_BGRA : GST_VIDEO_FORMAT_RGBA, w, h);
  std::vector<uint8_t> swapped;
  const std::vector<uint8_t> *ref = &c.want;
  if (bgra) {
    swapped = c.want;
    for (size_t i = 0; i < swapped.size (); i += 4)
      std::swap (swapped[i], swapped[i + 2]);
    ref = &swapped;
  }
  GstVideoFrame f;
  fail_unless (gst_video_frame_map (&f, &oi, out, GST_MAP_READ), "%s", c.name.c_str ());
  for (guint y = 0; y < h; y++) {
    const uint8_t *row = (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&f, 0) +
        y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, 0);
    const uint8_t *want = ref->data () + (size_t) y * w * 4;
    if (memcmp (row, want, (size_t) w * 4) == 0)
      continue;
    for (guint x = 0; x < w * 4; x++)
      if (row[x] != want[x])
        fail ("%s via %s%s: pixel (%u, %u) byte %u is %u, the reference says %u",
            c.name.c_str (), path, bgra ? " (BGRA)" : "", x / 4, y, x % 4, row[x], want[x]);
  }
  gst_video_frame_unmap (&f);
}

/* The process's test device, handed to elements as an application would. */
typedef GpcVkTestDevice Device;

typedef GstBuffer *(*Convert) (Device *, const Case &);

/* Pushes every case's picture (caps change between them) through the
 * harness `h`, then EOS, and checks every output against the reference. */
void
run_harness (GstHarness *h, const std::vector<Case> &cases, size_t first, size_t n,
    const char *in_feature, bool vulkan_out, const char *path, Device *dev, Convert convert,
    bool bgra = false)
{
  gst_harness_set_sink_caps_str (h, vulkan_out ? "video/x-raw" : bgra ?
      "video/x-raw, format = (string) BGRA" : "video/x-raw, format = (string) RGBA");
  gst_harness_play (h);
  for (size_t i = first; i < first + n; i++) {
    const Case &c = cases[i];
    if (i == first || !gst_video_info_is_equal (&c.info, &cases[i - 1].info)) {
      GstCaps *caps = gst_video_info_to_caps (&c.info);
      if (in_feature)
        gst_caps_set_features (caps, 0, gst_caps_features_new (in_feature, NULL));
      gst_harness_set_src_caps (h, caps);
    }
    GstBuffer *buf = convert ? convert (dev, c) : gst_buffer_ref (c.in);
    buf = gst_buffer_make_writable (buf);
    GST_BUFFER_PTS (buf) = i * GST_SECOND / 25;
    GST_BUFFER_DURATION (buf) = GST_SECOND / 25;
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  for (size_t i = first; i < first + n; i++) {
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL, "missing output %zu (%s)", i, cases[i].name.c_str ());
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / 25);
    check_output (out, cases[i], path, bgra);
    gst_buffer_unref (out);
  }
  fail_unless (gst_harness_try_pull (h) == NULL);
}

/* A harness of `launch` (vkrgbaconvert first), on `dev` if given. */
GstHarness *
make_harness (const char *launch, Device *dev)
{
  GstElement *bin = gst_parse_bin_from_description (launch, TRUE, NULL);
  fail_unless (bin != NULL);
  gst_object_ref_sink (bin);
  if (dev)
    dev->share_with (bin);
  /* The harness takes a reference of its own. */
  GstHarness *h = gst_harness_new_with_element (bin, "sink", "src");
  gst_object_unref (bin);
  return h;
}

/* Runs `cases` through vkrgbaconvert: with `vulkan_out`, Vulkan images read
 * through vulkandownload, one harness per size (1.22's vulkandownload
 * mishandles caps changes: its buffers keep the first size); else the
 * element's own system-memory output, one harness for all (caps change
 * between pictures). `prefix` goes before vkrgbaconvert. */
void
run_cases (const std::vector<Case> &cases, const char *in_feature, bool vulkan_out,
    const char *path, Device *dev = nullptr, Convert convert = nullptr, const char *prefix = "",
    bool bgra = false)
{
  std::string launch = std::string (prefix) + "vkrgbaconvert" + (vulkan_out ?
      std::string (" ! video/x-raw(memory:VulkanImage), format = ") + (bgra ? "BGRA" : "RGBA") +
      " ! vulkandownload" : "");
  size_t i = 0;
  while (i < cases.size ()) {
    size_t n = 1;
    if (!vulkan_out)
      n = cases.size ();
    else
      while (i + n < cases.size () &&
          GST_VIDEO_INFO_WIDTH (&cases[i + n].info) == GST_VIDEO_INFO_WIDTH (&cases[i].info) &&
          GST_VIDEO_INFO_HEIGHT (&cases[i + n].info) == GST_VIDEO_INFO_HEIGHT (&cases[i].info))
        n++;
    GstHarness *h = make_harness (launch.c_str (), dev);
    run_harness (h, cases, i, n, in_feature, vulkan_out, path, dev, convert, bgra);
    gst_harness_teardown (h);
    i += n;
  }
}

/* Odd sizes (1 included), at most w_max x h_max. */
void
random_size (gpc_test::Rng &rng, unsigned *w, unsigned *h, unsigned w_max = 67,
    unsigned h_max = 41)
{
  *w = rng.chance (10) ? 1 : (unsigned) rng.range (1, w_max);
  *h = rng.chance (10) ? 1 : (unsigned) rng.range (1, h_max);
}

void
clear_cases (std::vector<Case> &cases)
{
  for (Case &c : cases)
    gst_clear_buffer (&c.in);
  cases.clear ();
}

} // namespace

/* System memory in, every format, both outputs, RGBA and BGRA (what
 * vulkansink's X11 swapchains take). */
GST_START_TEST (system_memory_in)
{
  gpc_test::Rng rng = gpc_test::rng ("system");
  for (int mode = 3; mode >= 0; mode--) {
    const bool vulkan_out = mode & 1, bgra = mode & 2;
    std::vector<Case> cases;
    for (GstVideoFormat f : kFormats)
      for (int i = 0; i < 2; i++) {
        unsigned w, h;
        random_size (rng, &w, &h);
        cases.push_back (make_case (rng, f, w, h));
      }
    run_cases (cases, NULL, vulkan_out, vulkan_out ? "system memory to VulkanImage" :
        "system memory to system memory", NULL, NULL, "", bgra);
    clear_cases (cases);
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

static GstBuffer *
storage_buffers (Device *d, const Case &c)
{
  return gpc_vk_test_to_vulkan_buffers (d->device, c.in, &c.info, true, false);
}

static GstBuffer *
transfer_buffers (Device *d, const Case &c)
{
  return gpc_vk_test_to_vulkan_buffers (d->device, c.in, &c.info, false, false);
}

static GstBuffer *
skewed_buffers (Device *d, const Case &c)
{
  return gpc_vk_test_to_vulkan_buffers (d->device, c.in, &c.info, true, true);
}

static GstBuffer *
images (Device *d, const Case &c)
{
  return gpc_vk_test_to_vulkan_images (d->exec, c.in, &c.info);
}

/* Vulkan buffers in: storage buffers bound in place, other buffers and
 * unaligned planes copied on the GPU. */
GST_START_TEST (vulkan_buffer_in)
{
  gpc_test::Rng rng = gpc_test::rng ("vkbuffer");
  Device dev;
  const Convert modes[] = { storage_buffers, transfer_buffers, skewed_buffers };
  const char *names[] = { "storage VulkanBuffer (in place)", "transfer VulkanBuffer (copied)",
    "unaligned VulkanBuffer (copied)" };
  for (int m = 0; m < 3; m++) {
    const bool vulkan_out = m != 2;
    std::vector<Case> cases;
    for (GstVideoFormat f : kFormats) {
      unsigned w, h;
      random_size (rng, &w, &h);
      cases.push_back (make_case (rng, f, w, h));
    }
    run_cases (cases, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, vulkan_out, names[m], &dev,
        modes[m]);
    clear_cases (cases);
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

/* Vulkan images in (8-bit formats, one R8 image per plane). */
GST_START_TEST (vulkan_image_in)
{
  gpc_test::Rng rng = gpc_test::rng ("vkimage");
  Device dev;
  for (int vulkan_out = 1; vulkan_out >= 0; vulkan_out--) {
    std::vector<Case> cases;
    for (GstVideoFormat f : { GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420,
            GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_Y444 })
      for (int i = 0; i < 2; i++) {
        unsigned w, h;
        random_size (rng, &w, &h);
        cases.push_back (make_case (rng, f, w, h));
      }
    run_cases (cases, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, vulkan_out,
        "VulkanImage in", &dev, images);
    clear_cases (cases);
    gpc_vk_test_check_validation ();
  }
}
GST_END_TEST;

/* vkvvcalf's output (its storage buffers, bound in place): vkvvcalf with
 * every filter off copies its input. */
GST_START_TEST (from_vkvvcalf)
{
  gpc_test::Rng rng = gpc_test::rng ("vvcalf");
  std::vector<Case> cases;
  for (GstVideoFormat f : kFormats) {
    if (f == GST_VIDEO_FORMAT_A422_10LE || f == GST_VIDEO_FORMAT_A444_10LE ||
        f == GST_VIDEO_FORMAT_AYUV64)
      continue;
    cases.push_back (make_case (rng, f, 8 * (unsigned) rng.range (1, 9),
            8 * (unsigned) rng.range (1, 6)));
  }
  /* Storage buffers leave vkvvcalf (the in-place path), checked below. */
  run_cases (cases, NULL, true, "vkvvcalf to VulkanImage", NULL, NULL,
      "vkvvcalf params-source=synthetic fixed-filter-set=-1 cb=false cr=false cc-cb=false "
      "cc-cr=false ! video/x-raw(memory:VulkanBuffer) ! ");
  clear_cases (cases);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Output images are recycled: with no picture in flight and each output
 * dropped at once, 24 pictures take at most 2 images (the one being written
 * and the one the GPU may still hold until the next submission collects
 * it). Each is an R8G8B8A8_UNORM image with storage usage. */
GST_START_TEST (images_recycled)
{
  gpc_test::Rng rng = gpc_test::rng ("recycle");
  unsigned w, hh;
  random_size (rng, &w, &hh);
  Case c = make_case (rng, GST_VIDEO_FORMAT_I420_10LE, w, hh);
  GstHarness *h = gst_harness_new_parse ("vkrgbaconvert frames-in-flight=0");
  gst_harness_set_sink_caps_str (h, "video/x-raw(memory:VulkanImage)");
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&c.info));
  std::vector<GstMemory *> seen;
  for (int i = 0; i < 24; i++) {
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (c.in)), GST_FLOW_OK);
    GstBuffer *out = gst_harness_try_pull (h);
    fail_unless (out != NULL);
    GstMemory *m = gst_buffer_peek_memory (out, 0);
    fail_unless (gst_is_vulkan_image_memory (m));
    GstVulkanImageMemory *img = (GstVulkanImageMemory *) m;
    fail_unless_equals_int (img->create_info.format, VK_FORMAT_R8G8B8A8_UNORM);
    fail_unless (img->create_info.usage & VK_IMAGE_USAGE_STORAGE_BIT);
    fail_unless_equals_int (img->create_info.extent.width, w);
    fail_unless_equals_int (img->create_info.extent.height, hh);
    if (std::find (seen.begin (), seen.end (), m) == seen.end ())
      seen.push_back (m);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
  gst_buffer_unref (c.in);
  printf ("24 pictures in %zu output images\n", seen.size ());
  fail_unless (seen.size () <= 2, "%zu images for 24 pictures", seen.size ());
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* A plane that does not fit its Vulkan buffer stops the stream with an
 * error naming the cause; nothing crashes or leaks. */
GST_START_TEST (bad_input_errors)
{
  Device dev;
  GstVideoInfo info;
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420_10LE, 64, 32);
  GstHarness *h = make_harness ("vkrgbaconvert", &dev);
  gst_harness_set_sink_caps_str (h, "video/x-raw(memory:VulkanImage)");
  gst_harness_play (h);
  GstCaps *caps = gst_video_info_to_caps (&info);
  gst_caps_set_features (caps, 0, gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER,
          NULL));
  gst_harness_set_src_caps (h, caps);
  GstBuffer *buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, gpc::vk_storage_alloc (dev.device, 1024, false, NULL));
  fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_ERROR);
  gst_harness_teardown (h);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Queries, seeks and state changes from the application thread while the
 * element streams: what tools/sanitize.sh thread watches for races. */
GST_START_TEST (concurrent_use)
{
  gpc_test_hammer ("videotestsrc ! video/x-raw,format=I420,width=64,height=64,framerate=30/1 ! "
      "vkrgbaconvert ! fakesink", 64);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* Start failing before and after the exec exists releases what start
 * made, and the element starts afterwards. */
GST_START_TEST (start_failure)
{
  gpc_vk_test_start_failures ("videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=64 ! vkrgbaconvert name=e ! video/x-raw,format=RGBA ! fakesink");
}
GST_END_TEST;

/* frames-in-flight follows upstream's liveness, in the latency too. */
GST_START_TEST (live_latency)
{
  gpc_vk_test_live_latency ("videotestsrc is-live=%s ! "
      "video/x-raw,format=I420,width=64,height=64,framerate=30/1 ! vkrgbaconvert name=e ! video/x-raw,format=RGBA ! fakesink");
}
GST_END_TEST;

/* GstVideoMeta and a pool for upstream; downstream's pool and strides for
 * system-memory output. */
GST_START_TEST (allocation)
{
  gpc_vk_test_allocation ("vkrgbaconvert", "video/x-raw,format=I420,width=70,height=36,framerate=25/1",
      "video/x-raw,format=RGBA,width=70,height=36,framerate=25/1");
}
GST_END_TEST;

/* Late pictures are dropped, as GstBaseTransform does. */
GST_START_TEST (qos)
{
  gpc_vk_test_qos ("vkrgbaconvert", "video/x-raw,format=I420,width=64,height=32,framerate=25/1", true);
}
GST_END_TEST;

/* What reaches a pad, in order: "RGBA" / "BGRA" for caps, "b" for a buffer. */
static GstPadProbeReturn
record_flow (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  std::string *seen = (std::string *) data;
  if (GST_PAD_PROBE_INFO_TYPE (info) & GST_PAD_PROBE_TYPE_BUFFER) {
    *seen += "b";
  } else if (GST_EVENT_TYPE (GST_PAD_PROBE_INFO_EVENT (info)) == GST_EVENT_CAPS) {
    GstCaps *caps;
    gst_event_parse_caps (GST_PAD_PROBE_INFO_EVENT (info), &caps);
    *seen += gst_structure_get_string (gst_caps_get_structure (caps, 0), "format");
  }
  return GST_PAD_PROBE_OK;
}

/* Downstream asks for BGRA instead of RGBA mid-stream (RECONFIGURE, as
 * after a caps change of a capsfilter downstream): the next picture
 * renegotiates; the pictures still in flight go out first, in RGBA, then
 * the caps say BGRA and the pictures are BGRA. */
GST_START_TEST (reconfigure)
{
  gpc_test::Rng rng = gpc_test::rng ("reconfigure");
  unsigned w, hh;
  random_size (rng, &w, &hh);
  Case c = make_case (rng, GST_VIDEO_FORMAT_I420, w, hh);
  GstHarness *h = gst_harness_new_parse ("vkrgbaconvert frames-in-flight=2");
  std::string seen;
  gst_pad_add_probe (h->sinkpad, (GstPadProbeType) (GST_PAD_PROBE_TYPE_BUFFER |
          GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM), record_flow, &seen, NULL);
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=RGBA");
  gst_harness_set_src_caps (h, gst_video_info_to_caps (&c.info));
  for (int i = 0; i < 2; i++)
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (c.in)), GST_FLOW_OK);
  gst_harness_set_sink_caps_str (h, "video/x-raw,format=BGRA");
  fail_unless (gst_harness_push_upstream_event (h, gst_event_new_reconfigure ()));
  for (int i = 0; i < 2; i++)
    fail_unless_equals_int (gst_harness_push (h, gst_buffer_ref (c.in)), GST_FLOW_OK);
  gst_harness_push_event (h, gst_event_new_eos ());
  for (int i = 0; i < 4; i++) {
    GstBuffer *out = gst_harness_pull (h);
    check_output (out, c, "reconfigure", i >= 2);
    gst_buffer_unref (out);
  }
  fail_unless_equals_string (seen.c_str (), "RGBAbbBGRAbb");
  gst_harness_teardown (h);
  gst_buffer_unref (c.in);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "vkrgbaconvert", {
        GPC_CHECK_TEST (system_memory_in),
        GPC_CHECK_TEST (vulkan_buffer_in),
        GPC_CHECK_TEST (vulkan_image_in),
        GPC_CHECK_TEST (from_vkvvcalf),
        GPC_CHECK_TEST (images_recycled),
        GPC_CHECK_TEST (bad_input_errors),
        GPC_CHECK_TEST (concurrent_use),
        GPC_CHECK_TEST (start_failure),
        GPC_CHECK_TEST (allocation),
        GPC_CHECK_TEST (qos),
        GPC_CHECK_TEST (reconfigure),
        GPC_CHECK_TEST (live_latency) });
}
