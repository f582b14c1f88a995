/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Benchmark of vkproresdec on ProRes clips (QuickTime files as Debian's
 * ffmpeg writes them; make them with make-clips.sh, the GPU machine has no
 * ffmpeg). For each clip:
 *  1. the decoding kernel alone, frames already in GPU memory (GPU time from
 *     timestamp queries): back to back, and one frame at a time; the first
 *     frame's planes are read back and compared with the CPU reference;
 *  2. appsrc ! vkproresdec ! memory:VulkanBuffer ! fakesink (frames stay on
 *     the GPU), wall clock;
 *  3. the same with system-memory output (internal download);
 *  4. where available, FFmpeg's software decoder on all cores:
 *     avdec_prores in the same pipeline, and the ffmpeg program.
 *
 * Step 1 runs once per decoding path of --paths (fused, split: see
 * docs/prores-gpu.md; default: split, the element's) with the kernel layout
 * of --wg / --spread (fused) and --vld-wg / --idct-wg (split); steps 2 and 3
 * run the element, which always decodes with the defaults.
 *
 *   bench-vkproresdec [--frames N] [--cpu-frames N] [--in-flight K] [--batch B]
 *       [--paths fused,split] [--wg W] [--spread 0|1] [--vld-wg W] [--idct-wg W]
 *       [--copy-threads N] clip.mov ...
 * Without clips: $GPC_PRORES_CLIPS (or ./prores-clips)/hq_1080p.mov and
 * hq_2160p.mov when present.
 */
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <chrono>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

#include "bench-util.h"
#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvktimer.h"
#include "gpc-parallel-copy.h"
#include "prores-decoder.h"
#include "prores-gpu-layout.h"
#include "prores-test-util.h"
#include "vkproreskernel.h"

using namespace gpc;
using gpc_bench::Clock;
using gpc_bench::median;
using gpc_bench::seconds_since;

namespace {

struct Clip {
  std::string path, name, fourcc, variant;
  std::vector<uint8_t> data;
  std::vector<prores_test::Span> frames;
  prores::FrameHeader header;
};

} // namespace

static bool
load_clip (const std::string &path, Clip *c)
{
  c->path = path;
  c->name = path.substr (path.find_last_of ('/') + 1);
  if (!prores_test::read_file (path, &c->data) || !prores_test::mov_prores_frames (c->data, &c->frames))
    return false;
  /* The sample description's FourCC, outside the frames. */
  static const char *codes[][2] = { {"apco", "proxy"}, {"apcs", "lt"}, {"apcn", "standard"},
    {"apch", "hq"}, {"ap4h", "4444"}, {"ap4x", "4444xq"} };
  const size_t mdat_lo = c->frames.front ().offset, mdat_hi = c->frames.back ().offset +
      c->frames.back ().size;
  for (auto &code : codes) {
    for (size_t i = 0; i + 4 <= c->data.size () && c->fourcc.empty (); i++) {
      if (i >= mdat_lo && i < mdat_hi) {
        i = mdat_hi - 1;
        continue;
      }
      if (!memcmp (&c->data[i], code[0], 4)) {
        c->fourcc = code[0];
        c->variant = code[1];
      }
    }
  }
  if (c->fourcc.empty ()) {
    c->fourcc = "apch";
    c->variant = "hq";
  }
  std::string err;
  return prores::parse_frame_header (&c->data[c->frames[0].offset], c->frames[0].size, &c->header,
      &err) == prores::Status::kOk;
}

/* ------------------------------------------------------------ kernel only */

namespace {

struct GpuFrame {
  GstMemory *input;  /* device-local copy of the upload */
  GstBuffer *host;   /* the upload in host-visible memory */
  prores::GpuFrameParams fp;
  size_t size;
};

} // namespace

static void
time_kernel (GstVulkanDevice *device, VkExec *exec, VkProResKernel *kernel, VkGpuTimer *timer,
    const Clip &c, uint32_t depth, int *mismatch, unsigned batch)
{
  GError *err = NULL;
  const unsigned distinct = std::min<size_t> (8, c.frames.size ());
  std::vector<GpuFrame> frames;
  VkBufferCache staging (device, true);
  size_t upload_bytes = 0;
  for (unsigned i = 0; i < distinct; i++) {
    const uint8_t *d = &c.data[c.frames[i].offset];
    prores::Frame parsed;
    std::string e;
    if (prores::parse_frame (d, c.frames[i].size, &parsed, &e) != prores::Status::kOk) {
      fprintf (stderr, "%s frame %u: %s\n", c.name.c_str (), i, e.c_str ());
      exit (1);
    }
    GpuFrame f;
    std::vector<prores::GpuSliceDesc> slices;
    prores::build_gpu_layout (parsed, depth, false, prores::IdctFlavor::kX86, &f.fp, &slices);
    f.size = c.frames[i].size;
    size_t n = VkProResKernel::upload_size (slices.size (), f.size);
    upload_bytes += n;
    GstBuffer *st = staging.acquire (n, &err);
    GstMapInfo map;
    gst_memory_map (gst_buffer_peek_memory (st, 0), &map, GST_MAP_WRITE);
    VkProResKernel::fill_upload (map.data, f.fp, slices, d, f.size);
    gst_memory_unmap (gst_buffer_peek_memory (st, 0), &map);
    f.input = vk_storage_alloc (device, n, false, &err);
    exec->begin (&err);
    GstVulkanBufferMemory *s = vk_buffer_memory (st), *dm = (GstVulkanBufferMemory *) f.input;
    exec->barrier (s, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    exec->barrier (dm, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferCopy region = { 0, 0, n };
    vkCmdCopyBuffer (exec->cmd (), s->buffer, dm->buffer, 1, &region);
    exec->barrier (dm, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    exec->keep (GST_MINI_OBJECT_CAST (st));
    GstVulkanFence *fence = exec->submit (&err);
    exec->wait (fence, 60 * GST_SECOND, &err);
    gst_vulkan_fence_unref (fence);
    f.host = st;
    frames.push_back (f);
  }

  /* Output planes (padded), one set per distinct frame. */
  const prores::GpuFrameParams &fp0 = frames[0].fp;
  const uint32_t n_planes = fp0.alpha_bits ? 4 : 3;
  std::vector<GstMemory *> outs;
  std::vector<ProResPlanes> planes;
  for (unsigned i = 0; i < distinct; i++) {
    ProResPlanes p = {};
    size_t total = 0;
    for (uint32_t k = 0; k < n_planes; k++)
      total += (size_t) frames[i].fp.plane_stride[k] * 2 * frames[i].fp.padded_height;
    GstMemory *m = vk_storage_alloc (device, total, false, &err);
    outs.push_back (m);
    size_t at = 0;
    for (uint32_t k = 0; k < n_planes; k++) {
      p.mem[k] = (GstVulkanBufferMemory *) m;
      p.offset[k] = (uint32_t) (at / 4);
      p.stride[k] = p.row_words[k] = frames[i].fp.plane_stride[k] / 2;
      at += (size_t) frames[i].fp.plane_stride[k] * 2 * frames[i].fp.padded_height;
    }
    p.rows = frames[i].fp.padded_height;
    planes.push_back (p);
  }
  GstMemory *status = vk_storage_alloc (device, 64 * 16, true, &err);
  GstVulkanBufferMemory *st = (GstVulkanBufferMemory *) status;

  const unsigned n = 64;
  /* n frames back to back, as the element records them: in batches, no
   * barrier between frames (each writes its own planes and status slot);
   * `input_of` picks where each frame's upload is read from. */
  auto dispatch_frames = [&] (GstVulkanBufferMemory *(*input_of) (const GpuFrame &)) {
    for (unsigned i = 0; i < n; i++) {
      const GpuFrame &f = frames[i % distinct];
      if (i % batch == 0)
        kernel->begin_batch ();
      kernel->dispatch (exec, input_of (f), f.fp, f.size, planes[i % distinct], st, i % 64, &err);
      if (i % batch == batch - 1 || i == n - 1)
        kernel->end_batch (exec, &err);
    }
  };
  std::vector<double> ns, stream, singles;
  for (int rep = 0; rep < 4; rep++) {
    exec->begin (&err);
    timer->reset (exec->cmd ());
    vkCmdFillBuffer (exec->cmd (), st->buffer, 0, VK_WHOLE_SIZE, 0);
    exec->global_barrier (VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    timer->stamp (exec->cmd (), 0);
    dispatch_frames ([] (const GpuFrame &f) { return (GstVulkanBufferMemory *) f.input; });
    timer->stamp (exec->cmd (), 1);
    for (unsigned i = 0; i < 8; i++) {
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
      timer->stamp (exec->cmd (), 2 + 2 * i);
      const GpuFrame &f = frames[i % distinct];
      kernel->dispatch (exec, (GstVulkanBufferMemory *) f.input, f.fp, f.size,
          planes[i % distinct], st, i % 64, &err);
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT);
      timer->stamp (exec->cmd (), 3 + 2 * i);
    }
    GstVulkanFence *fence = exec->submit (&err);
    if (!fence || !exec->wait (fence, 60 * GST_SECOND, &err)) {
      fprintf (stderr, "GPU failure: %s\n", err ? err->message : "?");
      exit (1);
    }
    gst_vulkan_fence_unref (fence);
    timer->read (ns);
    if (rep == 0)
      continue; /* warm-up */
    stream.push_back ((ns[1] - ns[0]) / 1000.0 / n);
    for (unsigned i = 0; i < 8; i++)
      singles.push_back ((ns[3 + 2 * i] - ns[2 + 2 * i]) / 1000.0);
  }
  double s_us = median (stream), one_us = median (singles);

  /* Back to back again, reading the uploads from host memory over the bus
   * (instead of the device-local copy the element makes first). */
  std::vector<double> host_stream;
  /* Its own timer: reading a query pool waits for every stamp of it. */
  VkGpuTimer *timer2 = VkGpuTimer::create (exec->queue (), 2, &err);
  for (int rep = 0; rep < 3 && timer2; rep++) {
    exec->begin (&err);
    timer2->reset (exec->cmd ());
    for (const GpuFrame &f : frames)
      exec->barrier (vk_buffer_memory (f.host), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_READ_BIT);
    timer2->stamp (exec->cmd (), 0);
    dispatch_frames ([] (const GpuFrame &f) { return vk_buffer_memory (f.host); });
    timer2->stamp (exec->cmd (), 1);
    GstVulkanFence *fence = exec->submit (&err);
    if (!fence || !exec->wait (fence, 60 * GST_SECOND, &err)) {
      fprintf (stderr, "GPU failure: %s\n", err ? err->message : "?");
      exit (1);
    }
    gst_vulkan_fence_unref (fence);
    if (timer2->read (ns) && rep > 0)
      host_stream.push_back ((ns[1] - ns[0]) / 1000.0 / n);
  }
  delete timer2;
  const double h_us = median (host_stream);
  GstMapInfo map;
  uint32_t failed = 0;
  if (gst_memory_map (status, &map, GST_MAP_READ)) {
    for (unsigned i = 0; i < 64; i++)
      failed += ((uint32_t *) map.data)[4 * i];
    gst_memory_unmap (status, &map);
  }
  printf ("  kernel (GPU timestamps, %u slices/frame, %.2f MB upload/frame, batches of %u): %.1f us/frame "
      "back to back = %.0f fps; one frame alone %.1f us%s\n", fp0.num_slices,
      upload_bytes / (double) distinct / 1e6, batch, s_us, 1e6 / s_us, one_us,
      failed ? "  (SLICE ERRORS!)" : "");
  printf ("  kernel reading the uploads from host memory: %.1f us/frame back to back = %.0f fps\n",
      h_us, 1e6 / h_us);

  /* Frame 0 against the CPU reference. */
  {
    GstMemory *host = vk_storage_alloc (device, gst_memory_get_sizes (outs[0], NULL, NULL), true,
        &err);
    exec->begin (&err);
    GstVulkanBufferMemory *src = (GstVulkanBufferMemory *) outs[0], *dst =
        (GstVulkanBufferMemory *) host;
    exec->barrier (src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferCopy region = { 0, 0, gst_memory_get_sizes (outs[0], NULL, NULL) };
    vkCmdCopyBuffer (exec->cmd (), src->buffer, dst->buffer, 1, &region);
    exec->barrier (dst, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    GstVulkanFence *fence = exec->submit (&err);
    exec->wait (fence, 60 * GST_SECOND, &err);
    gst_vulkan_fence_unref (fence);
    prores::DecodeOptions o;
    o.bit_depth = depth;
    prores::DecodedFrame ref;
    std::string e;
    prores::decode_frame (&c.data[c.frames[0].offset], c.frames[0].size, o, &ref, &e);
    gst_memory_map (host, &map, GST_MAP_READ);
    const uint16_t *s = (const uint16_t *) map.data;
    size_t diffs = 0;
    for (uint32_t k = 0; k < ref.num_planes; k++) {
      for (uint32_t y = 0; y < ref.plane_height[k]; y++)
        for (uint32_t x = 0; x < ref.plane_width[k]; x++)
          diffs += s[(size_t) y * fp0.plane_stride[k] + x] !=
              ref.plane[k][(size_t) y * ref.plane_width[k] + x];
      s += (size_t) fp0.plane_stride[k] * fp0.padded_height;
    }
    gst_memory_unmap (host, &map);
    gst_memory_unref (host);
    printf ("  frame 0 vs the CPU reference: %s\n", diffs ? "DIFFERENT" : "bit-exact");
    if (diffs) {
      printf ("    %zu samples differ\n", diffs);
      *mismatch = 1;
    }
  }
  exec->wait_idle ();
  for (GpuFrame &f : frames) {
    gst_memory_unref (f.input);
    gst_buffer_unref (f.host);
  }
  for (GstMemory *m : outs)
    gst_memory_unref (m);
  gst_memory_unref (status);
}

/* The element's host work per frame before submission: parse, records and
 * the upload written into mapped host-visible memory (threaded copy). */
static void
time_host (GstVulkanDevice *device, const Clip &c, uint32_t depth, unsigned copy_threads)
{
  GError *err = NULL;
  ParallelCopy copier (copy_threads);
  size_t max = 0;
  for (auto &f : c.frames)
    max = std::max (max, VkProResKernel::upload_size (
            (size_t) c.header.mb_width () * ((c.header.height + 15) / 16) * 2, f.size));
  GstMemory *staging = vk_storage_alloc (device, max, true, &err);
  GstMapInfo map;
  if (!staging || !gst_memory_map (staging, &map, GST_MAP_WRITE)) {
    fprintf (stderr, "  host timing: no staging memory\n");
    return;
  }
  const unsigned n = std::max<unsigned> (200, (unsigned) c.frames.size ());
  std::vector<prores::GpuSliceDesc> slices;
  auto t0 = Clock::now ();
  for (unsigned i = 0; i < n; i++) {
    const prores_test::Span &sp = c.frames[i % c.frames.size ()];
    prores::Frame parsed;
    prores::GpuFrameParams fp;
    prores::parse_frame (&c.data[sp.offset], sp.size, &parsed, NULL);
    prores::build_gpu_layout (parsed, depth, false, prores::IdctFlavor::kX86, &fp, &slices);
    VkProResKernel::fill_upload (map.data, fp, slices, &c.data[sp.offset], sp.size, &copier);
  }
  double us = std::chrono::duration<double> (Clock::now () - t0).count () * 1e6 / n;
  gst_memory_unmap (staging, &map);
  gst_memory_unref (staging);
  printf ("  host work per frame (parse, records, upload copy with %u helper threads): %.1f us\n",
      copy_threads, us);
}

/* --------------------------------------------------------------- pipelines */

namespace {

struct Handoffs {
  std::vector<Clock::time_point> t;
};

} // namespace

static void
on_handoff (GstElement *, GstBuffer *, GstPad *, gpointer user)
{
  ((Handoffs *) user)->t.push_back (Clock::now ());
}

/* Frames per second of appsrc ! <decoder> ! <caps> ! fakesink over n
 * frames cycling through the clip (steady state: the first tenth is left
 * out). 0 when the pipeline cannot be built. */
static double
time_pipeline (GstVulkanInstance *instance, GstVulkanDevice *device, const Clip &c,
    const char *decoder, const char *caps, unsigned n)
{
  gchar *launch = g_strdup_printf ("appsrc name=src format=time is-live=false block=true "
      "max-buffers=64 caps=\"video/x-prores,variant=(string)%s,width=(int)%u,height=(int)%u,"
      "framerate=(fraction)25/1\" ! %s name=dec ! %s ! fakesink name=sink sync=false "
      "signal-handoffs=true", c.variant.c_str (), c.header.width, c.header.height, decoder, caps);
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (launch, &err);
  g_free (launch);
  if (!pipe) {
    g_clear_error (&err);
    return 0;
  }
  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipe), "dec");
  if (instance) {
    GstContext *ctx = gst_context_new (GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR, TRUE);
    gst_context_set_vulkan_instance (ctx, instance);
    gst_element_set_context (dec, ctx);
    gst_context_unref (ctx);
    ctx = gst_context_new (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR, TRUE);
    gst_context_set_vulkan_device (ctx, device);
    gst_element_set_context (dec, ctx);
    gst_context_unref (ctx);
  }
  gst_object_unref (dec);
  Handoffs h;
  h.t.reserve (n);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "sink");
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &h);
  gst_object_unref (sink);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (unsigned i = 0; i < n; i++) {
    const prores_test::Span &s = c.frames[i % c.frames.size ()];
    /* The clip's bytes, not copied. */
    GstBuffer *b = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
        (gpointer) &c.data[s.offset], s.size, 0, s.size, NULL, NULL);
    GST_BUFFER_PTS (b) = gst_util_uint64_scale (i, GST_SECOND, 25);
    GST_BUFFER_DURATION (b) = GST_SECOND / 25;
    if (gst_app_src_push_buffer (GST_APP_SRC (src), b) != GST_FLOW_OK)
      break;
  }
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  double fps = 0;
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    fprintf (stderr, "  %s: pipeline failed\n", decoder);
  } else if (h.t.size () > 20) {
    size_t skip = h.t.size () / 10;
    double secs = std::chrono::duration<double> (h.t.back () - h.t[skip]).count ();
    fps = (h.t.size () - 1 - skip) / secs;
  }
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (pipe);
  return fps;
}

/* The ffmpeg program on all cores: frames per second, 0 if not installed. */
static double
time_ffmpeg (const Clip &c, unsigned n)
{
  if (system ("ffmpeg -version > /dev/null 2>&1") != 0)
    return 0;
  unsigned loops = (n + c.frames.size () - 1) / c.frames.size ();
  gchar *cmd = g_strdup_printf ("ffmpeg -nostdin -v error -threads 0 -stream_loop %u -c:v prores "
      "-i '%s' -map 0:v -f null - ", loops - 1, c.path.c_str ());
  auto t0 = Clock::now ();
  int rc = system (cmd);
  double secs = std::chrono::duration<double> (Clock::now () - t0).count ();
  g_free (cmd);
  return rc == 0 ? loops * c.frames.size () / secs : 0;
}

int
main (int argc, char **argv)
{
  const char *path_names = NULL;
  unsigned n_frames = 2000, cpu_frames = 240, in_flight = 32, batch = 16; /* the element's defaults */
  VkProResKernel::Options layout;
  std::vector<std::string> paths;
  /* Helper threads of the host timing's upload copy (the element's count). */
  unsigned copy_threads = ParallelCopy::default_workers ();
  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--frames") && i + 1 < argc)
      n_frames = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--cpu-frames") && i + 1 < argc)
      cpu_frames = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--in-flight") && i + 1 < argc)
      in_flight = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--batch") && i + 1 < argc)
      batch = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--paths") && i + 1 < argc)
      path_names = argv[++i];
    else if (!strcmp (argv[i], "--wg") && i + 1 < argc)
      layout.wg = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--spread") && i + 1 < argc)
      layout.spread = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--vld-wg") && i + 1 < argc)
      layout.vld_wg = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--idct-wg") && i + 1 < argc)
      layout.idct_wg = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--copy-threads") && i + 1 < argc)
      copy_threads = atoi (argv[++i]);
    else
      paths.push_back (argv[i]);
  }
  if (paths.empty ()) {
    const char *dir = g_getenv ("GPC_PRORES_CLIPS");
    std::string d = dir ? dir : "prores-clips";
    for (const char *f : { "hq_1080p.mov", "hq_2160p.mov" })
      if (g_file_test ((d + "/" + f).c_str (), G_FILE_TEST_EXISTS))
        paths.push_back (d + "/" + f);
  }
  if (paths.empty ()) {
    printf ("bench-vkproresdec: no clips (give .mov paths, or set GPC_PRORES_CLIPS to the folder "
        "of benchmarks/prores/make-clips.sh's output); skipped\n");
    return 0;
  }
  gst_init (&argc, &argv);

  GError *err = NULL;
  gpc_bench::Device dev;
  if (!gpc_bench::open_device (&dev))
    return 1;
  GstVulkanInstance *instance = dev.instance;
  GstVulkanDevice *device = dev.device;
  GstVulkanQueue *queue = dev.queue;
  VkExec *exec = VkExec::create (queue, &err);
  VkProResKernel *kernel = VkProResKernel::create (device, layout, &err);
  VkGpuTimer *timer = VkGpuTimer::create (queue, 2 + 16, &err);
  if (!exec || !kernel || !timer) {
    fprintf (stderr, "setup failed: %s\n", err ? err->message : "?");
    return 1;
  }
  /* The decoding paths to compare. */
  std::vector<std::string> path_list;
  if (path_names) {
    gchar **names = g_strsplit (path_names, ",", -1);
    for (gchar **n = names; *n; n++) {
      VkProResKernel::Path unused;
      if (!VkProResKernel::parse_path (*n, &unused)) {
        fprintf (stderr, "--paths: %s is neither fused nor split\n", *n);
        return 1;
      }
      path_list.push_back (*n);
    }
    g_strfreev (names);
  } else {
    path_list.push_back (kernel->path () == VkProResKernel::Path::Split ? "split" : "fused");
  }
  printf ("vkproresdec benchmark\nGPU: %s (Vulkan %u.%u, driver %u); CPU: %u threads\n",
      device->physical_device->properties.deviceName,
      VK_VERSION_MAJOR (device->physical_device->properties.apiVersion),
      VK_VERSION_MINOR (device->physical_device->properties.apiVersion),
      device->physical_device->properties.driverVersion, g_get_num_processors ());

  int status = 0;
  for (const std::string &p : paths) {
    Clip c;
    if (!load_clip (p, &c)) {
      fprintf (stderr, "%s: not a ProRes QuickTime file written by ffmpeg\n", p.c_str ());
      status = 1;
      continue;
    }
    const uint32_t depth = prores::bit_depth_for_fourcc (c.fourcc.c_str ());
    size_t bytes = 0;
    for (auto &s : c.frames)
      bytes += s.size;
    printf ("\n%s: %ux%u %s (%s) %s%s, %zu frames, %.2f MB/frame\n", c.name.c_str (),
        c.header.width, c.header.height, c.fourcc.c_str (), c.variant.c_str (),
        c.header.is_444 () ? "4:4:4" : "4:2:2", c.header.alpha_bits () ? " + alpha" : "",
        c.frames.size (), bytes / (double) c.frames.size () / 1e6);
    time_host (device, c, depth, copy_threads);

    /* Per path: the kernel alone; then the element, on its own path. */
    for (const std::string &path : path_list) {
      VkProResKernel::Path kp;
      VkProResKernel::parse_path (path.c_str (), &kp);
      kernel->set_path (kp);
      printf ("  [%s path]\n", path.c_str ());
      time_kernel (device, exec, kernel, timer, c, depth, &status, std::max (batch, 1u));
    }
    gchar *dec = g_strdup_printf ("vkproresdec frames-in-flight=%u batch=%u", in_flight, batch);
    const double gpu = time_pipeline (instance, device, c, dec, "video/x-raw(memory:VulkanBuffer)",
        n_frames);
    printf ("  vkproresdec (frames-in-flight=%u batch=%u) -> memory:VulkanBuffer (frames stay "
        "on the GPU): %.0f fps\n", in_flight, batch, gpu);
    const double down = time_pipeline (instance, device, c, dec, "video/x-raw",
        std::max (200u, n_frames / 4));
    printf ("  vkproresdec -> system memory (download): %.0f fps\n", down);
    g_free (dec);

    double cpu = 0;
    GstElementFactory *f = gst_element_factory_find ("avdec_prores");
    if (f) {
      gst_object_unref (f);
      cpu = time_pipeline (NULL, NULL, c, "avdec_prores max-threads=0", "video/x-raw", cpu_frames);
      printf ("  avdec_prores (FFmpeg, %u threads): %.0f fps\n", g_get_num_processors (), cpu);
    } else {
      printf ("  avdec_prores: not installed\n");
    }
    double ff = time_ffmpeg (c, cpu_frames);
    if (ff > 0)
      printf ("  ffmpeg -threads 0 (decode to null): %.0f fps\n", ff);
    else
      printf ("  ffmpeg: not installed\n");
    double ref = std::max (cpu, ff);
    if (ref > 0)
      printf ("  ratio GPU (VulkanBuffer) / FFmpeg all cores: %.1fx; with download: %.1fx\n",
          gpu / ref, down / ref);
  }

  delete timer;
  delete kernel;
  delete exec;
  return status;
}
