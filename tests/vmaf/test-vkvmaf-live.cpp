/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf between live sources: two live videotestsrc (the distorted one
 * downscaled and scaled back up, VMAF about 95) scored while they run, a
 * flushing seek back to the start in mid-stream, then the sources' EOS. The
 * element must keep scoring after the seek (a new motion history: the first
 * frame after it has motion 0, and the same picture as the stream's first
 * frame gets the same score), post its pooled message at EOS and never
 * hang; the leaks test runs the same program under the leaks tracer.
 */
#include <string>
#include <vector>

#include "gpc-test.h"
#include "gpc-vk-test.h"

namespace {

struct Scored {
  GstClockTime timestamp;
  double score, motion2;
};

/* Pops bus messages until `n` more frame messages arrived (or an error,
 * EOS, or 60 s without one); returns the frame messages. */
bool
wait_frames (GstBus *bus, size_t n, std::vector<Scored> *frames, bool *pooled)
{
  const size_t want = frames->size () + n;
  while (frames->size () < want) {
    GstMessage *m = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
        (GstMessageType) (GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
    fail_unless (m != NULL, "no message in 60 s: the pipeline hangs");
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR) {
      GError *e = NULL;
      gst_message_parse_error (m, &e, NULL);
      fail ("error: %s", e->message);
    }
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS) {
      gst_message_unref (m);
      return false;
    }
    const GstStructure *s = gst_message_get_structure (m);
    if (gst_structure_has_name (s, "VMAF")) {
      if (!g_strcmp0 (gst_structure_get_string (s, "type"), "pooled")) {
        *pooled = true;
      } else {
        Scored f = { GST_CLOCK_TIME_NONE, -1, -1 };
        gst_structure_get_uint64 (s, "timestamp", &f.timestamp);
        gst_structure_get_double (s, "score", &f.score);
        gst_structure_get_double (s, "integer_motion2", &f.motion2);
        frames->push_back (f);
      }
    }
    gst_message_unref (m);
  }
  return true;
}

/* A moving zone plate; the distorted copy lost detail to a downscale. */
const char *const kPipeline =
    "videotestsrc is-live=true num-buffers=45 pattern=zone-plate kx2=3 ky2=3 kt=2 ! "
    "video/x-raw,format=I420,width=96,height=64,framerate=30/1 ! v.ref_sink "
    "videotestsrc is-live=true num-buffers=45 pattern=zone-plate kx2=3 ky2=3 kt=2 ! "
    "video/x-raw,format=I420,width=96,height=64,framerate=30/1 ! videoscale ! "
    "video/x-raw,width=64,height=40 ! videoscale ! "
    "video/x-raw,width=96,height=64 ! v.dist_sink "
    "vkvmaf name=v frame-message=true ! fakesink sync=true";

} // namespace

GST_START_TEST (live_flushing_seek)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (kPipeline, &err);
  fail_unless (pipe != NULL, "%s", err ? err->message : "");
  GstBus *bus = gst_element_get_bus (pipe);
  fail_if (gst_element_set_state (pipe, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE);

  std::vector<Scored> frames;
  bool pooled = false;
  fail_unless (wait_frames (bus, 6, &frames, &pooled));
  const size_t before = frames.size ();
  fail_unless (gst_element_seek_simple (pipe, GST_FORMAT_TIME,
          (GstSeekFlags) (GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE), 0),
      "the flushing seek failed");
  fail_unless (wait_frames (bus, 8, &frames, &pooled), "EOS instead of frames after the seek");

  /* The first frame whose timestamp goes back starts the seek's stream. */
  size_t first = 0;
  for (size_t i = 1; i < frames.size () && !first; i++)
    if (frames[i].timestamp < frames[i - 1].timestamp)
      first = i;
  fail_unless (first >= before / 2, "no frame after the seek went back in time");
  GST_INFO ("%zu frames before the seek, %zu after", first, frames.size () - first);
  fail_unless (frames[first].motion2 == 0.0,
      "the first frame after the seek has motion2 %g, not a new history's 0",
      frames[first].motion2);
  for (const Scored &f : frames)
    fail_unless (f.score > 50.0 && f.score <= 100.0, "score %g", f.score);
  if (frames[first].timestamp == frames[0].timestamp)
    fail_unless (frames[first].score == frames[0].score,
        "the same picture scored %.17g after the seek, %.17g at the start",
        frames[first].score, frames[0].score);

  /* Both sources end after the same number of frames: the pooled message
   * comes. */
  while (wait_frames (bus, 1, &frames, &pooled))
    ;
  fail_unless (pooled, "no pooled message at EOS");

  fail_if (gst_element_set_state (pipe, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

/* The same, stopped (to NULL) while frames are in flight right after a
 * seek: nothing may hang or stay alive. */
GST_START_TEST (live_stop_after_seek)
{
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (kPipeline, &err);
  fail_unless (pipe != NULL, "%s", err ? err->message : "");
  GstBus *bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  std::vector<Scored> frames;
  bool pooled = false;
  fail_unless (wait_frames (bus, 3, &frames, &pooled));
  fail_unless (gst_element_seek_simple (pipe, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH,
      100 * GST_MSECOND));
  fail_unless (wait_frames (bus, 1, &frames, &pooled));
  fail_if (gst_element_set_state (pipe, GST_STATE_NULL) == GST_STATE_CHANGE_FAILURE);
  gst_object_unref (bus);
  gst_object_unref (pipe);
  gpc_vk_test_check_validation ();
}
GST_END_TEST;

int
main (int argc, char **argv)
{
  return gpc_vk_test_main (&argc, &argv, "vkvmaf-live", {
        GPC_CHECK_TEST (live_flushing_seek),
        GPC_CHECK_TEST (live_stop_after_seek) }, 300);
}
