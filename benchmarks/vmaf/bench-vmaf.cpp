/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Benchmark of vkvmaf (VMAF: VIF, ADM, motion and the vmaf_v0.6.1 model) on
 * frames it makes itself (bench-frames.h), in one run:
 *   - GPU time per frame of the three feature kernels, frames already in GPU
 *     memory (timestamp queries; 32 frames back to back, and one alone);
 *   - frames per second of appsrc ! vkvmaf ! fakesink with both inputs in
 *     Vulkan buffers (wall clock);
 *   - libvmaf on the same frames, when the user built it
 *     (tools/build-libvmaf.sh --optimised, its runner given with
 *     --libvmaf-runner): its CPU extractors on every core, and its CUDA ones
 *     where that libvmaf has them (their first scores beside its CPU's);
 *   - where that time goes: each kernel dispatch's share of it, and each
 *     level's (vkvmaf-frame.cpp) (--breakdown);
 *   - a check that vkvmaf's first frames (scores and features, from its
 *     messages) equal the CPU references' (and libvmaf's scores) exactly.
 *
 *   bench-vmaf [--frames N] [--sizes 1080,2160] [--bits 10] [--check N]
 *              [--libvmaf-runner PATH] [--libvmaf-frames N] [--threads N]
 *              [--libvmaf-selftest N] [--no-pipeline] [--breakdown]
 *              [--vif-tile WxH] [--vif-block HxV] [--vif-threads N]
 *              [--vif-strip N] [--vif-strip-along N[,N1...]] [--vif-sym 0|1] [--vif-wrap N]
 *              [--vif-slide MASK] [--vif-tails-last]
 *
 * --libvmaf-selftest N runs only the runner's CUDA self-test on each clip's
 * first N frames (vmaf-bench-libvmaf --cuda-selftest: libvmaf's device
 * pictures read back, failing CUDA calls named, its CUDA scores beside its
 * CPU's); exit status 1 when one fails.
 *
 * The --vif-* options override the VIF kernel's tuning (see
 * VifKernelOptions), to compare settings on one device.
 *
 * --check 0 skips the check; --check-only runs only the check.
 * Exit status 1 when a check differs.
 */
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <glib/gstdio.h>

#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>

#include "bench-check.h"
#include "bench-frames.h"
#include "bench-libvmaf.h"
#include "bench-luma.h"
#include "bench-util.h"
#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvktimer.h"
#include "vkvmaf-extractor.h"

using namespace gpc;
using namespace gpc_bench;

static const unsigned kDistinct = 8;  /* distinct frame pairs, cycled */
static const unsigned kStream = 32;   /* frames back to back per timing */

namespace {

/* vkvmaf's extractors for vmaf_v0.6.1, as the element makes them. */
struct Kernels {
  VmafExtractors extractors;
  unsigned recorded = 0; /* frames of this size so far: the first has no previous one */
};
static_assert (kStream <= kVmafSlots, "a result slot per frame of a stream");

struct Frames {
  std::vector<GstBuffer *> ref, dist;  /* luma, device-local */
  LumaLayout layout;
  gsize stride;
};

/* One frame's work as vkvmaf records it (vmaf_record_frame): motion SAD
 * against the reference recorded before, VIF and ADM of the pair. */
bool
record_frame (VkExec *exec, Kernels &k, const Frames &f, unsigned i, unsigned w, unsigned h,
    GError **err)
{
  const unsigned n = f.ref.size ();
  auto plane = [&] (GstBuffer *b) {
    StoragePlane p;
    p.mem = vk_buffer_memory (b);
    p.stride = (uint32_t) f.stride;
    p.holder = b; /* borrowed: the motion extractor takes its own reference */
    return p;
  };
  VmafPair pair;
  pair.ref = plane (f.ref[i % n]);
  pair.dist = plane (f.dist[i % n]);
  pair.layout = f.layout;
  pair.width = w;
  pair.height = h;
  VmafFrameWork work;
  work.sad = k.recorded++ > 0;
  work.spatial = true;
  return vmaf_record_frame (exec, k.extractors, pair, work, i % kStream, err);
}

/* GPU microseconds per frame: kStream frames in one command buffer, and one
 * frame alone between full barriers (median). */
void
time_kernels (VkExec *exec, VkGpuTimer *timer, Kernels &k, const Frames &f, unsigned w,
    unsigned h, double *stream_us, double *single_us)
{
  GError *err = NULL;
  std::vector<double> ns, singles;
  /* Warm-up (pipelines, tables, scratch, and the GPU's clocks, which an
   * idle GPU takes a while to raise): rep 0, repeated for half a second. */
  const Clock::time_point warm_start = Clock::now ();
  for (int rep = 0; rep < 3; rep++) {
    if (rep == 1 && seconds_since (warm_start) < 0.5)
      rep = 0;
    bool ok = exec->begin (&err);
    timer->reset (exec->cmd ());
    timer->stamp (exec->cmd (), 0);
    for (unsigned i = 0; ok && i < kStream; i++)
      ok = record_frame (exec, k, f, i, w, h, &err);
    timer->stamp (exec->cmd (), 1);
    for (unsigned i = 0; ok && i < 4; i++) {
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
      timer->stamp (exec->cmd (), 2 + 2 * i);
      ok = record_frame (exec, k, f, i, w, h, &err);
      exec->global_barrier (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
          VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT);
      timer->stamp (exec->cmd (), 3 + 2 * i);
    }
    if (!ok) {
      fprintf (stderr, "recording failed: %s\n", err ? err->message : "?");
      exit (1);
    }
    submit_timed (exec, timer, ns);
    if (rep == 0)
      continue;
    *stream_us = (ns[1] - ns[0]) / 1000.0 / kStream;
    for (unsigned i = 0; i < 4; i++)
      singles.push_back ((ns[3 + 2 * i] - ns[2 + 2 * i]) / 1000.0);
  }
  *single_us = median (singles);
}

/* Names of one frame's dispatches, in recording order: level by level (see
 * vkvmaf-frame.cpp), each VIF tail beside the next scale, or with
 * --vif-tails-last all at the last level. */
const char *const kDispatchNames[] = {
  "VIF scale 0", "ADM DWT 0",
  "VIF tail 0", "VIF scale 1", "ADM masked 0 + DWT 1",
  "VIF tail 1", "VIF scale 2", "ADM masked 1 + DWT 2", "ADM rows 0",
  "VIF tail 2", "VIF scale 3", "ADM masked 2 + DWT 3", "ADM rows 1",
  "VIF tail 3", "ADM masked 3 + rows 3", "ADM rows 2",
  "motion SAD",
};
const char *const kDispatchNamesTailsLast[] = {
  "VIF scale 0", "ADM DWT 0",
  "VIF scale 1", "ADM masked 0 + DWT 1",
  "VIF scale 2", "ADM masked 1 + DWT 2", "ADM rows 0",
  "VIF scale 3", "ADM masked 2 + DWT 3", "ADM rows 1",
  "VIF tail 0", "VIF tail 1", "VIF tail 2", "VIF tail 3", "ADM masked 3 + rows 3", "ADM rows 2",
  "motion SAD",
};
const unsigned kDispatches = G_N_ELEMENTS (kDispatchNames);
static_assert (G_N_ELEMENTS (kDispatchNamesTailsLast) == kDispatches, "one name per dispatch");

/* Where bench-vmaf puts its timestamps in a frame (VkExec): after every
 * dispatch (each then marks when the work before it ended, so the
 * dispatches of a level, which would overlap, take their turns), or before
 * every level's barrier (each marks when the previous level ended, its
 * dispatches having run side by side). */
enum class Marks { kDispatches, kLevels };

/* GPU microseconds from each mark of a frame to the next (the last: to the
 * end of the frame's work), kStream frames back to back. */
void
time_marks (VkExec *exec, Kernels &k, const Frames &f, unsigned w, unsigned h, Marks marks,
    std::vector<double> &us)
{
  GError *err = NULL;
  const unsigned most = 64;
  const uint32_t n_stamps = 1 + kStream * most;
  VkGpuTimer *timer = VkGpuTimer::create (exec->queue (), n_stamps, &err);
  if (!timer) {
    fprintf (stderr, "timer: %s\n", err ? err->message : "?");
    exit (1);
  }
  const bool dispatches = marks == Marks::kDispatches;
  /* After every dispatch: a first stamp at the start. */
  const uint32_t first = dispatches ? 1 : 0;
  std::vector<double> ns;
  unsigned per_frame = 0;
  for (int rep = 0; rep < 2; rep++) {
    bool ok = exec->begin (&err);
    timer->reset (exec->cmd ());
    if (dispatches) {
      timer->stamp (exec->cmd (), 0);
      exec->time_dispatches (timer, first);
    } else {
      exec->time_barriers (timer, first);
    }
    for (unsigned i = 0; ok && i < kStream; i++)
      ok = record_frame (exec, k, f, i, w, h, &err);
    const uint32_t stamps = exec->next_stamp ();
    exec->time_dispatches (nullptr, 0);
    /* The frames' end, then the stamps left over: the read waits for all. */
    for (uint32_t q = stamps; q < n_stamps; q++)
      timer->stamp (exec->cmd (), q);
    per_frame = (stamps - first) / kStream;
    if (!ok || per_frame == 0 || per_frame > most || stamps != first + kStream * per_frame
        || (dispatches && per_frame != kDispatches)) {
      fprintf (stderr, "recording failed: %s\n", err ? err->message : "stamp count");
      exit (1);
    }
    submit_timed (exec, timer, ns);
  }
  us.assign (per_frame, 0.0);
  for (unsigned i = 0; i < kStream; i++)
    for (unsigned m = 0; m < per_frame; m++)
      us[m] += (ns[i * per_frame + m + 1] - ns[i * per_frame + m]) / 1000.0 / kStream;
  delete timer;
}

/* "<size>: GPU us per <what>: <name> <us>, ... (sum <us>)", names from
 * `names` or else the index. */
std::string
marks_line (const char *size, const char *what, const std::vector<double> &us,
    const char *const *names)
{
  std::string line = std::string (size) + ": GPU us per " + what + ":";
  double total = 0;
  for (unsigned m = 0; m < us.size (); m++) {
    gchar *item = names ? g_strdup_printf ("%s %s %.1f", m ? "," : "", names[m], us[m])
                        : g_strdup_printf ("%s %u %.1f", m ? "," : "", m, us[m]);
    line += item;
    g_free (item);
    total += us[m];
  }
  gchar *sum = g_strdup_printf (" (sum %.1f)", total);
  line += sum;
  g_free (sum);
  return line;
}

struct PipelineRun {
  double fps = 0;
  std::vector<GstStructure *> frames;  /* the "VMAF" frame messages, in order */
  ~PipelineRun ()
  {
    for (GstStructure *s : frames)
      gst_structure_free (s);
  }
};

/* appsrc (ref) + appsrc (dist) ! vkvmaf ! fakesink over `n` frame pairs;
 * with `messages`, keeps vkvmaf's per-frame messages. */
void
run_pipeline (Device &dev, const Frames &f, unsigned w, unsigned h, unsigned bits, unsigned n,
    bool messages, PipelineRun *run)
{
  const char *fmt = bits == 8 ? "I420" : bits == 10 ? "I420_10LE" : "I420_12LE";
  gchar *caps = g_strdup_printf ("video/x-raw(memory:VulkanBuffer),format=%s,width=%u,"
      "height=%u,framerate=60/1", fmt, w, h);
  gchar *launch = g_strdup_printf ("appsrc name=ref format=time caps=\"%s\" ! v.ref_sink "
      "appsrc name=dist format=time caps=\"%s\" ! v.dist_sink "
      "vkvmaf name=v frame-message=%s frames-in-flight=4 ! fakesink sync=false", caps, caps,
      messages ? "true" : "false");
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (launch, &err);
  g_free (launch);
  g_free (caps);
  if (!pipe) {
    fprintf (stderr, "pipeline: %s\n", err ? err->message : "?");
    exit (1);
  }
  GstElement *v = gst_bin_get_by_name (GST_BIN (pipe), "v");
  gpc_vk_element_set_device (v, dev.instance, dev.device);
  gst_object_unref (v);
  GstElement *src[2] = { gst_bin_get_by_name (GST_BIN (pipe), "ref"),
    gst_bin_get_by_name (GST_BIN (pipe), "dist") };
  const GstVideoFormat format = gst_video_format_from_string (fmt);
  std::vector<GstBuffer *> frames[2];
  for (unsigned i = 0; i < f.ref.size (); i++) {
    frames[0].push_back (vk_video_frame (dev.device, f.ref[i], format, w, h, f.stride));
    frames[1].push_back (vk_video_frame (dev.device, f.dist[i], format, w, h, f.stride));
  }

  gst_element_set_state (pipe, GST_STATE_PLAYING);
  const Clock::time_point t0 = Clock::now ();
  for (unsigned i = 0; i < n; i++) {
    for (int s = 0; s < 2; s++) {
      GstBuffer *b = gst_buffer_copy (frames[s][i % frames[s].size ()]);
      GST_BUFFER_PTS (b) = gst_util_uint64_scale (i, GST_SECOND, 60);
      GST_BUFFER_DURATION (b) = GST_SECOND / 60;
      gst_app_src_push_buffer (GST_APP_SRC (src[s]), b);
    }
  }
  for (int s = 0; s < 2; s++)
    gst_app_src_end_of_stream (GST_APP_SRC (src[s]));
  GstBus *bus = gst_element_get_bus (pipe);
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop_filtered (bus, 300 * GST_SECOND,
        (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT));
    if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *e = NULL;
      if (msg)
        gst_message_parse_error (msg, &e, NULL);
      fprintf (stderr, "pipeline failed: %s\n", e ? e->message : "time-out");
      /* Stopped first: GStreamer's exit handler waits for running pipelines. */
      gst_element_set_state (pipe, GST_STATE_NULL);
      exit (1);
    }
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS) {
      gst_message_unref (msg);
      break;
    }
    const GstStructure *s = gst_message_get_structure (msg);
    if (gst_structure_has_name (s, "VMAF")
        && !g_strcmp0 (gst_structure_get_string (s, "type"), "frame"))
      run->frames.push_back (gst_structure_copy (s));
    gst_message_unref (msg);
  }
  run->fps = n / seconds_since (t0);
  gst_object_unref (bus);
  gst_element_set_state (pipe, GST_STATE_NULL);
  for (int s = 0; s < 2; s++) {
    gst_object_unref (src[s]);
    for (GstBuffer *b : frames[s])
      gst_buffer_unref (b);
  }
  gst_object_unref (pipe);
}

/* vkvmaf's first `n` frames against the CPU references (every value) and
 * libvmaf's scores (those it printed); prints each difference. */
bool
check (Device &dev, const Frames &f, const VmafBenchClip &clip, unsigned n,
    const LibvmafResult &cpu, std::string *summary)
{
  PipelineRun run;
  run_pipeline (dev, f, clip.width, clip.height, clip.bits, n, true, &run);
  CpuScores ref;
  std::string why;
  if (!cpu_reference_scores (clip, n, &ref, &why)) {
    fprintf (stderr, "CPU reference: %s\n", why.c_str ());
    exit (1);
  }
  bool ok = run.frames.size () == ref.frames.size ();
  if (!ok)
    printf ("CHECK %ux%u: vkvmaf scored %zu frames, the CPU %zu\n", clip.width, clip.height,
        run.frames.size (), ref.frames.size ());
  unsigned values = 0, libvmaf_equal = 0;
  for (size_t i = 0; i < run.frames.size () && i < ref.frames.size (); i++) {
    for (size_t c = 0; c < ref.columns.size (); c++) {
      const std::string field = c + 1 == ref.columns.size () ? "score" : ref.columns[c];
      double g = NAN;
      gst_structure_get_double (run.frames[i], field.c_str (), &g);
      values++;
      if (g != ref.frames[i].values[c]) {
        printf ("CHECK %ux%u frame %zu %s: vkvmaf %.17g, CPU reference %.17g\n", clip.width,
            clip.height, i, field.c_str (), g, ref.frames[i].values[c]);
        ok = false;
      }
    }
    /* libvmaf ran on more frames: its last frames' motion2 saw a successor
     * that this run ends before. */
    if (i + 1 < run.frames.size () && i < cpu.scores.size ()) {
      double g = NAN;
      gst_structure_get_double (run.frames[i], "score", &g);
      if (g == cpu.scores[i]) {
        libvmaf_equal++;
      } else {
        printf ("CHECK %ux%u frame %zu: vkvmaf %.17g, libvmaf %.17g\n", clip.width, clip.height,
            i, g, cpu.scores[i]);
        ok = false;
      }
    }
  }
  char buf[160];
  snprintf (buf, sizeof buf, "%s (%u values of %zu frames%s)", ok ? "identical" : "DIFFERENT",
      values, run.frames.size (), libvmaf_equal ? ", and libvmaf's scores" : "");
  *summary = buf;
  return ok;
}

} // namespace

int
main (int argc, char **argv)
{
  unsigned n_frames = 600, check_frames = 3, libvmaf_frames = 48, threads = 0, selftest = 0;
  bool pipeline = true, check_only = false, breakdown = false;
  VifKernelOptions vif_options;
  std::string runner;
  std::vector<unsigned> sizes = { 1080, 2160 }, bits = { 10 };
  for (int i = 1; i < argc; i++) {
    const bool has = i + 1 < argc;
    if (!strcmp (argv[i], "--frames") && has)
      n_frames = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--sizes") && has)
      sizes = parse_list (argv[++i]);
    else if (!strcmp (argv[i], "--bits") && has)
      bits = parse_list (argv[++i]);
    else if (!strcmp (argv[i], "--check") && has)
      check_frames = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--check-only"))
      check_only = true;
    else if (!strcmp (argv[i], "--libvmaf-runner") && has)
      runner = argv[++i];
    else if (!strcmp (argv[i], "--libvmaf-frames") && has)
      libvmaf_frames = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--threads") && has)
      threads = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--libvmaf-selftest") && has)
      selftest = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--no-pipeline"))
      pipeline = false;
    else if (!strcmp (argv[i], "--breakdown"))
      breakdown = true;
    else if (!strcmp (argv[i], "--vif-tile") && has)
      sscanf (argv[++i], "%ux%u", &vif_options.tile_w, &vif_options.tile_h);
    else if (!strcmp (argv[i], "--vif-block") && has)
      sscanf (argv[++i], "%ux%u", &vif_options.block_h, &vif_options.block_v);
    else if (!strcmp (argv[i], "--vif-threads") && has)
      vif_options.threads = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--vif-strip") && has)
      vif_options.strip = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--vif-strip-along") && has) {
      /* N, or N0,N1,...: scale s's from the s-th, the last for the rest. */
      std::vector<unsigned> v = gpc_bench::parse_list (argv[++i]);
      for (int sc = 0; sc < gpc::kVifScales && !v.empty (); sc++)
        vif_options.strip_along_scale[sc] = (uint32_t) v[std::min<size_t> (sc, v.size () - 1)];
    }
    else if (!strcmp (argv[i], "--vif-sym") && has)
      vif_options.symmetric = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--vif-wrap") && has)
      vif_options.wrap = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--vif-slide") && has)
      vif_options.along_rows = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--vif-tails-last"))
      vif_options.tails_last = true;
    else {
      fprintf (stderr, "unknown argument %s (see the head of bench-vmaf.cpp)\n", argv[i]);
      return 2;
    }
  }
  gst_init (&argc, &argv);

  GError *err = NULL;
  Device dev;
  if (!open_device (&dev))
    return 1;
  VkExec *exec = VkExec::create (dev.queue, &err);
  Kernels k;
  VmafNeeds needs;
  needs.vif = needs.adm = needs.motion = true;
  const bool made = exec && vmaf_extractors (dev.device, needs, vif_options, &k.extractors, &err);
  VkGpuTimer *timer = made ? VkGpuTimer::create (dev.queue, 2 + 8, &err) : NULL;
  if (!timer) {
    fprintf (stderr, "setup failed: %s\n", err ? err->message : "?");
    return 1;
  }
  VkBufferCache staging (dev.device, true);
  gchar *tmpdir = runner.empty () ? NULL : g_dir_make_tmp ("bench-vmaf-XXXXXX", NULL);

  const VkPhysicalDeviceProperties &props = dev.device->physical_device->properties;
  printf ("vkvmaf benchmark (vmaf_v0.6.1: VIF, ADM, motion)\nGPU: %s (Vulkan %u.%u, driver %u)\n"
      "CPU: %u threads online\n", props.deviceName, VK_VERSION_MAJOR (props.apiVersion),
      VK_VERSION_MINOR (props.apiVersion), props.driverVersion, g_get_num_processors ());
  if (runner.empty ())
    printf ("libvmaf: not given (--libvmaf-runner, from tools/build-libvmaf.sh --optimised)\n");
  printf ("%-13s %10s %10s %10s %12s %12s %10s %10s %10s\n", "frame", "GPU ms", "GPU 1 frm",
      "pipe fps", "libvmaf CPU", "libvmaf CUDA", "CPU/GPU", "CUDA/GPU", "CPU/pipe");

  int status = 0;
  std::vector<std::string> notes;
  for (unsigned s : sizes) {
    for (unsigned b : bits) {
      const unsigned w = s == 2160 ? 3840 : s == 1080 ? 1920 : (s * 16 / 9 + 1) & ~1u, h = s;
      const VmafBenchClip clip = make_vmaf_bench_clip (w, h, b, kDistinct, 0x5eed0000u + s + b);
      if (selftest) {
        std::string ref_file, dist_file;
        printf ("%up %u-bit:\n", s, b);
        const int rc = !tmpdir ? -1 : !write_clip_files (clip, tmpdir, &ref_file, &dist_file) ? -2
            : selftest_libvmaf_cuda (runner, clip, ref_file, dist_file, selftest);
        if (rc < 0)
          printf ("libvmaf CUDA self-test not run: %s\n", rc == -1 && !tmpdir
              ? "no --libvmaf-runner" : rc == -2 ? "cannot write the frames" : "see above");
        if (!ref_file.empty ()) {
          g_unlink (ref_file.c_str ());
          g_unlink (dist_file.c_str ());
        }
        status |= rc != 0;
        continue;
      }
      Frames f;
      luma_layout_for_format (b == 8 ? GST_VIDEO_FORMAT_I420 : b == 10 ?
          GST_VIDEO_FORMAT_I420_10LE : GST_VIDEO_FORMAT_I420_12LE, &f.layout);
      f.stride = GST_ROUND_UP_4 (luma_row_bytes (f.layout, w));
      for (unsigned i = 0; i < kDistinct; i++) {
        f.ref.push_back (upload_luma (exec, staging, clip.ref[i], f.layout, w, h, f.stride));
        f.dist.push_back (upload_luma (exec, staging, clip.dist[i], f.layout, w, h, f.stride));
      }
      char name[32];
      snprintf (name, sizeof name, "%up %u-bit", s, b);

      LibvmafResult cpu, cuda;
      std::string ref_file, dist_file;
      if (tmpdir && !write_clip_files (clip, tmpdir, &ref_file, &dist_file)) {
        cpu.why = cuda.why = "cannot write the frames for libvmaf";
      } else if (tmpdir) {
        cpu = run_libvmaf (runner, clip, ref_file, dist_file, libvmaf_frames, threads, false,
            check_frames);
        if (!check_only)
          cuda = run_libvmaf (runner, clip, ref_file, dist_file, libvmaf_frames * 4, 0, true,
              check_frames);
        g_unlink (ref_file.c_str ());
        g_unlink (dist_file.c_str ());
        if (!cpu.ran)
          notes.push_back (std::string (name) + ": libvmaf CPU: " + cpu.why);
        if (!cuda.ran && !check_only)
          notes.push_back (std::string (name) + ": libvmaf CUDA: " + cuda.why);
        /* The CUDA run's first scores beside libvmaf's own CPU ones: a note,
         * not a check, that shows the timed CUDA run computed VMAF. */
        if (cuda.ran && cpu.ran && !cuda.scores.empty ()) {
          const size_t n = std::min (cuda.scores.size (), cpu.scores.size ());
          double worst = 0;
          for (size_t i = 0; i < n; i++)
            worst = std::max (worst, fabs (cuda.scores[i] - cpu.scores[i]));
          gchar *line = worst == 0
              ? g_strdup_printf ("%s: libvmaf CUDA's scores of %zu frames equal its CPU's", name, n)
              : g_strdup_printf ("%s: libvmaf CUDA's scores of %zu frames differ from its CPU's "
                  "by up to %.3g", name, n, worst);
          notes.push_back (line);
          g_free (line);
        }
      }

      if (check_frames) {
        std::string summary;
        if (!check (dev, f, clip, check_frames, cpu, &summary))
          status = 1;
        notes.push_back (std::string (name) + ": vkvmaf against the CPU references: " + summary);
      }
      if (!check_only) {
        double stream_us = 0, single_us = 0;
        time_kernels (exec, timer, k, f, w, h, &stream_us, &single_us);
        PipelineRun run;
        if (pipeline)
          run_pipeline (dev, f, w, h, b, n_frames, false, &run);
        const double gpu_ms = stream_us / 1000.0;
        auto ms = [] (const LibvmafResult &r) {
          return r.ran ? g_strdup_printf ("%.2f", r.ms_per_frame) : g_strdup ("-");
        };
        auto ratio = [] (bool ran, double num, double den) {
          return ran && den > 0 ? g_strdup_printf ("%.1fx", num / den) : g_strdup ("-");
        };
        gchar *c1 = ms (cpu), *c2 = ms (cuda), *r1 = ratio (cpu.ran, cpu.ms_per_frame, gpu_ms),
            *r2 = ratio (cuda.ran, cuda.ms_per_frame, gpu_ms),
            *r3 = ratio (cpu.ran && run.fps > 0, run.fps, 1000.0 / cpu.ms_per_frame);
        printf ("%-13s %10.3f %10.3f %10.0f %12s %12s %10s %10s %10s\n", name, gpu_ms,
            single_us / 1000.0, run.fps, c1, c2, r1, r2, r3);
        fflush (stdout);
        g_free (c1), g_free (c2), g_free (r1), g_free (r2), g_free (r3);
        if (!cpu.version.empty ())
          notes.push_back (std::string (name) + ": libvmaf " + cpu.version);
        if (breakdown) {
          std::vector<double> us;
          time_marks (exec, k, f, w, h, Marks::kDispatches, us);
          notes.push_back (marks_line (name, "dispatch", us,
              vif_options.tails_last ? kDispatchNamesTailsLast : kDispatchNames));
          time_marks (exec, k, f, w, h, Marks::kLevels, us);
          notes.push_back (marks_line (name, "level", us, nullptr));
        }
      }
      /* The next size starts a new motion history. */
      for (auto &e : k.extractors)
        e->reset ();
      k.recorded = 0;
      for (GstBuffer *g : f.ref)
        gst_buffer_unref (g);
      for (GstBuffer *g : f.dist)
        gst_buffer_unref (g);
    }
  }
  printf ("GPU ms: GPU time per frame pair (motion, VIF, ADM kernels), %u frames back to back;\n"
      "GPU 1 frm: one frame alone; pipe fps: two appsrc (Vulkan buffers) ! vkvmaf ! fakesink,\n"
      "wall clock; libvmaf: ms per frame, wall clock, its CPU extractors on %s threads (frames\n"
      "in its pictures before the clock starts), its CUDA ones with the frames copied from\n"
      "device memory; X/GPU: libvmaf's time over vkvmaf's GPU time; CPU/pipe: the pipeline's\n"
      "fps over libvmaf CPU's.\n", kStream, threads ? std::to_string (threads).c_str () : "all");
  for (const std::string &n : notes)
    printf ("%s\n", n.c_str ());

  if (tmpdir)
    g_rmdir (tmpdir);
  g_free (tmpdir);
  /* What the last submissions hold goes back to the kernels first. */
  exec->wait_idle (G_MAXUINT64);
  k.extractors.clear ();
  delete timer;
  delete exec;
  return status;
}
