/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The VMAF model against libvmaf: given libvmaf's own feature values of every
 * clip frame, the built-in and file-loaded models give libvmaf's scores.
 * Tolerance: none; the scores are compared as doubles, bit for bit (libvmaf
 * prints 6 decimals; the expectations keep all 17 digits).
 */
#include <gst/check/gstcheck.h>

#include <math.h>

#include "gpc-test.h"
#include "vmaf-clips.h"
#include "vmaf-model.h"

using gpc::VmafModel;

/* Each expectation key with the model that scores it. */
struct ModelCase {
  const char *key, *version;
  bool enable_transform;
};
static const ModelCase kCases[] = {
  { "vmaf", "vmaf_v0.6.1", false },
  { "vmaf_neg", "vmaf_v0.6.1neg", false },
  { "vmaf_4k", "vmaf_4k_v0.6.1", false },
  { "vmaf_4k_neg", "vmaf_4k_v0.6.1neg", false },
  { "vmaf_transform", "vmaf_v0.6.1", true },
};

static void
check_clips (const VmafModel &model, const ModelCase &c)
{
  gpc::VmafScoreFlags flags;
  flags.enable_transform = c.enable_transform;
  for (const std::string &name : vmaf_all_clip_names ()) {
    VmafClip clip;
    fail_unless (vmaf_load_clip (name, &clip));
    for (int f = 0; f < clip.frames; f++) {
      std::vector<double> values;
      for (const gpc::VmafModelFeature &feature : model.features ()) {
        fail_unless (clip.expect[f].count (feature.key), "%s: no %s", name.c_str (),
            feature.key.c_str ());
        values.push_back (clip.expect[f].at (feature.key));
      }
      const double score = model.score (values, flags), want = clip.expect[f].at (c.key);
      fail_unless (score == want, "%s frame %d %s: %.17g, libvmaf %.17g", name.c_str (), f,
          c.key, score, want);
    }
  }
}

GST_START_TEST (builtin_models_match_libvmaf)
{
  for (const ModelCase &c : kCases) {
    VmafModel model;
    std::string error;
    fail_unless (model.load_builtin (c.version, &error), "%s: %s", c.version, error.c_str ());
    fail_unless_equals_string (model.name ().c_str (), c.version);
    check_clips (model, c);
  }
}
GST_END_TEST;

GST_START_TEST (model_files_match_libvmaf)
{
  for (const ModelCase &c : kCases) {
    VmafModel model;
    std::string error;
    const std::string path = std::string (GPC_VMAF_MODELS_DIR) + "/" + c.version + ".json";
    fail_unless (model.load_file (path, &error), "%s", error.c_str ());
    check_clips (model, c);
  }
}
GST_END_TEST;

/* The features and options each built-in model asks for, named as libvmaf
 * names them. */
GST_START_TEST (feature_keys_and_options)
{
  VmafModel def, neg;
  std::string error;
  fail_unless (def.load_builtin ("vmaf_v0.6.1", &error));
  fail_unless (neg.load_builtin ("vmaf_v0.6.1neg", &error));
  const char *const keys[] = { "integer_adm2", "integer_motion2", "integer_vif_scale0",
    "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3" };
  fail_unless_equals_int (def.features ().size (), 6);
  fail_unless_equals_int (neg.features ().size (), 6);
  for (int i = 0; i < 6; i++) {
    fail_unless_equals_string (def.features ()[i].key.c_str (), keys[i]);
    fail_unless (def.features ()[i].options.empty ());
    const gpc::VmafModelFeature &f = neg.features ()[i];
    if (f.extractor == "motion") {
      fail_unless_equals_string (f.key.c_str (), keys[i]);
    } else {
      const std::string want = std::string (keys[i]) + "_egl_1";
      fail_unless_equals_string (f.key.c_str (), want.c_str ());
      const char *opt = f.extractor == "vif" ? "vif_enhn_gain_limit" : "adm_enhn_gain_limit";
      fail_unless (f.option (opt, 100.0) == 1.0);
    }
  }
  fail_if (def.load_builtin ("vmaf_v9", &error));
  fail_unless (error.find ("vmaf_v9") != std::string::npos);
}
GST_END_TEST;

/* A small model built here: options named the libvmaf way (through float and
 * "%g"), defaults dropped, the piecewise-linear transform and clipping. */
static std::string
small_model (const std::string &opts, const std::string &transform, const std::string &clip)
{
  return "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", \"norm_type\": \"none\","
         " \"feature_names\": [\"VMAF_integer_feature_adm2_score\","
         " \"VMAF_integer_feature_motion2_score\"],"
         " \"feature_opts_dicts\": [" + opts + "],"
         + transform + clip +
         " \"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\nnr_class 2\\n"
         "total_sv 2\\nrho -10\\nSV\\n2 1:1 2:0.5 \\n-1 2:2 \\n\"}}";
}

GST_START_TEST (options_transform_and_clip)
{
  VmafModel m;
  std::string error;
  fail_unless (m.load_json (small_model ("{\"adm_enhn_gain_limit\": 1.2345678},"
      " {\"motion_force_zero\": true, \"motion_max_val\": 10000}", "", ""), "small", &error),
      "%s", error.c_str ());
  fail_unless_equals_string (m.features ()[0].key.c_str (), "integer_adm2_egl_1.23457");
  fail_unless (m.features ()[0].option ("adm_enhn_gain_limit", 0) == 1.23457);
  fail_unless_equals_string (m.features ()[1].key.c_str (), "integer_motion2_force_0");
  fail_unless_equals_int (m.features ()[1].options.size (), 1);

  /* SVM by hand: 2 exp (-0.5 ((x0-1)^2 + (x1-0.5)^2)) - exp (-0.5 (x0^2 + (x1-2)^2)) + 10. */
  gpc::VmafScoreFlags flags;
  const std::vector<double> x = { 0.25, 1.5 };
  const double svm = 2 * exp (-0.5 * (0.5625 + 1.0)) - exp (-0.5 * (0.0625 + 0.25)) + 10;
  fail_unless (fabs (m.score (x, flags) - svm) < 1e-12);

  /* Knots map the SVM output; out_lte_in keeps it at most the input. */
  fail_unless (m.load_json (small_model ("", "\"score_transform\": {\"enabled\": true,"
      " \"knots\": [[0, 0], [10, 50], [20, 60]], \"out_lte_in\": \"true\"},", ""), "k", &error),
      "%s", error.c_str ());
  const double y = svm < 10 ? svm * 5 : 50 + (svm - 10);
  fail_unless (fabs (m.score (x, flags) - std::min (y, svm)) < 1e-12);
  /* Not enabled in the file: only with enable_transform. */
  fail_unless (m.load_json (small_model ("", "\"score_transform\": {\"p0\": 1, \"p1\": 2,"
      " \"p2\": 0.5},", "\"score_clip\": [0, 10.5],"), "p", &error), "%s", error.c_str ());
  fail_unless (fabs (m.score (x, flags) - std::min (svm, 10.5)) < 1e-12);
  flags.enable_transform = true;
  fail_unless (m.score (x, flags) == 10.5);
  flags.disable_clip = true;
  fail_unless (fabs (m.score (x, flags) - (1 + 2 * svm + 0.5 * svm * svm)) < 1e-9);
}
GST_END_TEST;

GST_START_TEST (bad_models_are_refused)
{
  const char *const bad[] = {
    "not json",
    "{\"0\": {}}",
    "{\"model_dict\": {\"model_type\": \"BOOTSTRAP_LIBSVMNUSVR\"}}",
  };
  VmafModel m;
  std::string error;
  for (const char *json : bad) {
    fail_if (m.load_json (json, "bad", &error), "%s accepted", json);
    fail_if (error.empty ());
  }
  /* Unknown option, out of range, unknown feature, broken SVM text. */
  fail_if (m.load_json (small_model ("{\"adm_csf_mode\": 1}", "", ""), "b", &error));
  fail_unless (error.find ("adm_csf_mode") != std::string::npos, "%s", error.c_str ());
  fail_if (m.load_json (small_model ("{\"adm_enhn_gain_limit\": 0.5}", "", ""), "b", &error));
  std::string j = small_model ("", "", "");
  std::string unknown = j;
  unknown.replace (unknown.find ("VMAF_integer_feature_adm2_score"), 31, "float_ssim");
  fail_if (m.load_json (unknown, "b", &error));
  fail_unless (error.find ("float_ssim") != std::string::npos);
  std::string rbf = j;
  rbf.replace (rbf.find ("kernel_type rbf"), 15, "kernel_type sig");
  fail_if (m.load_json (rbf, "b", &error));
  std::string sv = j;
  sv.replace (sv.find ("2:2"), 3, "2:x");
  fail_if (m.load_json (sv, "b", &error));
  fail_if (m.load_file ("/nonexistent/model.json", &error));
  fail_unless (error.find ("/nonexistent/model.json") != std::string::npos);
}
GST_END_TEST;

static Suite *
vmaf_model_suite (void)
{
  Suite *s = suite_create ("vmaf-model");
  TCase *tc = tcase_create ("model");
  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, builtin_models_match_libvmaf);
  tcase_add_test (tc, model_files_match_libvmaf);
  tcase_add_test (tc, feature_keys_and_options);
  tcase_add_test (tc, options_transform_and_clip);
  tcase_add_test (tc, bad_models_are_refused);
  return s;
}

GST_CHECK_MAIN (vmaf_model);
