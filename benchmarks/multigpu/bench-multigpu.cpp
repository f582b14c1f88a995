/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Many pipelines in one process over several GPUs: throughput per GPU count.
 *
 *   bench-multigpu --clip CLIP.mov [--gpus 1,2] [--per-gpu 1,2,4] [--runs N]
 *                  [--workload prores,vmaf] [--first-device D] [--spread]
 *                  [--instance-per-gpu]
 *
 * For each GPU count G and pipelines per GPU P, G x P pipelines run at once
 * in this process, pipeline j with device-index D + j % G (D: --first-device,
 * 0; several processes can share a host's GPUs that way):
 *   prores: filesrc ! qtdemux ! queue ! vkproresdec ! VulkanBuffer ! fakesink
 *   vmaf:   the same decode, then tee to both pads of vkvmaf (full VMAF of
 *           the frames against themselves: the same GPU work as two clips)
 * Every pipeline prerolls, then all go to PLAYING together; throughput is
 * the frames that reached the sinks after that, over the time until the last
 * EOS (best of --runs). Printed per row: aggregate fps, fps per GPU, the
 * scaling efficiency against one GPU with the same P (fps(G) / (G x fps(1))),
 * With --spread, one more row per P after the largest G: the same G x P
 * pipelines with device-index=-2 on the decoder (each pipeline takes the
 * next GPU in turn, nothing pinned), to compare with explicit placement.
 * --instance-per-gpu: the program opens one VkInstance and device per GPU
 * and hands each pipeline its GPU's pair through GstContext, as an
 * application may, instead of the elements' process-wide instance.
 * Also printed: the cores the process kept busy (CPU time / wall time) and its minor page
 * faults per frame, which name a host-side bound where the efficiency falls
 * short.
 */
#include <gst/gst.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench-util.h"
#include "compute/gpcvkcontext.h"

namespace {

struct Pipe {
  GstElement *pipe = nullptr;
  std::atomic<guint64> frames { 0 };
  guint device = 0;
};

GstPadProbeReturn
count_frame (GstPad *, GstPadProbeInfo *, gpointer data)
{
  ((Pipe *) data)->frames++;
  return GST_PAD_PROBE_OK;
}

/* CPU seconds (user and system) and minor page faults of the process. */
double
cpu_seconds (long *faults)
{
  struct rusage u;
  getrusage (RUSAGE_SELF, &u);
  *faults = u.ru_minflt;
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/* `device` -2: spread over the GPUs by the elements themselves. */
std::string
describe (const std::string &workload, const char *clip, gint device)
{
  std::string loc = std::string ("filesrc location=\"") + clip + "\" ! qtdemux ! queue ! ";
  std::string dev = " device-index=" + std::to_string (device);
  std::string vmaf_dev = device >= 0 ? dev : "";
  if (workload == "prores")
    return loc + "vkproresdec name=dec" + dev +
           " ! video/x-raw(memory:VulkanBuffer) ! fakesink name=sink sync=false";
  return loc + "vkproresdec name=dec" + dev + " ! video/x-raw(memory:VulkanBuffer) ! tee name=t "
         "t. ! queue ! vmaf.ref_sink t. ! queue ! vmaf.dist_sink vkvmaf name=vmaf frame-message=false" +
         vmaf_dev + " ! fakesink name=sink sync=false";
}

/* Waits for `type` (or an error, which ends the program) on every pipeline. */
void
wait_all (std::vector<Pipe> &pipes, GstMessageType type, std::vector<double> *when,
    gpc_bench::Clock::time_point t0)
{
  for (size_t i = 0; i < pipes.size (); i++) {
    GstBus *bus = gst_element_get_bus (pipes[i].pipe);
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 600 * GST_SECOND,
        (GstMessageType) (type | GST_MESSAGE_ERROR));
    gst_object_unref (bus);
    if (!m || GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *e = NULL;
      if (m)
        gst_message_parse_error (m, &e, NULL);
      fprintf (stderr, "pipeline %zu: %s\n", i, e ? e->message : "timed out");
      exit (1);
    }
    gst_message_unref (m);
    if (when)
      (*when)[i] = gpc_bench::seconds_since (t0);
  }
}

struct Result {
  double fps = 0, cores = 0, faults_per_frame = 0;
  std::vector<double> per_gpu;
};

guint first_device;

/* --instance-per-gpu: an instance and device per physical device. */
struct OwnDevice {
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
};
std::vector<OwnDevice> own_devices;

void
open_own_devices (guint n)
{
  for (guint i = 0; i < n; i++) {
    OwnDevice d;
    d.instance = gst_vulkan_instance_new ();
    GError *err = NULL;
    if (!gst_vulkan_instance_open (d.instance, &err)) {
      fprintf (stderr, "instance: %s\n", err->message);
      exit (1);
    }
    d.device = gst_vulkan_device_new_with_index (d.instance, first_device + i);
    if (!gst_vulkan_device_open (d.device, &err)) {
      fprintf (stderr, "device %u: %s\n", first_device + i, err->message);
      exit (1);
    }
    own_devices.push_back (d);
  }
}

/* The physical device index that `pipe`'s decoder runs on. */
guint
decoder_device (GstElement * pipe)
{
  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipe), "dec");
  GstQuery *q = gst_query_new_context (GST_VULKAN_DEVICE_CONTEXT_TYPE_STR);
  guint index = 0;
  if (gst_element_query (dec, q)) {
    GstContext *c = NULL;
    GstVulkanDevice *d = NULL;
    gst_query_parse_context (q, &c);
    if (c && gst_context_get_vulkan_device (c, &d) && d) {
      index = d->physical_device->device_index;
      gst_object_unref (d);
    }
  }
  gst_query_unref (q);
  gst_object_unref (dec);
  return index;
}

Result
run_once (const std::string &workload, const char *clip, guint gpus, guint per_gpu,
    std::map<guint, std::string> *names, bool spread)
{
  std::vector<Pipe> pipes (gpus * per_gpu);
  for (size_t j = 0; j < pipes.size (); j++) {
    pipes[j].device = j % gpus;
    GError *err = NULL;
    pipes[j].pipe = gst_parse_launch (describe (workload, clip,
        spread ? -2 : (gint) (first_device + pipes[j].device)).c_str (), &err);
    if (!pipes[j].pipe) {
      fprintf (stderr, "%s\n", err->message);
      exit (1);
    }
    GstElement *sink = gst_bin_get_by_name (GST_BIN (pipes[j].pipe), "sink");
    GstPad *pad = gst_element_get_static_pad (sink, "sink");
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_frame, &pipes[j], NULL);
    gst_object_unref (pad);
    gst_object_unref (sink);
    if (!own_devices.empty ())
      gpc_vk_element_set_device (pipes[j].pipe, own_devices[pipes[j].device].instance,
          own_devices[pipes[j].device].device);
    gst_element_set_state (pipes[j].pipe, GST_STATE_PAUSED);
  }
  wait_all (pipes, GST_MESSAGE_ASYNC_DONE, nullptr, gpc_bench::Clock::now ());
  for (Pipe &p : pipes) {
    if (spread) {
      const guint d = decoder_device (p.pipe);
      p.device = d >= first_device && d - first_device < gpus ? d - first_device : 0;
    }
    if (names && !names->count (p.device)) {
      GstElement *dec = gst_bin_get_by_name (GST_BIN (p.pipe), "dec");
      gchar *n = NULL;
      g_object_get (dec, "device-name", &n, NULL);
      (*names)[p.device] = n ? n : "?";
      g_free (n);
      gst_object_unref (dec);
    }
  }
  std::vector<guint64> start (pipes.size ());
  for (size_t j = 0; j < pipes.size (); j++)
    start[j] = pipes[j].frames;
  long faults0, faults1;
  const double cpu0 = cpu_seconds (&faults0);
  auto t0 = gpc_bench::Clock::now ();
  for (Pipe &p : pipes)
    gst_element_set_state (p.pipe, GST_STATE_PLAYING);
  std::vector<double> done (pipes.size ());
  wait_all (pipes, GST_MESSAGE_EOS, &done, t0);
  double wall = 0;
  for (double d : done)
    wall = std::max (wall, d);
  Result r;
  r.cores = (cpu_seconds (&faults1) - cpu0) / wall;
  r.per_gpu.assign (gpus, 0.0);
  guint64 total = 0;
  for (size_t j = 0; j < pipes.size (); j++) {
    guint64 n = pipes[j].frames - start[j];
    total += n;
    r.per_gpu[pipes[j].device] += n / wall;
    gst_element_set_state (pipes[j].pipe, GST_STATE_NULL);
    gst_object_unref (pipes[j].pipe);
  }
  r.fps = total / wall;
  r.faults_per_frame = total ? (double) (faults1 - faults0) / total : 0;
  return r;
}

Result
best_of (const std::string &workload, const char *clip, guint gpus, guint per_gpu,
    std::map<guint, std::string> *names, bool spread, unsigned runs)
{
  Result best;
  for (unsigned k = 0; k < runs; k++) {
    Result r = run_once (workload, clip, gpus, per_gpu, names, spread);
    if (r.fps > best.fps)
      best = r;
  }
  return best;
}

} // namespace

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  const char *clip = nullptr;
  std::vector<unsigned> gpus = { 1, 2 }, per = { 1, 2, 4 };
  std::vector<std::string> workloads = { "prores", "vmaf" };
  unsigned runs = 3;
  bool spread = false, instance_per_gpu = false;
  for (int i = 1; i < argc; i++) {
    auto arg = [&] (const char *name) {
      if (strcmp (argv[i], name) || i + 1 >= argc)
        return (const char *) nullptr;
      return (const char *) argv[++i];
    };
    const char *v;
    if ((v = arg ("--clip")))
      clip = v;
    else if ((v = arg ("--gpus")))
      gpus = gpc_bench::parse_list (v);
    else if ((v = arg ("--per-gpu")))
      per = gpc_bench::parse_list (v);
    else if (!strcmp (argv[i], "--spread"))
      spread = true;
    else if (!strcmp (argv[i], "--instance-per-gpu"))
      instance_per_gpu = true;
    else if ((v = arg ("--first-device")))
      first_device = (guint) atoi (v);
    else if ((v = arg ("--runs")))
      runs = std::max (1, atoi (v));
    else if ((v = arg ("--workload"))) {
      workloads.clear ();
      gchar **w = g_strsplit (v, ",", -1);
      for (gchar **p = w; *p; p++)
        workloads.push_back (*p);
      g_strfreev (w);
    } else {
      fprintf (stderr, "usage: bench-multigpu --clip CLIP.mov [--gpus 1,2] [--per-gpu 1,2,4] "
          "[--runs N] [--workload prores,vmaf] [--first-device D] [--spread] [--instance-per-gpu]\n");
      return 2;
    }
  }
  if (!clip) {
    fprintf (stderr, "bench-multigpu: --clip is required\n");
    return 2;
  }
  if (instance_per_gpu)
    open_own_devices (*std::max_element (gpus.begin (), gpus.end ()));
  printf ("clip %s; %u cores on the host; best of %u runs%s\n", clip, g_get_num_processors (), runs,
      instance_per_gpu ? "; an instance and device per GPU from the program" : "");
  for (const std::string &w : workloads) {
    printf ("\n%s: GPUs, pipelines per GPU, aggregate fps, fps per GPU, scaling efficiency, "
        "host cores busy, page faults per frame\n", w == "prores" ? "vkproresdec (GPU-resident output)" :
        "vkproresdec + vkvmaf (full VMAF)");
    std::map<guint, std::string> names;
    for (unsigned p : per) {
      double one = 0;
      for (unsigned g : gpus) {
        Result best = best_of (w, clip, g, p, &names, false, runs);
        if (g == 1)
          one = best.fps;
        std::string each;
        for (double f : best.per_gpu)
          each += (each.empty () ? "" : " / ") + std::to_string ((int) (f + 0.5));
        if (one > 0)
          printf ("%u GPU  %u per GPU  %8.0f fps  [%s]  %5.1f %%  %.1f cores  %.0f faults\n", g, p,
              best.fps, each.c_str (), 100.0 * best.fps / (g * one), best.cores,
              best.faults_per_frame);
        else
          printf ("%u GPU  %u per GPU  %8.0f fps  [%s]  (no 1-GPU row)  %.1f cores  %.0f faults\n",
              g, p, best.fps, each.c_str (), best.cores, best.faults_per_frame);
        fflush (stdout);
      }
      if (spread && one > 0) {
        const unsigned g = gpus.back ();
        Result best = best_of (w, clip, g, p, &names, true, runs);
        std::string each;
        for (double f : best.per_gpu)
          each += (each.empty () ? "" : " / ") + std::to_string ((int) (f + 0.5));
        printf ("%u GPU  %u per GPU  %8.0f fps  [%s]  %5.1f %%  %.1f cores  %.0f faults  "
            "(device-index=-2)\n", g, p, best.fps, each.c_str (), 100.0 * best.fps / (g * one),
            best.cores, best.faults_per_frame);
        fflush (stdout);
      }
    }
    for (auto &n : names)
      printf ("device-index %u: %s\n", first_device + n.first, n.second.c_str ());
  }
  return 0;
}
