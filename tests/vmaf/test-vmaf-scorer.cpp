/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The host side of vkvmaf on the clips: given libvmaf's spatial features and
 * the motion CPU reference's SADs, every frame's values and score equal
 * libvmaf's bit for bit (tolerance: none), with and without subsampling;
 * pooling follows libvmaf's formulas; the log files parse and hold the same
 * numbers to libvmaf's printed precision, and appear only once complete.
 */
#include <algorithm>
#include <fstream>
#include <sstream>

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "gpc-test.h"
#include "vmaf-clips.h"
#include "vmaf-log.h"
#include "vmaf-motion-ref.h"
#include "vmaf-scorer.h"

using namespace gpc;

static const char *const kModels[][2] = {
  { "vmaf_v0.6.1", "vmaf" }, { "vmaf_v0.6.1neg", "vmaf_neg" }, { "vmaf_4k_v0.6.1", "vmaf_4k" },
};

/* libvmaf's spatial values of frame f, for the suffix the model gives them. */
static VmafSpatial
spatial_of (const VmafClip &clip, int f, const std::string &vif_sfx, const std::string &adm_sfx)
{
  VmafSpatial s;
  const auto &e = clip.expect[f];
  for (int k = 0; k < 4; k++) {
    s.vif[k] = e.at ("integer_vif_scale" + std::to_string (k) + vif_sfx);
    s.adm[k] = e.at ("integer_adm_scale" + std::to_string (k) + adm_sfx);
  }
  s.adm2 = e.at ("integer_adm2" + adm_sfx);
  return s;
}

/* Runs a clip through a scorer; returns the scored frames. */
static std::vector<VmafFrameResult>
run_clip (const VmafClip &clip, VmafScorer &scorer, bool neg)
{
  std::vector<VmafFrameResult> done;
  const std::string sfx = neg ? "_egl_1" : "";
  for (int f = 0; f < clip.frames; f++) {
    uint64_t sad = 0;
    if (scorer.next_needs_sad ()) {
      LumaPlane prev = { clip.ref[f - 1].data (), clip.width };
      LumaPlane cur = { clip.ref[f].data (), clip.width };
      sad = motion_sad_ref (prev, cur, clip.width, clip.height, clip.bpc);
    }
    scorer.add_frame (sad, spatial_of (clip, f, sfx, sfx), clip.width, clip.height, done);
  }
  scorer.finish (done);
  return done;
}

GST_START_TEST (scores_match_libvmaf)
{
  for (const auto &m : kModels) {
    VmafModel model;
    std::string error;
    fail_unless (model.load_builtin (m[0], &error));
    const bool neg = strstr (m[0], "neg") != NULL;
    for (unsigned subsample : { 1u, 2u, 3u }) {
      for (const std::string &name : vmaf_all_clip_names ()) {
        VmafClip clip;
        fail_unless (vmaf_load_clip (name, &clip));
        VmafScorer scorer;
        fail_unless (scorer.init (model, VmafScoreFlags (), subsample, &error), "%s", error.c_str ());
        fail_unless (scorer.needs ().vif && scorer.needs ().adm && scorer.needs ().motion);
        fail_unless (scorer.needs ().vif_gain_limit == (neg ? 1.0 : 100.0));
        const std::vector<VmafFrameResult> done = run_clip (clip, scorer, neg);
        fail_unless_equals_int (done.size (), (clip.frames + subsample - 1) / subsample);
        MotionPool pool;
        for (size_t i = 0; i < done.size (); i++) {
          const VmafFrameResult &r = done[i];
          fail_unless_equals_int (r.index, i * subsample);
          const auto &e = clip.expect[r.index];
          for (size_t c = 0; c + 1 < scorer.columns ().size (); c++) {
            const std::string &key = scorer.columns ()[c];
            fail_unless (e.count (key), "%s: no %s", name.c_str (), key.c_str ());
            fail_unless (r.values[c] == e.at (key), "%s frame %d %s: %.17g, libvmaf %.17g",
                name.c_str (), (int) r.index, key.c_str (), r.values[c], e.at (key));
          }
          fail_unless (r.values.back () == e.at (m[1]), "%s frame %d %s: %.17g, libvmaf %.17g",
              name.c_str (), (int) r.index, m[1], r.values.back (), e.at (m[1]));
          pool.add (e.at (m[1]));
        }
        const size_t v = scorer.columns ().size () - 1;
        fail_unless (scorer.pooled (v, VmafPoolMethod::MEAN) == pool.mean ());
        fail_unless (scorer.pooled (v, VmafPoolMethod::MIN) == pool.min);
        fail_unless (scorer.pooled (v, VmafPoolMethod::MAX) == pool.max);
        fail_unless (scorer.pooled (v, VmafPoolMethod::HARMONIC_MEAN) == pool.harmonic_mean ());
      }
    }
  }
}
GST_END_TEST;

GST_START_TEST (columns_are_libvmafs)
{
  VmafModel def, neg;
  VmafScorer a, b;
  std::string error;
  fail_unless (def.load_builtin ("vmaf_v0.6.1", &error) && a.init (def, {}, 1, &error));
  fail_unless (neg.load_builtin ("vmaf_v0.6.1neg", &error) && b.init (neg, {}, 1, &error));
  const char *const cols[] = { "integer_adm2", "integer_adm_scale0", "integer_adm_scale1",
    "integer_adm_scale2", "integer_adm_scale3", "integer_motion2", "integer_vif_scale0",
    "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3", "vmaf" };
  fail_unless_equals_int (a.columns ().size (), 11);
  for (int i = 0; i < 11; i++)
    fail_unless_equals_string (a.columns ()[i].c_str (), cols[i]);
  fail_unless_equals_string (b.columns ()[0].c_str (), "integer_adm2_egl_1");
  fail_unless_equals_string (b.columns ()[5].c_str (), "integer_motion2");
  fail_unless_equals_string (b.columns ()[9].c_str (), "integer_vif_scale3_egl_1");
}
GST_END_TEST;

static std::string
read_text (const std::string &path)
{
  std::ifstream in (path);
  std::stringstream s;
  s << in.rdbuf ();
  return s.str ();
}

/* Files in `dir`, to see that no temporary one is left. */
static int
count_files (const std::string &dir)
{
  GDir *d = g_dir_open (dir.c_str (), 0, NULL);
  int n = 0;
  while (g_dir_read_name (d))
    n++;
  g_dir_close (d);
  return n;
}

GST_START_TEST (log_files)
{
  VmafClip clip;
  fail_unless (vmaf_load_clip ("testsrc2-320x180-8bit", &clip));
  VmafModel model;
  std::string error;
  fail_unless (model.load_builtin ("vmaf_v0.6.1", &error));
  gchar *dir = g_dir_make_tmp ("vmaf-log-XXXXXX", NULL);
  const VmafLogFormat formats[3] = { VmafLogFormat::XML, VmafLogFormat::JSON, VmafLogFormat::CSV };
  for (VmafLogFormat fmt : formats) {
    VmafScorer scorer;
    fail_unless (scorer.init (model, {}, 1, &error));
    const std::string path = std::string (dir) + "/log";
    VmafLogWriter log;
    fail_unless (log.open (path, fmt, scorer.columns (), &error), "%s", error.c_str ());
    for (const VmafFrameResult &r : run_clip (clip, scorer, false))
      log.frame (r);
    fail_if (g_file_test (path.c_str (), G_FILE_TEST_EXISTS), "log visible before close");
    fail_unless (log.close (scorer, clip.width, clip.height, 25.0, &error), "%s", error.c_str ());
    fail_unless_equals_int (count_files (dir), 1);
    const std::string text = read_text (path);
    char want[64];
    snprintf (want, sizeof want, "%.6f", clip.expect[3].at ("vmaf"));
    fail_unless (text.find (want) != std::string::npos, "%s not in the log", want);
    if (fmt == VmafLogFormat::JSON) {
      JsonParser *p = json_parser_new ();
      fail_unless (json_parser_load_from_data (p, text.c_str (), -1, NULL), "%s", text.c_str ());
      JsonObject *root = json_node_get_object (json_parser_get_root (p));
      JsonArray *frames = json_object_get_array_member (root, "frames");
      fail_unless_equals_int (json_array_get_length (frames), clip.frames);
      JsonObject *f2 = json_object_get_object_member (json_array_get_object_element (frames, 2),
          "metrics");
      fail_unless (fabs (json_object_get_double_member (f2, "integer_adm2")
          - clip.expect[2].at ("integer_adm2")) < 5e-7);
      JsonObject *pooled = json_object_get_object_member (
          json_object_get_object_member (root, "pooled_metrics"), "vmaf");
      fail_unless (fabs (json_object_get_double_member (pooled, "mean")
          - scorer.pooled (scorer.columns ().size () - 1, VmafPoolMethod::MEAN)) < 5e-7);
      g_object_unref (p);
    } else if (fmt == VmafLogFormat::XML) {
      fail_unless (text.find ("<params qualityWidth=\"320\" qualityHeight=\"180\" />") != std::string::npos);
      fail_unless (text.find ("<metric name=\"integer_motion2\" min=") != std::string::npos);
    } else {
      fail_unless (text.find ("Frame,integer_adm2,integer_adm_scale0,") == 0);
      fail_unless_equals_int (std::count (text.begin (), text.end (), '\n'), clip.frames + 1);
    }
    g_unlink (path.c_str ());
  }
  /* Abandoned and unwritable logs leave nothing behind. */
  VmafLogWriter log;
  fail_unless (log.open (std::string (dir) + "/gone", VmafLogFormat::CSV, { "vmaf" }, &error));
  log.abandon ();
  fail_unless_equals_int (count_files (dir), 0);
  fail_if (log.open (std::string (dir) + "/no/such/dir/log", VmafLogFormat::CSV, { "vmaf" },
      &error));
  fail_unless (error.find ("no/such/dir") != std::string::npos);
  g_rmdir (dir);
  g_free (dir);
}
GST_END_TEST;

static Suite *
vmaf_scorer_suite (void)
{
  Suite *s = suite_create ("vmaf-scorer");
  TCase *tc = tcase_create ("scorer");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, scores_match_libvmaf);
  tcase_add_test (tc, columns_are_libvmafs);
  tcase_add_test (tc, log_files);
  return s;
}

GST_CHECK_MAIN (vmaf_scorer);
