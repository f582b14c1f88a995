/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproreserrors.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vk_prores_dec_debug);
#define GST_CAT_DEFAULT gst_vk_prores_dec_debug

namespace gpc {

GstFlowReturn ProResDecodeErrors::skip (GstVideoDecoder *dec, GstVideoCodecFrame *frame,
    const char *why)
{
  GstFlowReturn ret = GST_FLOW_OK;
  skipped_++;
  GST_VIDEO_DECODER_ERROR (dec, 1, STREAM, DECODE, ("Could not decode a ProRes frame"),
      ("frame %u: %s", frame->system_frame_number, why), ret);
  if (ret == GST_FLOW_OK && skipped_ == 1)
    GST_ELEMENT_WARNING (dec, STREAM, DECODE, ("Undecodable ProRes frames are skipped"),
        ("frame %u: %s", frame->system_frame_number, why));
  gst_video_decoder_drop_frame (dec, frame);
  return ret;
}

bool ProResDecodeErrors::check (GstVideoDecoder *dec, GstVideoCodecFrame *frame,
    const ProResScheduler::Done &f, GstFlowReturn *ret)
{
  if (f.failed >= f.slices) {
    gchar *why = g_strdup_printf ("none of its %u slices decoded (first error: status %u)",
        f.slices, f.code);
    *ret = skip (dec, frame, why);
    g_free (why);
    return false;
  }
  if (f.failed) {
    GST_VIDEO_CODEC_FRAME_FLAG_SET (frame, GST_VIDEO_CODEC_FRAME_FLAG_CORRUPTED);
    bad_slices_++;
    GST_WARNING_OBJECT (dec, "frame %u: %u of %u slices failed (first: slice %u,"
        " status %u)", frame->system_frame_number, f.failed, f.slices, f.first_failed, f.code);
    /* Tell the application once; the log has every frame. */
    if (bad_slices_ == 1)
      GST_ELEMENT_WARNING (dec, STREAM, DECODE, ("Damaged ProRes frames"),
          ("frame %u: %u of its %u slices could not be decoded (first: slice %u, "
              "status %u); such frames are output with those slices undefined",
              frame->system_frame_number, f.failed, f.slices, f.first_failed, f.code));
  }
  return true;
}

void ProResDecodeErrors::finish (GstVideoDecoder *dec) const
{
  if (skipped_ > 0 && decoded_ == 0)
    GST_ELEMENT_ERROR (dec, STREAM, DECODE, ("No valid frames decoded before end of stream"),
        ("none of the %" G_GUINT64_FORMAT " frames could be decoded", skipped_));
}

void ProResDecodeErrors::reset (bool all)
{
  skipped_ = decoded_ = 0;
  if (all)
    bad_slices_ = 0;
}

} // namespace gpc
