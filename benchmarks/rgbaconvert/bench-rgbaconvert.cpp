/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Benchmark of vkrgbaconvert: the kernel with pictures already in GPU
 * memory (GPU time from timestamp queries), the element in a pipeline
 * (appsrc of Vulkan storage buffers ! vkrgbaconvert ! fakesink, RGBA Vulkan
 * images out, wall clock), and beside them the CPU reference (one thread)
 * and GStreamer's videoconvert (what a user would otherwise run, then
 * upload) on the same pictures. Checks the GPU's RGBA against the CPU's.
 *
 *   bench-rgbaconvert [--frames N] [--sizes 1080,2160]
 *                     [--formats I420_10LE,I422_10LE,Y444_12LE,AYUV64]
 */
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <string>
#include <vector>

#include "bench-util.h"
#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkplane.h"
#include "compute/gpcvktimer.h"
#include "rgba-convert-video.h"
#include "vkrgbakernel.h"

using namespace gpc;
using gpc_bench::Clock;
using gpc_bench::seconds_since;

static const unsigned kDispatches = 32;

/* A picture of smooth gradients with noise, in system memory. */
static GstBuffer *
make_picture (const GstVideoInfo *info, uint64_t seed)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  GstVideoFrame f;
  gst_video_frame_map (&f, info, buf, GST_MAP_WRITE);
  const guint depth = GST_VIDEO_INFO_COMP_DEPTH (info, 0);
  const guint bytes = depth > 8 ? 2 : 1;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    guint8 *d = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    const gsize row = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&f, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&f, comp[0]);
    for (guint y = 0; y < (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&f, comp[0]); y++)
      for (gsize x = 0; x < row; x += bytes) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t v = ((uint32_t) (x * 5 + y * 3 + p * 97) << (depth - 8)) + (uint32_t) (seed >> 60);
        v &= (1u << depth) - 1;
        d[y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) + x] = (guint8) v;
        if (bytes == 2)
          d[y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) + x + 1] = (guint8) (v >> 8);
      }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* The picture in one device-local storage buffer (planes after each other)
 * with a video meta: what vkproresdec and vkvvcalf hand downstream. */
static GstBuffer *
upload (VkExec *exec, VkBufferCache &staging, VkBufferCache &device, const GstVideoInfo *info,
    GstBuffer *sys, RgbaPlane planes[4])
{
  GError *err = NULL;
  GstVideoFrame f;
  gst_video_frame_map (&f, info, sys, GST_MAP_READ);
  const guint n = GST_VIDEO_FRAME_N_PLANES (&f);
  HostPlane hp[4];
  for (guint p = 0; p < n; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gst_video_format_info_component (info->finfo, p, comp);
    hp[p] = { (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&f, p),
      (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&f, p),
      (gsize) GST_VIDEO_FRAME_COMP_WIDTH (&f, comp[0]) * GST_VIDEO_FRAME_COMP_PSTRIDE (&f, comp[0]),
      (guint) GST_VIDEO_FRAME_COMP_HEIGHT (&f, comp[0]) };
  }
  StoragePlane sp[4];
  exec->begin (&err);
  if (!vk_upload_planes (exec, &staging, &device, hp, n, sp, &err)) {
    fprintf (stderr, "upload failed: %s\n", err ? err->message : "?");
    exit (1);
  }
  GstVulkanFence *fence = exec->submit (&err);
  exec->wait (fence, 60 * GST_SECOND, &err);
  gst_vulkan_fence_unref (fence);
  gst_video_frame_unmap (&f);

  GstBuffer *out = gst_buffer_new ();
  gst_buffer_append_memory (out, gst_memory_ref ((GstMemory *) sp[0].mem));
  gsize offset[4] = { 0 };
  gint stride[4] = { 0 };
  for (guint p = 0; p < 4; p++) {
    const guint q = p < n ? p : 0;
    planes[p] = { sp[q].mem, sp[q].offset, sp[q].stride };
    if (p < n) {
      offset[p] = sp[p].offset;
      stride[p] = (gint) sp[p].stride;
    }
  }
  gst_buffer_add_video_meta_full (out, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT (info),
      GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info), n, offset, stride);
  for (guint p = 0; p < n; p++)
    sp[p].clear ();
  return out;
}

/* Frames per second of `launch` fed `frames` from its appsrc "src". */
static double
time_pipeline (const gpc_bench::Device &dev, const char *launch,
    const std::vector<GstBuffer *> &frames, unsigned n)
{
  GstElement *pipe = gst_parse_launch (launch, NULL);
  if (!pipe) {
    fprintf (stderr, "bad pipeline: %s\n", launch);
    exit (1);
  }
  gpc_vk_element_set_device (pipe, dev.instance, dev.device);
  double fps = gpc_bench::run_appsrc (pipe, "src", frames, n);
  gst_object_unref (pipe);
  return fps;
}

int
main (int argc, char **argv)
{
  unsigned n_frames = 500;
  std::vector<unsigned> sizes = { 1080, 2160 };
  std::vector<std::string> formats = { "I420_10LE", "I422_10LE", "Y444_12LE", "AYUV64" };
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp (argv[i], "--frames")) {
      n_frames = atoi (argv[i + 1]);
    } else if (!strcmp (argv[i], "--sizes")) {
      sizes.clear ();
      for (char *p = argv[i + 1]; *p;) {
        sizes.push_back (strtoul (p, &p, 10));
        if (*p == ',')
          p++;
      }
    } else if (!strcmp (argv[i], "--formats")) {
      formats.clear ();
      gchar **v = g_strsplit (argv[i + 1], ",", -1);
      for (gchar **s = v; *s; s++)
        formats.push_back (*s);
      g_strfreev (v);
    }
  }
  gst_init (&argc, &argv);

  GError *err = NULL;
  gpc_bench::Device dev;
  if (!gpc_bench::open_device (&dev))
    return 1;
  VkExec *exec = VkExec::create (dev.queue, &err);
  VkRgbaKernel *kernel = exec ? VkRgbaKernel::create (dev.device, &err) : nullptr;
  VkGpuTimer *timer = kernel ? VkGpuTimer::create (dev.queue, 2, &err) : nullptr;
  if (!timer) {
    fprintf (stderr, "setup failed: %s\n", err ? err->message : "?");
    return 1;
  }
  VkBufferCache staging (dev.device, VkMemKind::HostWrite);
  VkBufferCache device (dev.device, VkMemKind::Device);
  VkBufferCache readback (dev.device, VkMemKind::HostRead);

  printf ("vkrgbaconvert benchmark\nGPU: %s\nCPU: reference one thread; videoconvert (its "
      "defaults)\n", dev.device->physical_device->properties.deviceName);
  printf ("%-18s %11s %10s %12s %11s %11s %9s\n", "picture", "GPU us/frm", "GPU fps",
      "pipeline fps", "CPU ms/frm", "vconv fps", "GPU/CPU");
  int status = 0;
  for (unsigned s : sizes) {
    for (const std::string &fname : formats) {
      const unsigned w = s == 2160 ? 3840 : s == 1080 ? 1920 : s * 16 / 9, h = s;
      GstVideoInfo info;
      gst_video_info_set_format (&info, gst_video_format_from_string (fname.c_str ()), w, h);
      RgbaFormat rf;
      if (!rgba_format_of (GST_VIDEO_INFO_FORMAT (&info), &rf)) {
        fprintf (stderr, "%s: not an input format of vkrgbaconvert\n", fname.c_str ());
        return 1;
      }
      const RgbaCoeffs coeffs = rgba_coeffs_of (&info);
      GstBuffer *sys = make_picture (&info, s * 131 + fname.size ());
      RgbaPlane planes[4];
      GstBuffer *gpu = upload (exec, staging, device, &info, sys, planes);
      GstMemory *img = gst_vulkan_image_memory_alloc (dev.device, VK_FORMAT_R8G8B8A8_UNORM, w, h,
          VK_IMAGE_TILING_OPTIMAL, VkRgbaKernel::kImageUsage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      GstVulkanImageView *view = gst_vulkan_get_or_create_image_view ((GstVulkanImageMemory *) img);

      /* GPU time: kDispatches conversions back to back (each behind the
       * image barrier the element records too); the first run warms up. */
      double us = 0;
      for (int rep = 0; rep < 3; rep++) {
        exec->begin (&err);
        timer->reset (exec->cmd ());
        timer->stamp (exec->cmd (), 0);
        for (unsigned i = 0; i < kDispatches; i++)
          kernel->record (exec, planes, view, rf, coeffs, w, h, false, &err);
        timer->stamp (exec->cmd (), 1);
        GstVulkanFence *fence = exec->submit (&err);
        if (!fence || !exec->wait (fence, 60 * GST_SECOND, &err)) {
          fprintf (stderr, "GPU failure: %s\n", err ? err->message : "?");
          return 1;
        }
        gst_vulkan_fence_unref (fence);
        std::vector<double> ns;
        timer->read (ns);
        if (rep > 0)
          us = (ns[1] - ns[0]) / 1000.0 / kDispatches;
      }

      /* Check: the image read back against the CPU reference, which is
       * timed too. */
      GstBuffer *back = readback.acquire ((gsize) w * h * 4, &err);
      GstVulkanImageMemory *im = (GstVulkanImageMemory *) img;
      exec->begin (&err);
      exec->barrier (im, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      exec->barrier (vk_buffer_memory (back), VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_WRITE_BIT);
      VkBufferImageCopy region = {};
      region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
      region.imageSubresource.layerCount = 1;
      region.imageExtent = { w, h, 1 };
      vkCmdCopyImageToBuffer (exec->cmd (), im->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
          vk_buffer_memory (back)->buffer, 1, &region);
      exec->barrier (vk_buffer_memory (back), VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
      GstVulkanFence *fence = exec->submit (&err);
      exec->wait (fence, 60 * GST_SECOND, &err);
      gst_vulkan_fence_unref (fence);

      std::vector<uint8_t> want ((size_t) w * h * 4);
      GstVideoFrame f;
      gst_video_frame_map (&f, &info, sys, GST_MAP_READ);
      const RgbaSource src = rgba_source_of (&f);
      auto t0 = Clock::now ();
      unsigned cpu_runs = 0;
      do {
        rgba_convert_ref (src, coeffs, want.data (), (size_t) w * 4);
        cpu_runs++;
      } while (seconds_since (t0) < 0.5);
      const double cpu_ms = seconds_since (t0) * 1000.0 / cpu_runs;
      gst_video_frame_unmap (&f);
      GstMapInfo map;
      GstMemory *bm = gst_buffer_peek_memory (back, 0);
      gst_memory_map (bm, &map, GST_MAP_READ);
      const bool same = memcmp (map.data, want.data (), want.size ()) == 0;
      gst_memory_unmap (bm, &map);
      if (!same) {
        printf ("MISMATCH %s %ux%u: the GPU's RGBA differs from the CPU reference\n",
            fname.c_str (), w, h);
        status = 1;
      }
      gst_buffer_unref (back);

      gchar *launch = g_strdup_printf ("appsrc name=src format=time is-live=false "
          "caps=\"video/x-raw(memory:VulkanBuffer),format=%s,width=%u,height=%u,framerate=60/1\" "
          "! vkrgbaconvert frames-in-flight=8 ! video/x-raw(memory:VulkanImage),format=RGBA ! "
          "fakesink sync=false", fname.c_str (), w, h);
      const double pipe_fps = time_pipeline (dev, launch, { gpu }, n_frames);
      g_free (launch);
      launch = g_strdup_printf ("appsrc name=src format=time is-live=false "
          "caps=\"video/x-raw,format=%s,width=%u,height=%u,framerate=60/1\" ! videoconvert ! "
          "video/x-raw,format=RGBA ! fakesink sync=false", fname.c_str (), w, h);
      const double vconv_fps = time_pipeline (dev, launch, { sys },
          std::max (10u, n_frames / 20));
      g_free (launch);

      char name[48];
      snprintf (name, sizeof name, "%up %s", s, fname.c_str ());
      printf ("%-18s %11.1f %10.0f %12.0f %11.2f %11.1f %8.1fx\n", name, us, 1e6 / us, pipe_fps,
          cpu_ms, vconv_fps, cpu_ms * 1000.0 / us);
      fflush (stdout);
      gst_vulkan_image_view_unref (view);
      gst_memory_unref (img);
      gst_buffer_unref (gpu);
      gst_buffer_unref (sys);
    }
  }
  printf ("GPU us/frm: GPU time per picture, %u conversions back to back; pipeline fps: appsrc "
      "(pictures in Vulkan storage buffers) ! vkrgbaconvert ! RGBA Vulkan images ! fakesink, "
      "wall clock; vconv fps: appsrc (system memory) ! videoconvert ! RGBA ! fakesink;\n"
      "GPU/CPU: CPU reference time over GPU time. GPU output checked against the CPU "
      "reference: %s\n", kDispatches, status ? "MISMATCH" : "identical");
  delete timer;
  delete kernel;
  delete exec;
  return status;
}
