/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-scorer.h"

#include <algorithm>

namespace gpc {

namespace {

/* The model's options for one extractor must agree: one kernel run serves
 * every feature of that extractor. */
bool
same_options (const VmafModelFeature &a, const VmafModelFeature &b)
{
  if (a.options.size () != b.options.size ())
    return false;
  for (size_t i = 0; i < a.options.size (); i++)
    if (a.options[i].name != b.options[i].name || a.options[i].value != b.options[i].value)
      return false;
  return true;
}

MotionOptions
motion_options_of (const VmafModelFeature &f)
{
  MotionOptions o;
  o.force_zero = f.option ("motion_force_zero", 0) != 0;
  o.blend_factor = f.option ("motion_blend_factor", o.blend_factor);
  o.blend_offset = f.option ("motion_blend_offset", o.blend_offset);
  o.fps_weight = f.option ("motion_fps_weight", o.fps_weight);
  o.max_val = f.option ("motion_max_val", o.max_val);
  o.five_frame_window = f.option ("motion_five_frame_window", 0) != 0;
  o.moving_average = f.option ("motion_moving_average", 0) != 0;
  return o;
}

} // namespace

bool
VmafScorer::init (const VmafModel &model, const VmafScoreFlags &flags, unsigned subsample,
    std::string *error)
{
  model_ = &model;
  flags_ = flags;
  subsample_ = std::max (subsample, 1u);
  needs_ = VmafNeeds ();
  columns_.clear ();
  model_columns_.clear ();
  motion_columns_.clear ();
  pending_.clear ();
  base_ = added_ = 0;

  const VmafModelFeature *first[3] = { nullptr, nullptr, nullptr };
  const char *const extractors[3] = { "vif", "adm", "motion" };
  for (const VmafModelFeature &f : model.features ()) {
    for (int e = 0; e < 3; e++) {
      if (f.extractor != extractors[e])
        continue;
      if (first[e] && !same_options (*first[e], f)) {
        *error = "the model asks for " + f.extractor + " features with different options";
        return false;
      }
      first[e] = &f;
    }
  }
  /* Every value an extractor reports, named with the model's options. */
  std::vector<std::string> names;
  std::string vif_suffix, adm_suffix;
  if (first[0]) {
    needs_.vif = true;
    needs_.vif_gain_limit = first[0]->option ("vif_enhn_gain_limit", 100.0);
    vif_suffix = first[0]->key.substr (first[0]->feature.size ());
    for (int s = 0; s < 4; s++)
      names.push_back ("integer_vif_scale" + std::to_string (s) + vif_suffix);
  }
  if (first[1]) {
    needs_.adm = true;
    needs_.adm_gain_limit = first[1]->option ("adm_enhn_gain_limit", 100.0);
    adm_suffix = first[1]->key.substr (first[1]->feature.size ());
    names.push_back ("integer_adm2" + adm_suffix);
    for (int s = 0; s < 4; s++)
      names.push_back ("integer_adm_scale" + std::to_string (s) + adm_suffix);
  }
  if (first[2]) {
    needs_.motion = true;
    needs_.motion_options = motion_options_of (*first[2]);
    for (const VmafModelFeature &f : model.features ())
      if (f.extractor == "motion" && std::find (names.begin (), names.end (), f.key) == names.end ())
        names.push_back (f.key);
  }
  std::sort (names.begin (), names.end ());
  columns_ = names;
  columns_.push_back ("vmaf");
  auto column = [this] (const std::string &name) {
    return (size_t) (std::find (columns_.begin (), columns_.end (), name) - columns_.begin ());
  };
  for (const VmafModelFeature &f : model.features ())
    model_columns_.push_back (column (f.key));
  for (int s = 0; s < 4; s++) {
    vif_columns_[s] = column ("integer_vif_scale" + std::to_string (s) + vif_suffix);
    adm_columns_[s] = column ("integer_adm_scale" + std::to_string (s) + adm_suffix);
  }
  adm2_column_ = column ("integer_adm2" + adm_suffix);
  for (size_t c = 0; c < names.size (); c++) {
    const std::string &n = names[c];
    if (n.compare (0, 14, "integer_motion") == 0)
      motion_columns_.emplace_back (c, n.compare (0, 15, "integer_motion2") == 0 ? 1
          : n.compare (0, 15, "integer_motion3") == 0 ? 2 : 0);
  }
  motion_ = MotionScorer (needs_.motion_options);
  pools_.assign (columns_.size (), MotionPool ());
  return true;
}

bool
VmafScorer::next_is_scored () const
{
  return frames_seen () % subsample_ == 0;
}

bool
VmafScorer::next_needs_sad () const
{
  return needs_.motion && motion_.next_needs_sad ();
}

void
VmafScorer::add_frame (uint64_t sad, const VmafSpatial &spatial, unsigned width, unsigned height,
    std::vector<VmafFrameResult> &done)
{
  pending_.emplace_back (next_is_scored (), spatial);
  added_++;
  std::vector<MotionFrameResult> motion;
  if (needs_.motion)
    motion_.add_frame (sad, width, height, motion);
  else
    motion.push_back ({ added_ - 1, 0, 0, 0 });  /* complete at once */
  complete (motion, done);
}

void
VmafScorer::finish (std::vector<VmafFrameResult> &done)
{
  std::vector<MotionFrameResult> motion;
  if (needs_.motion)
    motion_.finish (motion);
  complete (motion, done);
  base_ += added_;
  added_ = 0;
  motion_.reset (false);
  pending_.clear ();
}

void
VmafScorer::complete (const std::vector<MotionFrameResult> &motion,
    std::vector<VmafFrameResult> &done)
{
  for (const MotionFrameResult &m : motion) {
    const std::pair<bool, VmafSpatial> p = pending_.front ();
    pending_.pop_front ();
    if (!p.first)
      continue;
    const VmafSpatial &s = p.second;
    VmafFrameResult r = { base_ + m.index, std::vector<double> (columns_.size (), 0.0) };
    if (needs_.vif)
      for (int k = 0; k < 4; k++)
        r.values[vif_columns_[k]] = s.vif[k];
    if (needs_.adm) {
      r.values[adm2_column_] = s.adm2;
      for (int k = 0; k < 4; k++)
        r.values[adm_columns_[k]] = s.adm[k];
    }
    for (const auto &mc : motion_columns_)
      r.values[mc.first] = mc.second == 0 ? m.motion : mc.second == 1 ? m.motion2 : m.motion3;
    std::vector<double> features;
    for (size_t col : model_columns_)
      features.push_back (r.values[col]);
    r.values.back () = model_->score (features, flags_);
    for (size_t i = 0; i < r.values.size (); i++)
      pools_[i].add (r.values[i]);
    done.push_back (std::move (r));
  }
}

double
VmafScorer::pooled (size_t column, VmafPoolMethod method) const
{
  const MotionPool &p = pools_[column];
  switch (method) {
    case VmafPoolMethod::MIN:
      return p.min;
    case VmafPoolMethod::MAX:
      return p.max;
    case VmafPoolMethod::MEAN:
      return p.mean ();
    case VmafPoolMethod::HARMONIC_MEAN:
      return p.harmonic_mean ();
  }
  return 0;
}

} // namespace gpc
