/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkmotionresults.h"

namespace gpc {

MotionResults::MotionResults (GstElement *element, const MotionOptions &opts,
    const char *location, MotionLogFormat format)
    : element_ (element), scorer_ (opts), location_ (g_strdup (location)), format_ (format),
      start_time_ (g_get_monotonic_time ())
{
}

MotionResults::~MotionResults ()
{
  if (log_.is_open ())
    close_log ();
  g_free (location_);
}

bool MotionResults::open_log (int width, int height)
{
  if (!location_ || log_.is_open ())
    return true;
  if (log_.open (location_, format_, width, height))
    return true;
  GST_ELEMENT_ERROR (element_, RESOURCE, OPEN_WRITE,
      ("Could not open \"%s\" for writing", location_), GST_ERROR_SYSTEM);
  return false;
}

double MotionResults::add_frame (GstBuffer *buf, GstClockTime rt, guint64 sad, bool has_sad,
    int width, int height, bool post, guint64 *index)
{
  std::vector<MotionFrameResult> done;
  *index = index_base_ + scorer_.frames_seen ();
  double motion = scorer_.add_frame (sad, width, height, done);
  frames_total_++;
  times_.push_back ({ *index, GST_BUFFER_PTS (buf), rt });
  if (post) {
    GstStructure *s = gst_structure_new ("vkvmafmotion",
        "index", G_TYPE_UINT64, *index,
        "pts", G_TYPE_UINT64, GST_BUFFER_PTS (buf),
        "running-time", G_TYPE_UINT64, rt,
        "has-sad", G_TYPE_BOOLEAN, has_sad,
        "sad", G_TYPE_UINT64, sad,
        "motion", G_TYPE_DOUBLE, motion, NULL);
    gst_element_post_message (element_, gst_message_new_element (GST_OBJECT_CAST (element_), s));
  }
  publish (done, post);
  return motion;
}

/* Logs and posts frames whose motion2/motion3 became known. */
void MotionResults::publish (const std::vector<MotionFrameResult> &done, bool post)
{
  for (const MotionFrameResult &r : done) {
    MotionFrameResult g = r;
    g.index = index_base_ + r.index;
    FrameTime t = { g.index, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE };
    while (!times_.empty () && times_.front ().index <= g.index) {
      if (times_.front ().index == g.index)
        t = times_.front ();
      times_.pop_front ();
    }
    if (log_.is_open ())
      log_.frame (g);
    if (!post)
      continue;
    GstStructure *s = gst_structure_new ("vkvmafmotion-scores",
        "index", G_TYPE_UINT64, g.index,
        "pts", G_TYPE_UINT64, t.pts,
        "running-time", G_TYPE_UINT64, t.running_time,
        "motion", G_TYPE_DOUBLE, g.motion,
        "motion2", G_TYPE_DOUBLE, g.motion2,
        "motion3", G_TYPE_DOUBLE, g.motion3, NULL);
    gst_element_post_message (element_, gst_message_new_element (GST_OBJECT_CAST (element_), s));
  }
}

void MotionResults::finish_history (bool post)
{
  std::vector<MotionFrameResult> done;
  scorer_.finish (done);
  publish (done, post);
  index_base_ += scorer_.frames_seen ();
  scorer_.reset (false);
  times_.clear ();
}

void MotionResults::post_summary ()
{
  static const char *names[3] = { "integer_motion", "integer_motion2", "integer_motion3" };
  GstStructure *s = gst_structure_new ("vkvmafmotion-summary",
      "frames", G_TYPE_UINT64, frames_total_, NULL);
  for (int k = 0; k < 3; k++) {
    const MotionPool &p = scorer_.pool (k);
    GstStructure *m = gst_structure_new (names[k],
        "min", G_TYPE_DOUBLE, p.min, "max", G_TYPE_DOUBLE, p.max,
        "mean", G_TYPE_DOUBLE, p.mean (),
        "harmonic-mean", G_TYPE_DOUBLE, p.harmonic_mean (), NULL);
    gst_structure_set (s, names[k], GST_TYPE_STRUCTURE, m, NULL);
    gst_structure_free (m);
  }
  gst_element_post_message (element_, gst_message_new_element (GST_OBJECT_CAST (element_), s));
}

bool MotionResults::close_log ()
{
  if (!log_.is_open ())
    return true;
  double secs = (g_get_monotonic_time () - start_time_) / 1e6;
  double fps = secs > 0 ? frames_total_ / secs : 0;
  if (log_.close (scorer_, fps))
    return true;
  GST_ELEMENT_ERROR (element_, RESOURCE, WRITE,
      ("Could not write the motion results to \"%s\"", location_), GST_ERROR_SYSTEM);
  return false;
}

} // namespace gpc
