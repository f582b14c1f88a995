/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Turns per-frame SADs into libvmaf's motion, motion2 and motion3 scores as
 * soon as each becomes known (motion2 of frame i needs frame i + 1), and keeps
 * running pooled statistics. Nothing grows with the stream's length, so an
 * element can run for weeks.
 */
#pragma once

#include <stdint.h>

#include <deque>
#include <vector>

namespace gpc {

struct MotionOptions {
  bool force_zero = false;
  double blend_factor = 1.0;
  double blend_offset = 40.0;
  double fps_weight = 1.0;
  double max_val = 10000.0;
  bool five_frame_window = false;
  bool moving_average = false;

  /* Frames before the first one that has a score (1, or 2 with the window). */
  unsigned min_index () const { return five_frame_window ? 2 : 1; }
};

/* Running min / max / mean / harmonic mean, as libvmaf pools. */
struct MotionPool {
  uint64_t n = 0;
  double sum = 0, min = 0, max = 0, inv_sum = 0;
  void add (double v);
  double mean () const { return n ? sum / n : 0; }
  double harmonic_mean () const { return n ? n / inv_sum - 1.0 : 0; }
};

struct MotionFrameResult {
  uint64_t index;
  double motion;  /* libvmaf's integer_motion (the frame's own score) */
  double motion2;
  double motion3;
};

class MotionScorer {
 public:
  explicit MotionScorer (const MotionOptions &opts = MotionOptions ()) : opts_ (opts) {}

  const MotionOptions &options () const { return opts_; }

  /* Whether the next frame (index frames_seen()) needs a SAD from the GPU. */
  bool next_needs_sad () const;
  uint64_t frames_seen () const { return n_; }

  /* The next frame's score from its SAD (ignored where no SAD is needed).
   * Returns the frame's motion score; frames whose motion2/motion3 became
   * known are appended to `done`. */
  double add_frame (uint64_t sad, unsigned width, unsigned height,
      std::vector<MotionFrameResult> &done);

  /* End of stream: completes every frame still waiting. */
  void finish (std::vector<MotionFrameResult> &done);

  /* Start over (new stream, flush, resolution change). Pools are kept unless
   * `pools` is true. */
  void reset (bool pools);

  const MotionPool &pool (int feature) const { return pools_[feature]; }

 private:
  void complete (uint64_t i, bool last, std::vector<MotionFrameResult> &done);
  double score (uint64_t i) const { return window_[i - window_base_]; }

  MotionOptions opts_;
  uint64_t n_ = 0;            /* frames added */
  uint64_t next_done_ = 0;    /* first frame whose motion2/3 is not known yet */
  std::deque<double> window_; /* scores from window_base_ on */
  uint64_t window_base_ = 0;
  double stamp_ = 0;          /* motion3 of the frames before min_index */
  double prev_processed_ = 0;
  MotionPool pools_[3];
};

} // namespace gpc
