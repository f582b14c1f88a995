/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-motion-scorer.h"

#include <algorithm>

#include "vmaf-motion-ref.h"

namespace gpc {

void MotionPool::add (double v)
{
  if (n == 0 || v < min)
    min = v;
  if (n == 0 || v > max)
    max = v;
  n++;
  sum += v;
  inv_sum += 1.0 / (v + 1.0);
}

bool MotionScorer::next_needs_sad () const
{
  return !opts_.force_zero && n_ >= opts_.min_index ();
}

double MotionScorer::add_frame (uint64_t sad, unsigned width, unsigned height,
    std::vector<MotionFrameResult> &done)
{
  double s = 0;
  if (next_needs_sad ())
    s = motion_score_from_sad (sad, width, height, opts_.fps_weight, opts_.max_val);
  window_.push_back (s);
  n_++;
  /* Every frame before the newest one now has its successor; the frames
   * before min_index also wait for the score of frame min_index. */
  while (next_done_ + 1 < n_ && (next_done_ >= opts_.min_index () || n_ > opts_.min_index ()))
    complete (next_done_, false, done);
  return s;
}

void MotionScorer::finish (std::vector<MotionFrameResult> &done)
{
  while (next_done_ < n_)
    complete (next_done_, true, done);
}

/* Frame i's motion2 and motion3, following libvmaf's flush: motion2 is the
 * smaller of the scores around i (i and i+1; i-1 and i+1 with the five-frame
 * window), the frame's own score when it is the last one. */
void MotionScorer::complete (uint64_t i, bool last, std::vector<MotionFrameResult> &done)
{
  const unsigned min_idx = opts_.min_index ();
  const bool has_next = !last || i + 1 < n_;
  double m2, m3;

  if (i < min_idx) {
    m2 = 0;
    /* The "stamp": frames before min_idx take the blended score of frame
     * min_idx, once the stream is known to be longer than min_idx frames. */
    if (i == 0)
      stamp_ = n_ > min_idx ?
          std::min (motion_blend (score (min_idx), opts_.blend_factor, opts_.blend_offset),
              opts_.max_val) : 0.0;
    m3 = stamp_;
    prev_processed_ = stamp_;
  } else {
    if (!has_next) {
      m2 = score (i);
    } else if (opts_.five_frame_window) {
      double hi = score (i + 1);
      m2 = i - 1 >= min_idx ? std::min (score (i - 1), hi) : hi;
    } else {
      m2 = std::min (score (i), score (i + 1));
    }
    double processed = std::min (motion_blend (m2, opts_.blend_factor, opts_.blend_offset),
        opts_.max_val);
    m3 = opts_.moving_average ? (processed + prev_processed_) / 2.0 : processed;
    prev_processed_ = processed;
  }

  done.push_back ({ i, score (i), m2, m3 });
  pools_[0].add (score (i));
  pools_[1].add (m2);
  pools_[2].add (m3);
  next_done_++;

  /* Completing frame j reads j - 1 .. j + 1: older scores can go. */
  while (window_base_ + 1 < next_done_) {
    window_.pop_front ();
    window_base_++;
  }
}

void MotionScorer::reset (bool pools)
{
  n_ = next_done_ = window_base_ = 0;
  window_.clear ();
  stamp_ = prev_processed_ = 0;
  if (pools)
    for (auto &p : pools_)
      p = MotionPool ();
}

} // namespace gpc
