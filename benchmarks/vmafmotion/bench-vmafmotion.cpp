/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Benchmark of VMAF motion: the GPU kernel with frames already in GPU memory
 * (GPU time from timestamp queries), the same frames through a GStreamer
 * pipeline (appsrc of Vulkan buffers ! vkvmafmotion ! fakesink, wall clock),
 * and the CPU reference (libvmaf's scalar algorithm, one thread) beside them
 * on the same frames. Checks the GPU's SADs against the CPU's while at it.
 *
 *   bench-vmafmotion [--frames N] [--cpu-frames N] [--sizes 1080,2160] [--bits 8,10]
 *                    [--threads N] [--tile-h ROWS]
 *
 * --threads and --tile-h set the kernel's workgroup for tuning sweeps (the
 * element always runs the defaults).
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

#include "bench-luma.h"
#include "bench-util.h"
#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvktimer.h"
#include "vkmotionkernel.h"
#include "vmaf-motion-layout.h"
#include "vmaf-motion-ref.h"

using namespace gpc;
using gpc_bench::Clock;
using gpc_bench::median;
using gpc_bench::seconds_since;

static const unsigned kDistinct = 4; /* distinct frames cycled through */

namespace {

struct Config {
  unsigned w, h, bits;
};

} // namespace

/* Smooth random content with noise: a moving gradient, like real video. */
static std::vector<uint16_t>
make_frame (unsigned w, unsigned h, unsigned bits, unsigned t, uint64_t &seed)
{
  std::vector<uint16_t> f ((size_t) w * h);
  const uint32_t max = (1u << bits) - 1;
  for (unsigned y = 0; y < h; y++) {
    for (unsigned x = 0; x < w; x++) {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      int noise = (int) ((seed >> 59) & 15) - 8;
      int64_t v = ((int64_t) ((x + 3 * t) * 7 + (y + 5 * t) * 3) % (max + 1)) + noise;
      f[(size_t) y * w + x] = (uint16_t) std::min<int64_t> (max, std::max<int64_t> (0, v));
    }
  }
  return f;
}

/* GPU time per frame of `n` back-to-back dispatches, and of one dispatch
 * alone (median of several). */
static void
time_kernel (VkExec *exec, VkMotionKernel *kernel, VkGpuTimer *timer, GstMemory *results,
    std::vector<GstBuffer *> &frames, const Config &c, const LumaLayout &l, gsize stride,
    unsigned n, double *stream_us, double *single_us)
{
  GError *err = NULL;
  auto plane = [&] (unsigned i) {
    return MotionPlane { vk_buffer_memory (frames[i % kDistinct]), 0, (uint32_t) stride };
  };
  GstVulkanBufferMemory *res = (GstVulkanBufferMemory *) results;
  for (GstBuffer *b : frames) {
    exec->begin (&err);
    exec->barrier (vk_buffer_memory (b), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        VK_ACCESS_SHADER_READ_BIT);
    GstVulkanFence *f = exec->submit (&err);
    exec->wait (f, G_MAXUINT64, &err);
    gst_vulkan_fence_unref (f);
  }

  std::vector<double> ns;
  std::vector<double> singles;
  for (int rep = 0; rep < 3; rep++) {
    /* Stream: n dispatches in one command buffer, each into its own slot. */
    exec->begin (&err);
    timer->reset (exec->cmd ());
    vkCmdFillBuffer (exec->cmd (), res->buffer, 0, VK_WHOLE_SIZE, 0);
    exec->global_barrier (VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
    timer->stamp (exec->cmd (), 0);
    for (unsigned i = 0; i < n; i++)
      kernel->dispatch (exec, plane (i), plane (i + 1), res, i % 32, c.w, c.h, l, &err);
    timer->stamp (exec->cmd (), 1);
    /* Single dispatches, separated by full barriers. */
    for (unsigned i = 0; i < 8; i++) {
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
      timer->stamp (exec->cmd (), 2 + 2 * i);
      kernel->dispatch (exec, plane (i), plane (i + 1), res, i % 32, c.w, c.h, l, &err);
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT);
      timer->stamp (exec->cmd (), 3 + 2 * i);
    }
    gpc_bench::submit_timed (exec, timer, ns);
    if (rep == 0)
      continue; /* warm-up */
    *stream_us = (ns[1] - ns[0]) / 1000.0 / n;
    for (unsigned i = 0; i < 8; i++)
      singles.push_back ((ns[3 + 2 * i] - ns[2 + 2 * i]) / 1000.0);
  }
  *single_us = median (singles);
}

/* Frames per second of appsrc (Vulkan buffers) ! vkvmafmotion ! fakesink. */
static double
time_pipeline (GstVulkanInstance *instance, GstVulkanDevice *device,
    std::vector<GstBuffer *> &lumas, const Config &c, gsize stride, unsigned n)
{
  const char *fmt = c.bits == 8 ? "I420" : c.bits == 10 ? "I420_10LE" : "I420_12LE";
  gchar *launch = g_strdup_printf ("appsrc name=src format=time is-live=false "
      "caps=\"video/x-raw(memory:VulkanBuffer),format=%s,width=%u,height=%u,framerate=60/1\" "
      "! vkvmafmotion name=m post-messages=false frames-in-flight=8 ! fakesink sync=false",
      fmt, c.w, c.h);
  GstElement *pipe = gst_parse_launch (launch, NULL);
  g_free (launch);
  GstElement *m = gst_bin_get_by_name (GST_BIN (pipe), "m");
  gpc_vk_element_set_device (m, instance, device);
  gst_object_unref (m);
  GstElement *src = gst_bin_get_by_name (GST_BIN (pipe), "src");

  /* Frames: the luma buffer plus chroma planes, with a video meta. */
  std::vector<GstBuffer *> frames;
  for (GstBuffer *luma : lumas)
    frames.push_back (gpc_bench::vk_video_frame (device, luma, gst_video_format_from_string (fmt),
        c.w, c.h, stride));
  gst_object_unref (src);
  double fps = gpc_bench::run_appsrc (pipe, "src", frames, n);
  gst_object_unref (pipe);
  for (GstBuffer *b : frames)
    gst_buffer_unref (b);
  return fps;
}

int
main (int argc, char **argv)
{
  unsigned n_frames = 1000, cpu_frames = 6;
  uint32_t threads = 0, tile_h = 0;  /* 0: the element's defaults */
  std::vector<unsigned> sizes = { 1080, 2160 }, bits = { 8, 10 };
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp (argv[i], "--frames"))
      n_frames = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--cpu-frames"))
      cpu_frames = atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--sizes"))
      sizes = gpc_bench::parse_list (argv[i + 1]);
    else if (!strcmp (argv[i], "--bits"))
      bits = gpc_bench::parse_list (argv[i + 1]);
    else if (!strcmp (argv[i], "--threads"))
      threads = (uint32_t) atoi (argv[i + 1]);
    else if (!strcmp (argv[i], "--tile-h"))
      tile_h = (uint32_t) atoi (argv[i + 1]);
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
  VkMotionKernel *kernel = VkMotionKernel::create (device, &err, threads, tile_h);
  VkGpuTimer *timer = VkGpuTimer::create (queue, 2 + 16, &err);
  GstMemory *results = vk_storage_alloc (device, 32 * 8, true, &err);
  VkBufferCache staging (device, true);
  if (!exec || !kernel || !timer || !results) {
    fprintf (stderr, "setup failed: %s\n", err ? err->message : "?");
    return 1;
  }

  printf ("vkvmafmotion benchmark\nGPU: %s (Vulkan %u.%u, driver %u)\nCPU reference: one thread\n",
      device->physical_device->properties.deviceName,
      VK_VERSION_MAJOR (device->physical_device->properties.apiVersion),
      VK_VERSION_MINOR (device->physical_device->properties.apiVersion),
      device->physical_device->properties.driverVersion);
  printf ("%-12s %12s %12s %12s %12s %12s %10s %10s\n", "frame", "GPU us/frm", "GPU 1 disp",
      "GPU fps", "pipeline fps", "CPU ms/frm", "CPU fps", "GPU/CPU");

  int status = 0;
  for (unsigned s : sizes) {
    for (unsigned b : bits) {
      Config c = { s == 2160 ? 3840u : s == 1080 ? 1920u : s * 16 / 9, s, b };
      LumaLayout l;
      luma_layout_for_format (b == 8 ? GST_VIDEO_FORMAT_GRAY8 : b == 10 ?
          GST_VIDEO_FORMAT_I420_10LE : GST_VIDEO_FORMAT_I420_12LE, &l);
      gsize stride = GST_ROUND_UP_4 (luma_row_bytes (l, c.w));
      uint64_t seed = 0x9e3779b97f4a7c15ull ^ (s * 131 + b);
      std::vector<std::vector<uint16_t>> cpu;
      std::vector<GstBuffer *> gpu;
      for (unsigned i = 0; i < kDistinct; i++) {
        cpu.push_back (make_frame (c.w, c.h, b, i, seed));
        gpu.push_back (gpc_bench::upload_luma (exec, staging, cpu.back (), l, c.w, c.h, stride));
      }

      double stream_us = 0, single_us = 0;
      time_kernel (exec, kernel, timer, results, gpu, c, l, stride, 64, &stream_us, &single_us);

      /* A clean pass for the check: one zeroed slot per frame pair. */
      exec->begin (&err);
      for (unsigned i = 0; i < kDistinct; i++)
        kernel->record (exec, MotionPlane { vk_buffer_memory (gpu[i]), 0, (uint32_t) stride },
            MotionPlane { vk_buffer_memory (gpu[(i + 1) % kDistinct]), 0, (uint32_t) stride },
            (GstVulkanBufferMemory *) results, i, c.w, c.h, l, &err);
      GstVulkanFence *fence = exec->submit (&err);
      exec->wait (fence, 60 * GST_SECOND, &err);
      gst_vulkan_fence_unref (fence);
      GstMapInfo map;
      gst_memory_map (results, &map, GST_MAP_READ);
      const uint32_t *r = (const uint32_t *) map.data;
      std::vector<uint64_t> gpu_sad (kDistinct);
      for (unsigned i = 0; i < kDistinct; i++)
        gpu_sad[i] = ((uint64_t) r[2 * i + 1] << 32) | r[2 * i];
      gst_memory_unmap (results, &map);

      auto t0 = Clock::now ();
      unsigned done = 0;
      for (unsigned i = 0; i < std::max (1u, cpu_frames); i++) {
        LumaPlane p = { cpu[i % kDistinct].data (), (ptrdiff_t) c.w };
        LumaPlane q = { cpu[(i + 1) % kDistinct].data (), (ptrdiff_t) c.w };
        uint64_t sad = motion_sad_ref (p, q, c.w, c.h, b);
        if (i < kDistinct && sad != gpu_sad[i]) {
          printf ("MISMATCH %ux%u %u-bit pair %u: GPU %llu CPU %llu\n", c.w, c.h, b, i,
              (unsigned long long) gpu_sad[i], (unsigned long long) sad);
          status = 1;
        }
        done++;
      }
      double cpu_ms = seconds_since (t0) * 1000.0 / done;
      double pipe_fps = time_pipeline (instance, device, gpu, c, stride, n_frames);

      char name[32];
      snprintf (name, sizeof name, "%up %u-bit", s, b);
      printf ("%-12s %12.1f %12.1f %12.0f %12.0f %12.2f %10.1f %9.0fx\n", name, stream_us,
          single_us, 1e6 / stream_us, pipe_fps, cpu_ms, 1000.0 / cpu_ms,
          cpu_ms * 1000.0 / stream_us);
      fflush (stdout);
      for (GstBuffer *g : gpu)
        gst_buffer_unref (g);
    }
  }
  printf ("GPU us/frm: GPU time per frame, 64 frames back to back; GPU 1 disp: one frame alone;\n"
      "pipeline fps: appsrc (frames in Vulkan buffers) ! vkvmafmotion ! fakesink, wall clock;\n"
      "GPU/CPU: CPU reference time over GPU time per frame. SADs checked against the CPU: %s\n",
      status ? "MISMATCH" : "identical");

  gst_memory_unref (results);
  delete timer;
  delete kernel;
  delete exec;
  return status;
}
