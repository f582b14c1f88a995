/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkproresdec's frames that do not decode, handled as upstream decoders
 * (avdec_prores) handle them: a frame that cannot be decoded at all is
 * dropped against the base class's max-errors, a frame with failed slices
 * goes out flagged corrupted, the application hears of each kind once, and
 * a stream of which no frame decodes ends in an error.
 */
#pragma once

#include <gst/video/video.h>

#include "vkproresscheduler.h"

namespace gpc {

class ProResDecodeErrors {
 public:
  /* `frame` cannot be decoded (`why`): counted against max-errors
   * (GstVideoDecoder's budget, unlimited by default, as for avdec_prores),
   * dropped with the base class's QoS message; the stream goes on unless
   * the budget is spent (the flow return says). */
  GstFlowReturn skip (GstVideoDecoder *dec, GstVideoCodecFrame *frame, const char *why);
  /* A finished frame: skipped when none of its slices decoded; else true,
   * and where some failed flagged corrupted (dropped with
   * discard-corrupted-frames=true) and output with those slices as they
   * came out, as FFmpeg does. */
  bool check (GstVideoDecoder *dec, GstVideoCodecFrame *frame,
      const ProResScheduler::Done &done, GstFlowReturn *ret);
  /* A frame went out. */
  void decoded () { decoded_++; }
  /* End of stream: the error when frames were skipped and none decoded
   * (the base class says this only when no frame was finished or dropped,
   * and it counts our skipped frames, dropped for their QoS message). */
  void finish (GstVideoDecoder *dec) const;
  /* Counts from zero (start; flush, bad_slices aside). */
  void reset (bool all);

 private:
  guint64 bad_slices_ = 0;  /* frames with failed slices, since start */
  guint64 skipped_ = 0;     /* undecodable, since start or the last flush */
  guint64 decoded_ = 0;     /* finished, likewise */
};

} // namespace gpc
