/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The host side of a VMAF comparison, GPU-free: which extractors a model
 * needs and with which options, the per-frame values named as libvmaf names
 * them, the model's score of each frame once its motion2 is known (one frame
 * later), subsampling and the pooled values (min, max, mean, harmonic mean)
 * with libvmaf's formulas.
 */
#pragma once

#include <stdint.h>

#include <deque>
#include <string>
#include <vector>

#include "vmaf-model.h"
#include "vmaf-motion-scorer.h"

namespace gpc {

/* The spatial features of one frame pair, as the VIF and ADM extractors
 * report them (only the ones the model needs are read). */
struct VmafSpatial {
  double vif[4] = { 0, 0, 0, 0 };   /* integer_vif_scale0..3 */
  double adm2 = 0;                  /* integer_adm2 */
  double adm[4] = { 0, 0, 0, 0 };   /* integer_adm_scale0..3 */
};

/* What a model asks the extractors for. */
struct VmafNeeds {
  bool vif = false, adm = false, motion = false;
  double vif_gain_limit = 100.0;   /* vif_enhn_gain_limit */
  double adm_gain_limit = 100.0;   /* adm_enhn_gain_limit */
  MotionOptions motion_options;
};

/* One scored frame: values[i] belongs to columns ()[i]; the last column is
 * the model's score ("vmaf"). */
struct VmafFrameResult {
  uint64_t index;
  std::vector<double> values;
};

enum class VmafPoolMethod { MIN, MAX, MEAN, HARMONIC_MEAN };

class VmafScorer {
 public:
  /* False, with *error, when the model needs what the extractors cannot
   * give (two motion features with different options, say). subsample: score
   * every Nth frame (1: all); motion is still measured on every frame. */
  bool init (const VmafModel &model, const VmafScoreFlags &flags, unsigned subsample,
      std::string *error);

  const VmafNeeds &needs () const { return needs_; }
  unsigned subsample () const { return subsample_; }
  /* libvmaf's names of the reported values, features alphabetically, then
   * "vmaf". */
  const std::vector<std::string> &columns () const { return columns_; }

  /* Frame frames_seen (): whether it gets the spatial features and a score,
   * and whether its motion needs a SAD from the GPU. */
  bool next_is_scored () const;
  bool next_needs_sad () const;
  uint64_t frames_seen () const { return base_ + added_; }

  /* Adds the next frame: its motion SAD (ignored where none is needed) and,
   * for scored frames, its spatial features. Frames whose score became known
   * are appended to `done`, in order. */
  void add_frame (uint64_t sad, const VmafSpatial &spatial, unsigned width, unsigned height,
      std::vector<VmafFrameResult> &done);

  /* Ends the motion history (end of stream, flush, new size): every frame
   * still waiting for its successor is scored. Indices and pools go on. */
  void finish (std::vector<VmafFrameResult> &done);

  /* Over every frame scored so far; 0 when none was. */
  double pooled (size_t column, VmafPoolMethod method) const;
  uint64_t frames_scored () const { return pools_.empty () ? 0 : pools_[0].n; }

 private:
  void complete (const std::vector<MotionFrameResult> &motion, std::vector<VmafFrameResult> &done);

  const VmafModel *model_ = nullptr;
  VmafScoreFlags flags_;
  unsigned subsample_ = 1;
  VmafNeeds needs_;
  std::vector<std::string> columns_;
  /* Where each value goes in columns_: model features, the extractors'
   * values, and which motion value a motion column is (0 motion,
   * 1 motion2, 2 motion3). */
  std::vector<size_t> model_columns_;
  size_t vif_columns_[4] = {}, adm2_column_ = 0, adm_columns_[4] = {};
  std::vector<std::pair<size_t, int>> motion_columns_;

  MotionScorer motion_;
  uint64_t base_ = 0;   /* global index of the motion history's frame 0 */
  uint64_t added_ = 0;  /* frames added to the motion history */
  /* Frames added but not complete yet, oldest first: scored?, spatial. */
  std::deque<std::pair<bool, VmafSpatial>> pending_;
  std::vector<MotionPool> pools_;
};

} // namespace gpc
