/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Damaged per-picture ALF parameters through a whole GPU pipeline:
 *   videotestsrc ! vulkanupload ! VulkanBuffer ! vkvvcalf params-location=p-%d.json
 *     ! vkvmafmotion ! fakesink
 * Every picture has its own vvc-alf-params file; one picture in the middle
 * of the stream (others are in flight on the GPU) gets a damaged one:
 * truncated, empty, missing, out-of-range coefficients, a wrong CTB grid, a
 * missing APS, another picture size. The pipeline must stop with a
 * GST_ELEMENT_ERROR from vkvvcalf naming that picture, pass no picture from
 * it on, and neither crash, hang nor trip the validation layer. Random byte
 * flips may leave a valid document: those runs must end in EOS or in that
 * same clear error.
 */
#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>

#include <functional>
#include <string>

#include "gpc-test.h"
#include "gpc-vk-test.h"
#include "vvcalf-builder.h"
#include "vvcalf-json.h"

namespace {

const int kPictures = 5;

struct Stream {
  unsigned width, height;
  int bad;         /* the picture whose file is damaged */
  std::string dir; /* holds p-%d.json */
};

std::string
valid_json (unsigned width, unsigned height, unsigned fixed_set)
{
  gpc::VvcAlfSyntheticConfig cfg;
  cfg.width = width;
  cfg.height = height;
  cfg.bit_depth = 8;
  cfg.ctb_size = 64;
  cfg.fixed_set = fixed_set;
  cfg.cc_cb = cfg.cc_cr = true;
  GstVvcAlfInfo info;
  std::string err;
  fail_unless (gpc::vvc_alf_build_synthetic_info (cfg, info, err), "%s", err.c_str ());
  std::string s = gpc::vvc_alf_info_to_json (info);
  gst_vvc_alf_info_clear (&info);
  return s;
}

std::string
path_of (const Stream &st, int picture)
{
  return st.dir + "/p-" + std::to_string (picture) + ".json";
}

bool
replace_once (std::string &s, const std::string &from, const std::string &to)
{
  size_t p = s.find (from);
  if (p == std::string::npos)
    return false;
  s.replace (p, from.size (), to);
  return true;
}

struct Outcome {
  bool error = false;
  bool eos = false;
  std::string message, debug, source;
  int passed = 0; /* pictures out of vkvvcalf */
};

GstPadProbeReturn
count_buffer (GstPad *pad, GstPadProbeInfo *info, gpointer data)
{
  g_atomic_int_inc (static_cast<int *> (data));
  return GST_PAD_PROBE_OK;
}

Outcome
run (const Stream &st)
{
  /* Vulkan buffers from vulkanupload where it uploads I420, else system
   * memory that vkvvcalf uploads itself: the parameters are the subject. */
  static const bool upload = gpc_vk_test_vulkanupload_can ("I420", "VulkanBuffer");
  gchar *launch = g_strdup_printf ("videotestsrc num-buffers=%d pattern=ball ! "
      "video/x-raw,format=I420,width=%u,height=%u,framerate=25/1 ! %s"
      "vkvvcalf name=alf params-location=\"%s/p-%%d.json\" ! "
      "vkvmafmotion ! fakesink", kPictures, st.width, st.height,
      upload ? "vulkanupload ! video/x-raw(memory:VulkanBuffer) ! " : "", st.dir.c_str ());
  GError *error = NULL;
  GstElement *pipe = gst_parse_launch (launch, &error);
  fail_unless (pipe != NULL, "%s: %s", launch, error ? error->message : "?");
  g_free (launch);
  Outcome out;
  GstElement *alf = gst_bin_get_by_name (GST_BIN (pipe), "alf");
  GstPad *src = gst_element_get_static_pad (alf, "src");
  gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, &out.passed, NULL);
  gst_object_unref (src);
  gst_object_unref (alf);

  GstBus *bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  GstMessage *msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      (GstMessageType) (GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  fail_unless (msg != NULL, "hang: neither EOS nor an error in 60 s");
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *e = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (msg, &e, &dbg);
    out.error = true;
    out.message = e->message;
    out.debug = dbg ? dbg : "";
    out.source = GST_OBJECT_NAME (GST_MESSAGE_SRC (msg));
    fail_unless (e->domain == GST_STREAM_ERROR, "not a stream error: %s", e->message);
    g_error_free (e);
    g_free (dbg);
  } else {
    out.eos = true;
  }
  gst_message_unref (msg);
  gst_object_unref (bus);
  /* Teardown after an error with pictures in flight must not hang either. */
  fail_unless (gst_element_set_state (pipe, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipe);
  return out;
}

/* The error names the damaged picture, comes from vkvvcalf, and nothing
 * from that picture on left the filter. */
void
expect_clear_error (const Outcome &out, const Stream &st, const char *what)
{
  fail_unless (out.error, "%s: the pipeline ran to EOS", what);
  fail_unless (out.source == "alf", "%s: error from %s, not vkvvcalf: %s", what,
      out.source.c_str (), out.message.c_str ());
  std::string needle = "for picture " + std::to_string (st.bad);
  fail_unless (out.message.find (needle) != std::string::npos, "%s: \"%s\" does not name picture %d",
      what, out.message.c_str (), st.bad);
  fail_unless (out.passed <= st.bad, "%s: %d pictures left vkvvcalf, the damaged one is %d", what,
      out.passed, st.bad);
  /* The debug string: the location, a newline, then the cause. */
  size_t nl = out.debug.find ('\n');
  std::string cause = nl == std::string::npos ? out.debug : out.debug.substr (nl + 1);
  printf ("  %-26s -> %s: %s\n", what, out.message.c_str (), cause.c_str ());
}

} // namespace

GST_START_TEST (damaged_params_files)
{
  gpc_test::Rng rng = gpc_test::rng ("alf-params-corrupt");
  Stream st;
  st.width = 8 * (unsigned) rng.range (10, 30);
  st.height = 8 * (unsigned) rng.range (8, 20);
  gchar *dir = g_dir_make_tmp ("gpc-alf-corrupt-XXXXXX", NULL);
  fail_unless (dir != NULL);
  st.dir = dir;
  g_free (dir);
  unsigned fixed_set = (unsigned) rng.range (0, 15);
  const std::string good = valid_json (st.width, st.height, fixed_set);
  printf ("%ux%u I420, CTB 64, fixed set %u, %d pictures\n", st.width, st.height, fixed_set,
      kPictures);

  /* The undamaged stream runs to the end. */
  for (int i = 0; i < kPictures; i++)
    fail_unless (g_file_set_contents (path_of (st, i).c_str (), good.data (), good.size (), NULL));
  st.bad = kPictures;
  Outcome clean = run (st);
  fail_unless (clean.eos, "undamaged stream: %s (%s)", clean.message.c_str (), clean.debug.c_str ());
  fail_unless_equals_int (clean.passed, kPictures);

  const std::string w = "\"width\":" + std::to_string (st.width);
  struct Case {
    const char *name;
    std::function<bool (std::string &)> edit; /* false: the edit did not apply */
  };
  const Case cases[] = {
    { "truncated", [&] (std::string &s) { s.resize ((size_t) rng.range (1, (int64_t) s.size () - 2)); return true; } },
    { "empty", [] (std::string &s) { s.clear (); return true; } },
    { "chroma coefficient 200", [] (std::string &s) { return replace_once (s, "\"coeff\":[[3,", "\"coeff\":[[200,"); } },
    { "CC-ALF coefficient 128", [] (std::string &s) { return replace_once (s, "\"cc_cb\":[[-4,", "\"cc_cb\":[[128,"); } },
    { "luma_set out of range", [] (std::string &s) { return replace_once (s, "\"luma_set\":", "\"luma_set\":2") ; } },
    { "CTB grid (CTB size 32)", [] (std::string &s) { return replace_once (s, "\"ctb_size_y\":64", "\"ctb_size_y\":32"); } },
    { "CTB grid (wider picture)", [&] (std::string &s) { return replace_once (s, w, "\"width\":" + std::to_string (st.width + 64)); } },
    { "missing APS", [] (std::string &s) { return replace_once (s, "{\"id\":0,", "{\"id\":1,"); } },
    { "another picture size", [&] (std::string &s) { s = valid_json (st.width + 8, st.height, 0); return true; } },
    { "10-bit parameters", [] (std::string &s) { return replace_once (s, "\"bit_depth_luma\":8, \"bit_depth_chroma\":8", "\"bit_depth_luma\":10, \"bit_depth_chroma\":10"); } },
  };
  for (const Case &c : cases) {
    st.bad = (int) rng.range (1, kPictures - 2);
    std::string s = good;
    fail_unless (c.edit (s), "case \"%s\" did not apply to the document", c.name);
    for (int i = 0; i < kPictures; i++) {
      const std::string &text = i == st.bad ? s : good;
      fail_unless (g_file_set_contents (path_of (st, i).c_str (), text.data (), text.size (), NULL));
    }
    expect_clear_error (run (st), st, c.name);
  }

  /* A file that does not exist. */
  st.bad = (int) rng.range (1, kPictures - 2);
  for (int i = 0; i < kPictures; i++)
    fail_unless (g_file_set_contents (path_of (st, i).c_str (), good.data (), good.size (), NULL));
  g_unlink (path_of (st, st.bad).c_str ());
  expect_clear_error (run (st), st, "missing file");

  /* Random byte flips: a clear error at that picture, or a document that
   * is still valid (then EOS). */
  for (int k = 0; k < 2; k++) {
    st.bad = (int) rng.range (1, kPictures - 2);
    std::string s = good;
    int flips = (int) rng.range (1, 4);
    for (int f = 0; f < flips; f++)
      s[(size_t) rng.range (0, (int64_t) s.size () - 1)] ^= (char) (1u << rng.range (0, 7));
    for (int i = 0; i < kPictures; i++) {
      const std::string &text = i == st.bad ? s : good;
      fail_unless (g_file_set_contents (path_of (st, i).c_str (), text.data (), text.size (), NULL));
    }
    Outcome out = run (st);
    if (out.eos) {
      printf ("  %d byte flips               -> still valid, EOS\n", flips);
      fail_unless_equals_int (out.passed, kPictures);
    } else {
      expect_clear_error (out, st, "byte flips");
    }
  }

  for (int i = 0; i < kPictures; i++)
    g_unlink (path_of (st, i).c_str ());
  g_rmdir (st.dir.c_str ());
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "alf-params-corrupt", {
        GPC_CHECK_TEST (damaged_params_files) });
}
