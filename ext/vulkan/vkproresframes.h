/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkproresdec's GstVideoCodecFrames on their way through the GPU: each
 * queued to the scheduler with where the delivery wants it written,
 * finished in order through GstVideoDecoder (finish_frame, or dropped as
 * ProResDecodeErrors says), drained before what must not overtake them
 * (caps, EOS), dropped at a flush. A plain object between the element's
 * GstVideoDecoder virtual methods and the scheduler.
 */
#pragma once

#include <gst/video/video.h>

#include "vkproresdelivery.h"
#include "vkproreserrors.h"
#include "vkproresscheduler.h"

namespace gpc {

class ProResFrames {
 public:
  /* Frames of `dec`, decoded on `queue`, output through `delivery` (not
   * owned, must outlive this). NULL with `error` set on failure. */
  static ProResFrames *create (GstVideoDecoder *dec, GstVulkanDevice *device,
      GstVulkanQueue *queue, ParallelCopy *copier, ProResDelivery *delivery, GError **error);
  /* Drops what is pending and waits for the GPU. */
  ~ProResFrames ();
  ProResFrames (const ProResFrames &) = delete;
  ProResFrames &operator= (const ProResFrames &) = delete;

  void set_pacing (const ProResPacing &pacing) { sched_->set_pacing (pacing); }
  /* Drops free buffers (after a size change). */
  void trim () { sched_->trim (); }
  ProResDecodeErrors &errors () { return errors_; }

  /* Queues the GPU work of `frame` (parsed from `data`) as `c` lays it
   * out and submits the batch once full. On failure the frame is dropped
   * with an error posted. */
  GstFlowReturn queue (GstVideoCodecFrame *frame, const uint8_t *data, size_t size,
      const prores::Frame &parsed, const ProResOutConfig &c, prores::IdctFlavor idct);
  /* Finishes the frames that are due, never waiting for one just
   * submitted unless the window is full (which may finish the frame just
   * queued: its input is the base class's then). */
  GstFlowReturn complete_due ();
  /* `frame` cannot be decoded (`why`): the frames before it go out first,
   * in order, then it is skipped (ProResDecodeErrors::skip). */
  GstFlowReturn skip (GstVideoCodecFrame *frame, const char *why);
  /* Finishes every pending frame, in order. */
  GstFlowReturn drain ();
  /* Drops every pending frame (flush): waits for the GPU, outputs
   * nothing; the base class drops its own references to the frames. */
  void discard ();

 private:
  ProResFrames (GstVideoDecoder *dec, ProResDelivery *delivery)
      : dec_ (dec), delivery_ (delivery) {}
  GstFlowReturn complete_oldest ();
  ProResScheduler::DropFn dropper () const;

  GstVideoDecoder *dec_;
  ProResDelivery *delivery_;
  ProResScheduler *sched_ = nullptr;
  ProResDecodeErrors errors_;
};

} // namespace gpc
