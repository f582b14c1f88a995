/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What vkvmafmotion makes of each frame's SAD: the scores (through
 * gpc::MotionScorer), the element messages that carry them, the pooled
 * summary at EOS and the optional log file in libvmaf's layout.
 */
#pragma once

#include <gst/gst.h>

#include <deque>
#include <vector>

#include "vmaf-motion-log.h"
#include "vmaf-motion-scorer.h"

namespace gpc {

class MotionResults {
 public:
  /* Results of `element`, scored with `opts`, logged to `location` (NULL:
   * no log) in `format`. */
  MotionResults (GstElement *element, const MotionOptions &opts, const char *location,
      MotionLogFormat format);
  ~MotionResults ();
  MotionResults (const MotionResults &) = delete;
  MotionResults &operator= (const MotionResults &) = delete;

  const MotionOptions &options () const { return scorer_.options (); }

  /* Opens the log for `width` x `height` frames, once; false with an
   * element error posted. */
  bool open_log (int width, int height);
  /* Frame `buf` (at running time `rt`) has its SAD: returns its motion
   * score and global index; with `post`, messages for it and for the frames
   * whose motion2/motion3 became known. */
  double add_frame (GstBuffer *buf, GstClockTime rt, guint64 sad, bool has_sad, int width,
      int height, bool post, guint64 *index);
  /* Ends the current history (a flush, a new format, EOS): every frame's
   * motion2/motion3 is final; the next frame starts a new history. */
  void finish_history (bool post);
  /* The pooled scores of every frame so far, as a message. */
  void post_summary ();
  /* Writes and closes the log, if open; false with an element error. */
  bool close_log ();

 private:
  struct FrameTime {
    guint64 index;
    GstClockTime pts;
    GstClockTime running_time;
  };
  void publish (const std::vector<MotionFrameResult> &done, bool post);

  GstElement *element_;
  MotionScorer scorer_;
  MotionLogWriter log_;
  gchar *location_;
  MotionLogFormat format_;
  std::deque<FrameTime> times_; /* frames whose motion2/motion3 are not known yet */
  guint64 index_base_ = 0;      /* global index of the history's frame 0 */
  guint64 frames_total_ = 0;
  gint64 start_time_;
};

} // namespace gpc
