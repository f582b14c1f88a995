/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproresframes.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vk_prores_dec_debug);
#define GST_CAT_DEFAULT gst_vk_prores_dec_debug

namespace gpc {

ProResFrames *ProResFrames::create (GstVideoDecoder *dec, GstVulkanDevice *device,
    GstVulkanQueue *queue, ParallelCopy *copier, ProResDelivery *delivery, GError **error)
{
  ProResScheduler *sched = ProResScheduler::create (device, queue, copier, error);
  if (!sched)
    return nullptr;
  ProResFrames *f = new ProResFrames (dec, delivery);
  f->sched_ = sched;
  return f;
}

ProResFrames::~ProResFrames ()
{
  discard ();
  delete sched_;                /* waits for the GPU */
}

/* Frames the scheduler gives back undecoded (a failed submission) are
 * dropped. */
ProResScheduler::DropFn ProResFrames::dropper () const
{
  GstVideoDecoder *dec = dec_;
  return [dec] (void *frame) {
    gst_video_decoder_drop_frame (dec, (GstVideoCodecFrame *) frame);
  };
}

GstFlowReturn ProResFrames::queue (GstVideoCodecFrame *frame, const uint8_t *data, size_t size,
    const prores::Frame &parsed, const ProResOutConfig &c, prores::IdctFlavor idct)
{
  GError *error = NULL;
  GstBuffer *vk_out;
  ProResDownload download;
  GstFlowReturn ret = delivery_->prepare (dec_, frame, &vk_out, &download, &error);
  if (ret != GST_FLOW_OK && !error) {
    gst_video_decoder_drop_frame (dec_, frame);
    return ret;
  }
  const bool queued = ret == GST_FLOW_OK && sched_->queue (frame, data, size, parsed, c, idct,
      vk_out, download.buffer ? &download : NULL, &error);
  gst_clear_buffer (&download.buffer);
  if (!queued || !sched_->submit (true, dropper (), &error)) {
    GST_ELEMENT_ERROR (dec_, RESOURCE, FAILED,
        ("Failed to submit ProRes decoding to the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    if (!queued)
      gst_video_decoder_drop_frame (dec_, frame);
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

GstFlowReturn ProResFrames::complete_due ()
{
  /* complete_oldest submits a batch still open. */
  GstFlowReturn ret = GST_FLOW_OK;
  while (ret == GST_FLOW_OK && !sched_->empty () && sched_->oldest_due ())
    ret = complete_oldest ();
  return ret;
}

/* Waits for the oldest frame and finishes (or skips) it. */
GstFlowReturn ProResFrames::complete_oldest ()
{
  ProResScheduler::Done f;
  GError *error = NULL;
  if (!sched_->complete_oldest (&f, dropper (), &error)) {
    GST_ELEMENT_ERROR (dec_, RESOURCE, FAILED, ("The Vulkan device failed while decoding"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  GstVideoCodecFrame *frame = (GstVideoCodecFrame *) f.frame;
  GstFlowReturn ret = GST_FLOW_OK;
  if (!errors_.check (dec_, frame, f, &ret)) {
    gst_clear_buffer (&f.download);
    return ret;
  }
  if (f.download) {
    ret = delivery_->output (dec_, frame, f.download);
    gst_buffer_unref (f.download);
    if (ret != GST_FLOW_OK) {
      gst_video_decoder_drop_frame (dec_, frame);
      return ret;
    }
  }
  errors_.decoded ();
  return gst_video_decoder_finish_frame (dec_, frame);
}

GstFlowReturn ProResFrames::skip (GstVideoCodecFrame *frame, const char *why)
{
  GstFlowReturn ret = drain ();
  GstFlowReturn r = errors_.skip (dec_, frame, why);
  return ret == GST_FLOW_OK ? r : ret;
}

GstFlowReturn ProResFrames::drain ()
{
  GstFlowReturn ret = GST_FLOW_OK;
  while (!sched_->empty ()) {
    GstFlowReturn r = complete_oldest ();
    if (ret == GST_FLOW_OK)
      ret = r;
  }
  return ret;
}

void ProResFrames::discard ()
{
  sched_->discard ([] (void *frame) {
        gst_video_codec_frame_unref ((GstVideoCodecFrame *) frame);
      });
}

} // namespace gpc
