/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Benchmark of vkvvcalf: the ALF kernel with pictures already in GPU memory
 * (GPU time from timestamp queries), the same pictures through a GStreamer
 * pipeline (appsrc of Vulkan buffers ! vkvvcalf ! fakesink, Vulkan buffers
 * out, wall clock), and the CPU reference (one thread) beside them on the
 * same pictures. 10-bit 4:2:0, luma + Cb + Cr ALF and CC-ALF on both chroma
 * components in every CTB (synthetic parameters, CTB 128, fixed set 5).
 * Checks the GPU output against the CPU reference, sample for sample.
 *
 *   bench-vvcalf [--frames N] [--cpu-frames N] [--sizes 1080,2160]
 *   bench-vvcalf --variants all|V1,V2,... [--sizes ..] [--frames N] [--cpu-frames N]
 *
 * With --variants, only the kernel: each variant (VkAlfKernel's names, see
 * AlfOptions::parse; "all" = VkAlfKernel::sweep_variants) timed over N
 * dispatches back to back (default 200) and checked bit-exact against the
 * CPU reference, computed once per size; one table row per variant.
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
#include "vkalfkernel.h"
#include "vvcalf-builder.h"
#include "vvcalf-ref.h"

using namespace gpc;
using gpc_bench::Clock;
using gpc_bench::median;
using gpc_bench::seconds_since;

static const unsigned kDistinct = 2; /* distinct pictures cycled through */
static const unsigned kSingles = 8;  /* dispatches timed alone */

/* Natural-ish 10-bit content: gradients, texture and edges (as in
 * bench-vvcalf-cpu), different per picture. */
static void
fill (std::vector<uint16_t> &p, int w, int h, int seed)
{
  uint32_t s = 0x9e3779b9u * (uint32_t) (seed + 1);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      s = s * 1664525u + 1013904223u;
      int v = 512 + ((x * 3 + y * 2 + seed * 97) % 256) - 128 + (int) ((s >> 24) & 31) - 16;
      if ((x / 37 + y / 23) & 1)
        v += ((x + y) & 4) ? 60 : -60;
      p[(size_t) y * w + x] = (uint16_t) (v < 0 ? 0 : v > 1023 ? 1023 : v);
    }
}

namespace {

/* One picture: CPU planes and a device-local storage buffer in the
 * I420_10LE layout of `info`. */
struct Picture {
  std::vector<uint16_t> plane[3];
  GstBuffer *gpu = nullptr;
};

} // namespace

static void
submit_and_wait (VkExec *exec)
{
  GError *err = NULL;
  GstVulkanFence *f = exec->submit (&err);
  if (!f || !exec->wait (f, 60 * GST_SECOND, &err)) {
    fprintf (stderr, "GPU failure: %s\n", err ? err->message : "?");
    exit (1);
  }
  gst_vulkan_fence_unref (f);
}

static GstBuffer *
upload (VkExec *exec, VkBufferCache &staging_cache, const Picture &pic, const GstVideoInfo &info)
{
  GError *err = NULL;
  const gsize size = GST_VIDEO_INFO_SIZE (&info);
  GstMemory *mem = vk_storage_alloc (exec->device (), size, false, &err);
  GstBuffer *staging = staging_cache.acquire (size, &err);
  if (!mem || !staging) {
    fprintf (stderr, "allocation failed: %s\n", err ? err->message : "?");
    exit (1);
  }
  GstMapInfo map;
  GstMemory *smem = gst_buffer_peek_memory (staging, 0);
  gst_memory_map (smem, &map, GST_MAP_WRITE);
  for (int p = 0; p < 3; p++) {
    const int w = GST_VIDEO_INFO_COMP_WIDTH (&info, p), h = GST_VIDEO_INFO_COMP_HEIGHT (&info, p);
    for (int y = 0; y < h; y++)
      memcpy (map.data + GST_VIDEO_INFO_PLANE_OFFSET (&info, p) +
          (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&info, p), pic.plane[p].data () + (size_t) y * w,
          (size_t) w * 2);
  }
  gst_memory_unmap (smem, &map);
  exec->begin (&err);
  GstVulkanBufferMemory *s = (GstVulkanBufferMemory *) smem, *d = (GstVulkanBufferMemory *) mem;
  s->barrier.parent.pipeline_stages = VK_PIPELINE_STAGE_HOST_BIT;
  s->barrier.parent.access_flags = VK_ACCESS_HOST_WRITE_BIT;
  exec->barrier (s, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  exec->barrier (d, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferCopy region = { 0, 0, size };
  vkCmdCopyBuffer (exec->cmd (), s->buffer, d->buffer, 1, &region);
  exec->barrier (d, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
  exec->keep (GST_MINI_OBJECT_CAST (staging));
  gst_buffer_unref (staging);
  submit_and_wait (exec);
  GstBuffer *buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  return buf;
}

static void
planes_of (GstBuffer *buf, const GstVideoInfo &info, AlfPlane out[3])
{
  for (int p = 0; p < 3; p++)
    out[p] = { vk_buffer_memory (buf), (uint32_t) GST_VIDEO_INFO_PLANE_OFFSET (&info, p),
      (uint32_t) GST_VIDEO_INFO_PLANE_STRIDE (&info, p) };
}

/* GPU time per picture of `n` back-to-back dispatches, and of one alone
 * (`passes`: of a split kernel, the luma or chroma pass alone). */
static void
time_kernel (VkExec *exec, VkAlfKernel *kernel, VkGpuTimer *timer, GstBuffer *params_buf,
    const VvcAlfParams &params, std::vector<Picture> &pics, GstBuffer *outs[2],
    const GstVideoInfo &info, unsigned n, double *stream_us, double *single_us,
    unsigned passes = VkAlfKernel::kLumaPass | VkAlfKernel::kChromaPass)
{
  GError *err = NULL;
  GstVulkanBufferMemory *pm = vk_buffer_memory (params_buf);
  std::vector<double> ns, singles;
  for (int rep = 0; rep < 3; rep++) {
    exec->begin (&err);
    timer->reset (exec->cmd ());
    for (int k = 0; k < 2; k++)
      exec->barrier (vk_buffer_memory (outs[k]), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT);
    timer->stamp (exec->cmd (), 0);
    for (unsigned i = 0; i < n; i++) {
      AlfPlane in[3], out[3];
      planes_of (pics[i % kDistinct].gpu, info, in);
      planes_of (outs[i % 2], info, out);
      kernel->dispatch (exec, in, out, pm, params.pic, true, &err, passes);
    }
    timer->stamp (exec->cmd (), 1);
    for (unsigned i = 0; i < kSingles; i++) {
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
      timer->stamp (exec->cmd (), 2 + 2 * i);
      AlfPlane in[3], out[3];
      planes_of (pics[i % kDistinct].gpu, info, in);
      planes_of (outs[i % 2], info, out);
      kernel->dispatch (exec, in, out, pm, params.pic, true, &err, passes);
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT);
      timer->stamp (exec->cmd (), 3 + 2 * i);
    }
    submit_and_wait (exec);
    timer->read (ns);
    if (rep == 0)
      continue; /* warm-up */
    *stream_us = (ns[1] - ns[0]) / 1000.0 / n;
    for (unsigned i = 0; i < kSingles; i++)
      singles.push_back ((ns[3 + 2 * i] - ns[2 + 2 * i]) / 1000.0);
  }
  *single_us = median (singles);
}

/* The CPU reference output of `pic`, and its time per picture (ms) over
 * `cpu_frames` runs. */
static void
cpu_reference (const VvcAlfParams &params, const Picture &pic, const GstVideoInfo &info,
    std::vector<uint16_t> ref[3], double *cpu_ms_out, unsigned cpu_frames)
{
  VvcAlfPlane ip[3];
  VvcAlfOutPlane op[3];
  for (int p = 0; p < 3; p++) {
    const int w = GST_VIDEO_INFO_COMP_WIDTH (&info, p);
    ref[p].assign (pic.plane[p].size (), 0);
    ip[p] = { pic.plane[p].data (), w };
    op[p] = { ref[p].data (), w };
  }
  auto t0 = Clock::now ();
  for (unsigned i = 0; i < std::max (1u, cpu_frames); i++)
    vvc_alf_apply (params, ip, op);
  *cpu_ms_out = seconds_since (t0) * 1000.0 / std::max (1u, cpu_frames);
}

/* GPU output of `pic` (written to `out`, poisoned first) against the CPU
 * reference `ref`; mismatches counted. */
static long
check_output (VkExec *exec, VkAlfKernel *kernel, VkBufferCache &staging_cache,
    GstBuffer *params_buf, const VvcAlfParams &params, Picture &pic, GstBuffer *out,
    const GstVideoInfo &info, const std::vector<uint16_t> ref[3])
{
  GError *err = NULL;
  const gsize size = GST_VIDEO_INFO_SIZE (&info);
  GstBuffer *host = staging_cache.acquire (size, &err);
  exec->begin (&err);
  AlfPlane in[3], o[3];
  planes_of (pic.gpu, info, in);
  planes_of (out, info, o);
  GstVulkanBufferMemory *om = vk_buffer_memory (out), *hm = vk_buffer_memory (host);
  exec->barrier (om, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  vkCmdFillBuffer (exec->cmd (), om->buffer, 0, VK_WHOLE_SIZE, 0xdeadbeefu);
  exec->barrier (om, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
  kernel->dispatch (exec, in, o, vk_buffer_memory (params_buf), params.pic, true, &err);
  exec->barrier (om, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  exec->barrier (hm, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferCopy region = { 0, 0, size };
  vkCmdCopyBuffer (exec->cmd (), om->buffer, hm->buffer, 1, &region);
  exec->barrier (hm, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  submit_and_wait (exec);

  long bad = 0;
  GstMapInfo map;
  GstMemory *hmem = gst_buffer_peek_memory (host, 0);
  gst_memory_map (hmem, &map, GST_MAP_READ);
  for (int p = 0; p < 3; p++) {
    const int w = GST_VIDEO_INFO_COMP_WIDTH (&info, p), h = GST_VIDEO_INFO_COMP_HEIGHT (&info, p);
    const guint8 *base = map.data + GST_VIDEO_INFO_PLANE_OFFSET (&info, p);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        bad += GST_READ_UINT16_LE (base + (gsize) y * GST_VIDEO_INFO_PLANE_STRIDE (&info, p) +
            2 * x) != ref[p][(size_t) y * w + x];
  }
  gst_memory_unmap (hmem, &map);
  gst_buffer_unref (host);
  return bad;
}

/* Pictures per second of appsrc (Vulkan buffers) ! vkvvcalf ! fakesink. */
static double
time_pipeline (GstVulkanInstance *instance, GstVulkanDevice *device, std::vector<Picture> &pics,
    const GstVideoInfo &info, unsigned n)
{
  gchar *launch = g_strdup_printf ("appsrc name=src format=time is-live=false "
      "caps=\"video/x-raw(memory:VulkanBuffer),format=I420_10LE,width=%d,height=%d,"
      "framerate=60/1\" ! vkvvcalf name=alf frames-in-flight=8 params-source=synthetic "
      "ctb-size=128 fixed-filter-set=5 ! fakesink sync=false",
      GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info));
  GstElement *pipe = gst_parse_launch (launch, NULL);
  g_free (launch);
  GstElement *alf = gst_bin_get_by_name (GST_BIN (pipe), "alf");
  GstContext *ctx = gst_context_new (GST_VULKAN_INSTANCE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_instance (ctx, instance);
  gst_element_set_context (alf, ctx);
  gst_context_unref (ctx);
  ctx = gst_context_new (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR, TRUE);
  gst_context_set_vulkan_device (ctx, device);
  gst_element_set_context (alf, ctx);
  gst_context_unref (ctx);
  gst_object_unref (alf);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");

  std::vector<GstBuffer *> frames;
  for (Picture &p : pics) {
    GstBuffer *b = gst_buffer_new ();
    gst_buffer_append_memory (b, gst_buffer_get_memory (p.gpu, 0));
    gst_buffer_add_video_meta_full (b, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420_10LE,
        GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info), 3,
        (gsize *) info.offset, (gint *) info.stride);
    frames.push_back (b);
  }

  gst_object_unref (src);
  double fps = gpc_bench::run_appsrc (pipe, "src", frames, n);
  gst_object_unref (pipe);
  for (GstBuffer *b : frames)
    gst_buffer_unref (b);
  return fps;
}

/* Width of a benchmark size given by its height. */
static int
width_for (unsigned s)
{
  return s == 2160 ? 3840 : s == 1080 ? 1920 : (int) (s * 16 / 9 + 7) / 8 * 8;
}

static bool
bench_params (int w, int h, VvcAlfParams &params)
{
  VvcAlfSyntheticConfig cfg;
  cfg.width = w;
  cfg.height = h;
  cfg.chroma_format = GST_VVC_ALF_CHROMA_420;
  cfg.bit_depth = 10;
  cfg.ctb_size = 128;
  cfg.fixed_set = 5;
  cfg.y = cfg.cb = cfg.cr = cfg.cc_cb = cfg.cc_cr = true;
  std::string e;
  if (!vvc_alf_build_synthetic (cfg, params, e)) {
    fprintf (stderr, "parameters: %s\n", e.c_str ());
    return false;
  }
  return true;
}

namespace {

/* One size's benchmark material: distinct input pictures (CPU planes and
 * GPU buffers), the parameters and their GPU copy, two output buffers. */
struct SizeSetup {
  GstVideoInfo info;
  VvcAlfParams params;
  std::vector<Picture> pics;
  GstBuffer *params_buf = nullptr;
  GstBuffer *outs[2] = { nullptr, nullptr };

  bool prepare (VkExec *exec, GstVulkanDevice *device, VkBufferCache &staging,
      VkBufferCache &devcache, int w, int h)
  {
    GError *err = NULL;
    gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420_10LE, w, h);
    if (!bench_params (w, h, params))
      return false;
    pics.resize (kDistinct);
    for (unsigned i = 0; i < kDistinct; i++) {
      for (int p = 0; p < 3; p++) {
        const int pw = p ? w / 2 : w, ph = p ? h / 2 : h;
        pics[i].plane[p].resize ((size_t) pw * ph);
        fill (pics[i].plane[p], pw, ph, (int) (i * 3 + p));
      }
      pics[i].gpu = upload (exec, staging, pics[i], info);
    }
    exec->begin (&err);
    params_buf = VkAlfKernel::upload_params (exec, params, &staging, &devcache, &err);
    submit_and_wait (exec);
    for (GstBuffer *&o : outs) {
      o = gst_buffer_new ();
      gst_buffer_append_memory (o, vk_storage_alloc (device, GST_VIDEO_INFO_SIZE (&info), false, &err));
    }
    return params_buf != nullptr;
  }

  ~SizeSetup ()
  {
    for (Picture &p : pics)
      gst_clear_buffer (&p.gpu);
    for (GstBuffer *&o : outs)
      gst_clear_buffer (&o);
    gst_clear_buffer (&params_buf);
  }
};

} // namespace

/* --variants: every kernel variant timed at every size (GPU time per
 * picture, `n` dispatches back to back) and checked against the CPU
 * reference (computed once per size); one row per variant. */
static int
sweep (VkExec *exec, GstVulkanDevice *device, VkGpuTimer *timer, VkBufferCache &staging,
    VkBufferCache &devcache, const std::vector<std::string> &names,
    const std::vector<unsigned> &sizes, unsigned n, unsigned cpu_frames, bool cpu_device)
{
  GError *err = NULL;
  std::vector<VkAlfKernel *> kernels;
  for (const std::string &v : names) {
    AlfOptions o;
    std::string e;
    if (!AlfOptions::parse (v.c_str (), &o, e)) {
      fprintf (stderr, "%s\n", e.c_str ());
      return 1;
    }
    VkAlfKernel *k = VkAlfKernel::create (device, o, &err);
    if (!k) {
      fprintf (stderr, "variant %s: %s\n", v.c_str (), err ? err->message : "?");
      return 1;
    }
    kernels.push_back (k);
  }
  /* [variant][size] */
  std::vector<std::vector<double>> us (kernels.size (), std::vector<double> (sizes.size ()));
  std::vector<std::vector<double>> one (kernels.size (), std::vector<double> (sizes.size ()));
  std::vector<std::vector<long>> bad (kernels.size (), std::vector<long> (sizes.size ()));
  /* Split kernels: the luma and the chroma pass timed alone (0: not split). */
  std::vector<std::vector<double>> luma_us (kernels.size (), std::vector<double> (sizes.size ()));
  std::vector<std::vector<double>> chroma_us (kernels.size (), std::vector<double> (sizes.size ()));
  std::vector<double> cpu_ms (sizes.size ());
  for (size_t si = 0; si < sizes.size (); si++) {
    SizeSetup z;
    if (!z.prepare (exec, device, staging, devcache, width_for (sizes[si]), (int) sizes[si]))
      return 1;
    const GstVideoInfo &info = z.info;
    std::vector<uint16_t> ref[3];
    cpu_reference (z.params, z.pics[0], info, ref, &cpu_ms[si], cpu_frames);
    /* Warm-up: the GPU idles at a low clock until work keeps it busy (the
     * first variant timed without this ran 4x slow on the H100). */
    for (int w = 0; w < 3; w++) {
      double a, b;
      time_kernel (exec, kernels[0], timer, z.params_buf, z.params, z.pics, z.outs, info, n, &a, &b);
    }
    for (size_t k = 0; k < kernels.size (); k++) {
      time_kernel (exec, kernels[k], timer, z.params_buf, z.params, z.pics, z.outs, info, n,
          &us[k][si], &one[k][si]);
      bad[k][si] = check_output (exec, kernels[k], staging, z.params_buf, z.params, z.pics[0],
          z.outs[0], info, ref);
      if (kernels[k]->options ().split) {
        double dummy;
        time_kernel (exec, kernels[k], timer, z.params_buf, z.params, z.pics, z.outs, info, n,
            &luma_us[k][si], &dummy, VkAlfKernel::kLumaPass);
        time_kernel (exec, kernels[k], timer, z.params_buf, z.params, z.pics, z.outs, info, n,
            &chroma_us[k][si], &dummy, VkAlfKernel::kChromaPass);
      }
      fprintf (stderr, "%up %-24s %10.1f us (luma %.1f, chroma %.1f) %s\n", sizes[si],
          names[k].c_str (), us[k][si], luma_us[k][si], chroma_us[k][si],
          bad[k][si] ? "MISMATCH" : "bit-exact");
    }
  }

  printf ("Kernel variants: GPU us per picture (%u dispatch%s back to back; in brackets one\n"
      "dispatch alone, median of %u), output checked against the CPU reference at every size.\n",
      n, n == 1 ? "" : "es", 2 * kSingles);
  int nw = 8;
  for (const std::string &v : names)
    nw = std::max (nw, (int) v.size ());
  printf ("%-*s", nw, "variant");
  for (unsigned s : sizes) {
    char col[32];
    snprintf (col, sizeof col, "%up us [1 disp]", s);
    printf (" %20s", col);
  }
  printf (" %-9s %s\n", "bit-exact", "what it changes (from the baseline)");
  int status = 0;
  for (size_t k = 0; k < kernels.size (); k++) {
    printf ("%-*s", nw, names[k].c_str ());
    bool exact = true;
    for (size_t si = 0; si < sizes.size (); si++) {
      char col[40];
      snprintf (col, sizeof col, "%.1f [%.1f]", us[k][si], one[k][si]);
      printf (" %20s", col);
      exact = exact && bad[k][si] == 0;
    }
    printf (" %-9s %s\n", exact ? "yes" : "NO", kernels[k]->options ().describe ().c_str ());
    if (!exact)
      status = 1;
  }
  printf ("Split variants, each pass alone (us per picture, luma / chroma with CC-ALF):\n");
  for (size_t k = 0; k < kernels.size (); k++) {
    if (!kernels[k]->options ().split)
      continue;
    printf ("%-*s", nw, names[k].c_str ());
    for (size_t si = 0; si < sizes.size (); si++) {
      char col[40];
      snprintf (col, sizeof col, "%.1f / %.1f", luma_us[k][si], chroma_us[k][si]);
      printf (" %20s", col);
    }
    printf ("\n");
  }
  printf ("CPU reference (one thread), ms per picture:");
  for (size_t si = 0; si < sizes.size (); si++)
    printf (" %up %.1f", sizes[si], cpu_ms[si]);
  printf ("\nDefault of vkvvcalf: %s (--variants <variant> times another).\n"
      "Target: 2160p fully filtered in <= 200 us GPU time.\n",
      AlfOptions::best ().name ().c_str ());
  if (cpu_device)
    printf ("(CPU Vulkan device: timings are meaningless, only the checks count.)\n");
  for (VkAlfKernel *k : kernels)
    delete k;
  return status;
}

int
main (int argc, char **argv)
{
  unsigned n_frames = 0, cpu_frames = 2;
  std::vector<unsigned> sizes = { 1080, 2160 };
  std::vector<std::string> variants;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp (argv[i], "--variants")) {
      const std::string list = argv[i + 1];
      if (list == "all")
        variants = VkAlfKernel::sweep_variants ();
      else
        for (size_t pos = 0; pos <= list.size ();) {
          const size_t end = std::min (list.find (',', pos), list.size ());
          if (end > pos)
            variants.push_back (list.substr (pos, end - pos));
          pos = end + 1;
        }
    } else if (!strcmp (argv[i], "--frames"))
      n_frames = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--cpu-frames"))
      cpu_frames = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--sizes")) {
      sizes.clear ();
      for (char *p = argv[i + 1]; *p;) {
        sizes.push_back (strtoul (p, &p, 10));
        if (*p == ',')
          p++;
      }
    }
  }
  gst_init (&argc, &argv);

  GError *err = NULL;
  gpc_bench::Device dev;
  if (!gpc_bench::open_device (&dev))
    return 1;
  GstVulkanInstance *instance = dev.instance;
  GstVulkanDevice *device = dev.device;
  GstVulkanQueue *queue = dev.queue;
  VkExec *exec = queue ? VkExec::create (queue, &err) : nullptr;
  VkAlfKernel *kernel = exec ? VkAlfKernel::create (device, &err) : nullptr;
  VkGpuTimer *timer = kernel ? VkGpuTimer::create (queue, 2 + 2 * kSingles, &err) : nullptr;
  VkBufferCache staging (device, true), devcache (device, false);
  if (!timer) {
    fprintf (stderr, "setup failed: %s\n", err ? err->message : "?");
    return 1;
  }
  const bool cpu_device = device->physical_device->properties.deviceType ==
      VK_PHYSICAL_DEVICE_TYPE_CPU;

  printf ("vkvvcalf benchmark: 10-bit 4:2:0, luma + chroma ALF + CC-ALF in every CTB (CTB 128)\n"
      "GPU: %s (Vulkan %u.%u)\nCPU reference: one thread\n",
      device->physical_device->properties.deviceName,
      VK_VERSION_MAJOR (device->physical_device->properties.apiVersion),
      VK_VERSION_MINOR (device->physical_device->properties.apiVersion));

  if (!variants.empty ()) {
    const int status = sweep (exec, device, timer, staging, devcache, variants, sizes,
        n_frames ? n_frames : cpu_device ? 2 : 200, cpu_frames, cpu_device);
    exec->wait_idle ();
    delete timer;
    delete kernel;
    delete exec;
    return status;
  }

  printf ("%-8s %12s %12s %10s %12s %12s %10s %10s %s\n", "size", "GPU us/pic", "GPU 1 disp",
      "GPU fps", "pipeline fps", "CPU ms/pic", "CPU fps", "GPU/CPU", "check");
  int status = 0;
  for (unsigned s : sizes) {
    SizeSetup z;
    if (!z.prepare (exec, device, staging, devcache, width_for (s), (int) s))
      return 1;
    const GstVideoInfo &info = z.info;

    double stream_us = 0, single_us = 0, cpu_ms = 0;
    /* The first run only raises the GPU's clock (see sweep). */
    for (int w = 0; w < 2; w++)
      time_kernel (exec, kernel, timer, z.params_buf, z.params, z.pics, z.outs, info,
          cpu_device ? 4 : 200, &stream_us, &single_us);
    std::vector<uint16_t> ref[3];
    cpu_reference (z.params, z.pics[0], info, ref, &cpu_ms, cpu_frames);
    long bad = check_output (exec, kernel, staging, z.params_buf, z.params, z.pics[0], z.outs[0],
        info, ref);
    if (bad)
      status = 1;
    unsigned n = n_frames ? n_frames : cpu_device ? 8 : (s >= 2160 ? 500 : 1000);
    double pipe_fps = time_pipeline (instance, device, z.pics, info, n);

    char name[16], check[48];
    snprintf (name, sizeof name, "%up", s);
    snprintf (check, sizeof check, bad ? "%ld MISMATCHES" : "bit-exact", bad);
    printf ("%-8s %12.1f %12.1f %10.0f %12.0f %12.1f %10.2f %9.1fx %s\n", name, stream_us,
        single_us, 1e6 / stream_us, pipe_fps, cpu_ms, 1000.0 / cpu_ms, cpu_ms * 1000.0 / stream_us,
        check);
    fflush (stdout);
  }
  printf ("GPU us/pic: GPU time per picture, dispatches back to back; GPU 1 disp: one picture\n"
      "alone; pipeline fps: appsrc (pictures in Vulkan buffers) ! vkvvcalf ! fakesink (Vulkan\n"
      "buffers out), wall clock; GPU/CPU: CPU reference time over GPU time per picture.\n"
      "Target: 2160p fully filtered in <= 200 us GPU time.\n");

  exec->wait_idle ();
  delete timer;
  delete kernel;
  delete exec;
  return status;
}
