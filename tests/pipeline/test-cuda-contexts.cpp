/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CUDA context handoff: the application makes two GstCudaContexts (on two
 * devices where there are two, else two contexts on device 0) and gives one
 * to each of two pipelines, answering cudaflacdec's need-context
 * (gst.cuda.context) from each pipeline's bus sync handler. Both pipelines
 * run at once; each decoder must report the context it was given (context
 * query), no element may announce a context of its own, and both must
 * decode the same PCM as the CPU backend.
 *
 * Skips (exit 77) where no CUDA device is usable or the plugin was built
 * without its CUDA kernels. CUDA does not survive fork(): the cases run in
 * this process (CK_FORK=no).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <gst/check/gstcheck.h>

#include <mutex>
#include <string>
#include <vector>

#include "gpc-test.h"

#if GPC_HAVE_CUDA_KERNELS
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

namespace {

struct Side {
  const char *tag = "";
  GstCudaContext *cuda = NULL;
  GstElement *pipe = NULL;
  std::mutex lock;
  int answered = 0;
  int foreign_announced = 0;
  std::vector<uint8_t> pcm;
};

GstBusSyncReply
sync_handler (GstBus *bus, GstMessage *msg, gpointer data)
{
  Side *s = static_cast<Side *> (data);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_NEED_CONTEXT) {
    const gchar *type = NULL;
    gst_message_parse_context_type (msg, &type);
    if (!g_strcmp0 (type, GST_CUDA_CONTEXT_TYPE)) {
      GstContext *ctx = gst_context_new_cuda_context (s->cuda);
      gst_element_set_context (GST_ELEMENT (GST_MESSAGE_SRC (msg)), ctx);
      gst_context_unref (ctx);
      std::lock_guard<std::mutex> g (s->lock);
      s->answered++;
    }
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_HAVE_CONTEXT) {
    GstContext *ctx = NULL;
    gst_message_parse_have_context (msg, &ctx);
    if (!g_strcmp0 (gst_context_get_context_type (ctx), GST_CUDA_CONTEXT_TYPE)) {
      std::lock_guard<std::mutex> g (s->lock);
      s->foreign_announced++;
    }
    gst_context_unref (ctx);
  }
  return GST_BUS_PASS;
}

GstPadProbeReturn
keep_pcm (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  Side *s = static_cast<Side *> (data);
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMapInfo map;
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_READ));
  std::lock_guard<std::mutex> g (s->lock);
  s->pcm.insert (s->pcm.end (), map.data, map.data + map.size);
  gst_buffer_unmap (buf, &map);
  return GST_PAD_PROBE_OK;
}

GstCudaContext *
context_of (GstElement *e)
{
  GstQuery *q = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *cuda = NULL;
  if (gst_element_query (e, q)) {
    GstContext *ctx = NULL;
    gst_query_parse_context (q, &ctx);
    if (ctx)
      gst_structure_get (gst_context_get_structure (ctx), GST_CUDA_CONTEXT_TYPE,
          GST_TYPE_CUDA_CONTEXT, &cuda, NULL);
  }
  gst_query_unref (q);
  return cuda;
}

GstElement *
start (const std::string &launch, Side *s)
{
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (launch.c_str (), &error);
  fail_unless (pipe != NULL, "%s", error ? error->message : "?");
  GstBus *bus = gst_element_get_bus (pipe);
  gst_bus_set_sync_handler (bus, sync_handler, s, NULL);
  gst_object_unref (bus);
  GstElement *dec = gst_bin_get_by_name (GST_BIN (pipe), "dec");
  GstPad *pad = gst_element_get_static_pad (dec, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_pcm, s, NULL);
  gst_object_unref (pad);
  gst_object_unref (dec);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  return pipe;
}

void
wait_eos (GstElement *pipe, const char *tag)
{
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 120 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    /* stopped first: a failed check leaves this process (CK_FORK=no), and
     * one that exits with CUDA work under way may never end */
    gst_element_set_state (pipe, GST_STATE_NULL);
  fail_unless (msg != NULL, "pipeline %s: timeout", tag);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &e, &dbg);
    fail ("pipeline %s: error from %s: %s (%s)", tag, GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
        e->message, dbg ? dbg : "");
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
}

int g_devices;

} // namespace

static std::vector<uint8_t> reference_pcm (const std::string &clip);

GST_START_TEST (two_pipelines_two_contexts)
{
  gpc_test::Rng rng = gpc_test::rng ("cuda-contexts");
  static const char *clips[] = { "g16.flac", "g16x8.flac", "g24x6.flac", "pc2.flac" };
  std::string clip = gpc_test::media_dir () + "/flac/" + clips[rng.range (0, 3)];
  std::string src = "filesrc location=\"" + clip + "\" ! flacparse ! ";

  const std::vector<uint8_t> ref_pcm = reference_pcm (clip);

  Side side[2];
  side[0].tag = "A";
  side[1].tag = "B";
  int device[2] = { 0, g_devices > 1 ? 1 : 0 };
  for (int k = 0; k < 2; k++) {
    side[k].cuda = gst_cuda_context_new ((guint) device[k]);
    fail_unless (side[k].cuda != NULL, "gst_cuda_context_new (%d) failed", device[k]);
  }
  fail_unless (side[0].cuda != side[1].cuda);
  printf ("%s: contexts on CUDA devices %d and %d\n", clip.c_str (), device[0], device[1]);

  for (int k = 0; k < 2; k++) {
    gchar *d = g_strdup_printf ("cudaflacdec name=dec backend=cuda cuda-device-id=%d "
        "! fakesink sync=false", device[k]);
    side[k].pipe = start (src + d, &side[k]);
    g_free (d);
  }
  for (int k = 0; k < 2; k++)
    wait_eos (side[k].pipe, side[k].tag);

  for (int k = 0; k < 2; k++) {
    Side &s = side[k];
    GstElement *dec = gst_bin_get_by_name (GST_BIN (s.pipe), "dec");
    GstCudaContext *used = context_of (dec);
    fail_unless (used != NULL, "pipeline %s: cudaflacdec reports no CUDA context", s.tag);
    fail_if (used == side[1 - k].cuda, "pipeline %s: decoder uses the other pipeline's context",
        s.tag);
    fail_unless (used == s.cuda, "pipeline %s: decoder uses a context nobody gave it", s.tag);
    gst_object_unref (used);
    gst_object_unref (dec);
    fail_unless (s.answered > 0, "pipeline %s: the decoder never asked for a context", s.tag);
    fail_unless_equals_int (s.foreign_announced, 0);
    gst_element_set_state (s.pipe, GST_STATE_NULL);
    gst_object_unref (s.pipe);
    fail_unless (s.pcm == ref_pcm, "pipeline %s: PCM differs from the CPU backend (%zu vs %zu bytes)",
        s.tag, s.pcm.size (), ref_pcm.size ());
    printf ("pipeline %s: its own context, %zu PCM bytes equal to the CPU backend\n", s.tag, s.pcm.size ());
    gst_object_unref (s.cuda);
  }
}
GST_END_TEST;

/* cuda-device-id wins over a context of another device: the application
 * offers device 0's context to every pipeline, and a decoder set to device
 * N must decode on device N (its context's cuda-device-id), in a context of
 * its own where N is not 0, and give the CPU backend's PCM. */
GST_START_TEST (device_id_over_offered_context)
{
  std::string clip = gpc_test::media_dir () + "/flac/g16x8.flac";
  const std::vector<uint8_t> ref_pcm = reference_pcm (clip);
  for (int n = 0; n < g_devices; n++) {
    Side s;
    s.tag = "device-id";
    s.cuda = gst_cuda_context_new (0);
    fail_unless (s.cuda != NULL);
    gchar *d = g_strdup_printf ("filesrc location=\"%s\" ! flacparse ! cudaflacdec name=dec "
        "backend=cuda cuda-device-id=%d ! fakesink sync=false", clip.c_str (), n);
    s.pipe = start (d, &s);
    g_free (d);
    wait_eos (s.pipe, s.tag);
    GstElement *dec = gst_bin_get_by_name (GST_BIN (s.pipe), "dec");
    GstCudaContext *used = context_of (dec);
    fail_unless (used != NULL);
    guint dev = G_MAXUINT;
    g_object_get (used, "cuda-device-id", &dev, NULL);
    fail_unless_equals_int ((int) dev, n);
    fail_unless ((used == s.cuda) == (n == 0), "cuda-device-id=%d: context %p, offered %p", n,
        used, s.cuda);
    gst_object_unref (used);
    gst_object_unref (dec);
    gst_element_set_state (s.pipe, GST_STATE_NULL);
    gst_object_unref (s.pipe);
    fail_unless (s.pcm == ref_pcm, "cuda-device-id=%d: PCM differs from the CPU backend", n);
    printf ("cuda-device-id=%d: decoded on CUDA device %u, PCM equal to the CPU backend\n", n, dev);
    gst_object_unref (s.cuda);
  }
}
GST_END_TEST;

/* The reference PCM of a clip: cudaflacdec's CPU backend, which
 * tests/flac holds to `flac -d` sample by sample (RFC 9639 channel order,
 * where 1.22's flacdec puts 7 and 8 channels in its older order). */
static std::vector<uint8_t>
reference_pcm (const std::string &clip)
{
  Side ref;
  ref.tag = "CPU backend";
  GstElement *p = start ("filesrc location=\"" + clip + "\" ! flacparse ! cudaflacdec name=dec backend=cpu ! "
      "fakesink sync=false",
      &ref);
  wait_eos (p, ref.tag);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  fail_unless (!ref.pcm.empty ());
  return ref.pcm;
}

/* cudaflacdec closes into the context it used: its kernels, streams and
 * pinned and device buffers stay with that context for the next decoder
 * there (flac-cuda-decoder.h). One application context serves streams of
 * different formats in turn (buffers grow), two decoders at once (one takes
 * the kept set, the other makes its own, and only one set is kept after),
 * and one pipeline played twice; every stream must decode as the CPU backend does,
 * and the context must go cleanly with a set still kept. */
GST_START_TEST (one_context_reused)
{
  gpc_test::Rng rng = gpc_test::rng ("cuda-contexts-reuse");
  std::vector<std::string> clips;
  for (const char *c : { "g16.flac", "g24x6.flac", "g16x8.flac", "pc2.flac" })
    clips.push_back (gpc_test::media_dir () + "/flac/" + c);
  for (size_t i = clips.size () - 1; i > 0; i--) /* a fresh order every run */
    std::swap (clips[i], clips[rng.range (0, (int) i)]);
  std::vector<std::vector<uint8_t>> ref;
  for (const std::string &c : clips)
    ref.push_back (reference_pcm (c));
  GstCudaContext *cuda = gst_cuda_context_new (0);
  fail_unless (cuda != NULL);
  /* unframed (the pinned input gathers in the CUDA slots) and framed */
  auto launch = [&] (size_t i, bool unframed) {
    return "filesrc location=\"" + clips[i] + "\" ! " + (unframed ? "" : "flacparse ! ") +
        "cudaflacdec name=dec backend=cuda ! fakesink sync=false";
  };
  for (size_t i = 0; i < clips.size (); i++) {
    Side s;
    s.tag = "in turn";
    s.cuda = cuda;
    s.pipe = start (launch (i, i % 2 == 0), &s);
    wait_eos (s.pipe, s.tag);
    gst_element_set_state (s.pipe, GST_STATE_NULL);
    gst_object_unref (s.pipe);
    fail_unless (s.pcm == ref[i], "%s after %zu other streams on the context: PCM differs from the CPU backend",
        clips[i].c_str (), i);
  }
  printf ("%zu streams in turn on one context: equal to the CPU backend\n", clips.size ());
  Side two[2];
  for (int k = 0; k < 2; k++) {
    two[k].tag = k ? "at once B" : "at once A";
    two[k].cuda = cuda;
    two[k].pipe = start (launch ((size_t) k, true), &two[k]);
  }
  for (int k = 0; k < 2; k++) {
    wait_eos (two[k].pipe, two[k].tag);
    gst_element_set_state (two[k].pipe, GST_STATE_NULL);
    gst_object_unref (two[k].pipe);
    fail_unless (two[k].pcm == ref[k], "%s: PCM differs from the CPU backend", two[k].tag);
  }
  printf ("two decoders at once on one context: equal to the CPU backend\n");
  Side again;
  again.tag = "played twice";
  again.cuda = cuda;
  again.pipe = start (launch (2, true), &again);
  wait_eos (again.pipe, again.tag);
  gst_element_set_state (again.pipe, GST_STATE_READY);
  fail_unless (again.pcm == ref[2]);
  again.pcm.clear ();
  fail_if (gst_element_set_state (again.pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);
  wait_eos (again.pipe, again.tag);
  gst_element_set_state (again.pipe, GST_STATE_NULL);
  gst_object_unref (again.pipe);
  fail_unless (again.pcm == ref[2], "second play of one pipeline: PCM differs from the CPU backend");
  printf ("one pipeline played twice: equal to the CPU backend both times\n");
  gst_object_unref (cuda); /* frees the set the last decoder left */
}
GST_END_TEST;

/* Is a CUDA device usable? (the driver library is opened, never linked) */
static int
cuda_devices ()
{
  void *lib = dlopen ("libcuda.so.1", RTLD_NOW);
  if (!lib)
    return 0;
  typedef int (*InitFn) (unsigned);
  typedef int (*CountFn) (int *);
  InitFn init = (InitFn) dlsym (lib, "cuInit");
  CountFn count = (CountFn) dlsym (lib, "cuDeviceGetCount");
  int n = 0;
  if (!init || !count || init (0) != 0 || count (&n) != 0)
    return 0;
  return n;
}

int
main (int argc, char **argv)
{
  /* CUDA does not survive fork(): run the case in this process. */
  setenv ("CK_FORK", "no", 1);
  gst_check_init (&argc, &argv);
  /* GStreamer 1.22's gst_cuda_context_new() trips a GLib check of its own
   * (g_once_init_leave with 0) on the NVIDIA driver: not ours to fail on. */
  gst_check_add_log_filter ("GLib", G_LOG_LEVEL_CRITICAL,
      g_regex_new ("g_once_init_leave: assertion 'result != 0' failed", (GRegexCompileFlags) 0,
          (GRegexMatchFlags) 0, NULL), NULL, NULL, NULL);
  g_devices = cuda_devices ();
  if (g_devices == 0)
    gpc_test::skip ("no usable CUDA device (libcuda.so.1 / cuInit / device count)");
  if (!gst_cuda_load_library ())
    gpc_test::skip ("GStreamer cannot load the CUDA library");
  GstElement *e = gst_element_factory_make ("cudaflacdec", NULL);
  if (!e)
    gpc_test::skip ("cudaflacdec not found in GST_PLUGIN_PATH");
  gst_object_unref (e);
  if (!gst_element_factory_find ("flacdec") || !gst_element_factory_find ("flacparse"))
    gpc_test::skip ("flacparse/flacdec (gst-plugins-good) missing");
  gpc_test::seed ();
  Suite *s = suite_create ("cuda-contexts");
  TCase *tc = tcase_create ("general");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, two_pipelines_two_contexts);
  tcase_add_test (tc, one_context_reused);
  tcase_add_test (tc, device_id_over_offered_context);
  return gst_check_run_suite (s, "cuda-contexts", __FILE__);
}

#else

int
main (int argc, char **argv)
{
  gpc_test::skip ("cudaflacdec was built without its CUDA kernels (no nvcc / gstreamer-cuda)");
}

#endif
