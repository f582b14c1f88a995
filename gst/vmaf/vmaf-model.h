/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A VMAF model in libvmaf's JSON format (vmaf_v0.6.1.json and its kind): the
 * features it needs, with their extractor options, and the score it gives
 * them: per-feature linear rescaling, support vector regression, optional
 * polynomial / piecewise-linear transform and clipping, in double precision
 * with libvmaf's order of operations, so the score is libvmaf's double.
 *
 * Built-in models (libvmaf's own files, see models/LICENSE): vmaf_v0.6.1,
 * vmaf_v0.6.1neg, vmaf_4k_v0.6.1, vmaf_4k_v0.6.1neg.
 */
#pragma once

#include <string>
#include <vector>

#include "vmaf-svm.h"

namespace gpc {

/* An extractor option a model sets away from its default, with the value
 * libvmaf applies (it passes numbers through float and "%g"). */
struct VmafFeatureOption {
  std::string name;   /* libvmaf's name, e.g. "vif_enhn_gain_limit" */
  double value;       /* booleans are 0 or 1 */
};

struct VmafModelFeature {
  std::string extractor;  /* "vif", "adm" or "motion" */
  std::string feature;    /* libvmaf's name without options, e.g. "integer_vif_scale0" */
  std::string key;        /* the name libvmaf records it under, options included,
                             e.g. "integer_vif_scale0_egl_1" */
  std::vector<VmafFeatureOption> options;  /* non-default only, by name */
  double slope = 1.0, intercept = 0.0;

  /* The option's value, or fallback when the model leaves it at its default. */
  double option (const char *name, double fallback) const;
};

/* libvmaf's model flags. */
struct VmafScoreFlags {
  bool enable_transform = false;  /* apply score_transform although the model
                                     does not enable it */
  bool disable_clip = false;      /* skip score_clip */
};

class VmafModel {
 public:
  bool load_file (const std::string &path, std::string *error);
  bool load_json (const std::string &json, const std::string &name, std::string *error);
  /* One of builtin_versions (), e.g. "vmaf_v0.6.1". */
  bool load_builtin (const std::string &version, std::string *error);
  static std::vector<std::string> builtin_versions ();

  const std::string &name () const { return name_; }
  const std::vector<VmafModelFeature> &features () const { return features_; }

  /* The score of one frame; values[i] is features ()[i]'s value. */
  double score (const std::vector<double> &values, const VmafScoreFlags &flags) const;

 private:
  struct Knot {
    double x, y;
  };
  bool parse_transform (void *object, std::string *error);
  double transform (double y) const;

  std::string name_;
  std::vector<VmafModelFeature> features_;
  bool rescale_ = false;  /* norm_type linear_rescale (else none) */
  double slope_ = 1.0, intercept_ = 0.0;
  bool clip_ = false;
  double clip_min_ = 0, clip_max_ = 0;
  bool transform_enabled_ = false, has_transform_ = false;
  bool has_p0_ = false, has_p1_ = false, has_p2_ = false;
  double p0_ = 0, p1_ = 0, p2_ = 0;
  std::vector<Knot> knots_;
  bool out_lte_in_ = false, out_gte_in_ = false;
  VmafSvm svm_;
};

} // namespace gpc
