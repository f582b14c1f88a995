/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * cudaflacdec's framed input (flacparse): metadata buffers and frames,
 * queued into batches.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaflacdec-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

namespace gpc {
namespace cudaflacdec {

/* STREAMINFO from flacparse's caps: the first streamheader buffer is
 * 0x7F "FLAC" major minor count(2) "fLaC" and the STREAMINFO block. */
void streaminfo_from_caps (GstCudaFlacDec *self, const GstStructure *s)
{
  DecState *st = self->st;
  const GValue *sh = gst_structure_get_value (s, "streamheader");
  if (sh && GST_VALUE_HOLDS_ARRAY (sh) && gst_value_array_get_size (sh) > 0) {
    const GValue *v = gst_value_array_get_value (sh, 0);
    GstBuffer *hb = G_VALUE_HOLDS (v, GST_TYPE_BUFFER) ? gst_value_get_buffer (v) : NULL;
    GstMapInfo map;
    if (hb && gst_buffer_map (hb, &map, GST_MAP_READ)) {
      if (map.size >= 13 + 4 + 34 && map.data[0] == 0x7f && memcmp (map.data + 1, "FLAC", 4) == 0 &&
          memcmp (map.data + 9, "fLaC", 4) == 0) {
        Metadata md;
        size_t used;
        bool last;
        if (parse_block_with_header (map.data + 13, map.size - 13, &md, &used, &last) == kOk &&
            md.info.valid) {
          if (st->have_info && memcmp (&st->info, &md.info, sizeof (StreamInfo)) != 0) {
            /* a new stream: push what belongs to the old one */
            flush_queued (self);
            finish_in_flight (self);
          }
          set_stream_info (self, md.info);
        }
      }
      gst_buffer_unmap (hb, &map);
    }
  }
}

GstFlowReturn flush_queued (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  if (st->queued.empty ())
    return GST_FLOW_OK;
  GstFlowReturn adopted = adopt_cuda_when_ready (self);
  if (adopted != GST_FLOW_OK)
    return adopted;
  std::unique_ptr<Batch> b (new Batch);
  size_t total = 0;
  for (GstBuffer *buf : st->queued)
    total += gst_buffer_get_size (buf);
  GstFlowReturn taken;
  uint8_t *dst = batch_input (self, *b, total, &taken);
  if (taken != GST_FLOW_OK)
    return taken;
  if (!dst) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("CUDA decoding failed"), ("no pinned memory"));
    return GST_FLOW_ERROR;
  }
  size_t off = 0;
  uint64_t samples = 0;
  for (size_t i = 0; i < st->queued.size (); i++) {
    GstBuffer *buf = st->queued[i];
    size_t n = gst_buffer_extract (buf, 0, dst + off, gst_buffer_get_size (buf));
    FrameJob j;
    j.data = dst + off;
    j.size = n;
    j.out_sample = samples;
    j.samples = st->queued_hdr[i].blocksize;
    b->jobs.push_back (j);
    b->numbers.push_back (st->queued_hdr[i].number);
    samples += j.samples;
    off += n;
    gst_buffer_unref (buf);
  }
  b->fmt = st->queued_fmt;
  b->rate = st->queued_rate;
  b->samples = samples;
  b->in_frames = (int) st->queued.size ();
  st->queued.clear ();
  st->queued_hdr.clear ();
  st->queued_samples = 0;
  if (!st->live)
    st->ramp_frames = MIN (st->ramp_frames * 2, st->batch_frames);
  return run_batch_now (self, std::move (b));
}

/* Metadata arriving as buffers (flacparse pushes "fLaC" and each block). */
static void handle_metadata_buffer (GstCudaFlacDec *self, const uint8_t *data, size_t size)
{
  Metadata md;
  size_t used;
  bool last;
  int r = parse_block_with_header (data, size, &md, &used, &last);
  if (r != kOk) {
    GST_WARNING_OBJECT (self, "ignoring invalid metadata block (%s)", status_name (r));
  } else if (md.blocks[0].type == kStreamInfo) {
    set_stream_info (self, md.info);
  } else if (md.has_comments || !md.pictures.empty ()) {
    add_tags_from (self, md);
  }
}

GstFlowReturn handle_framed (GstCudaFlacDec *self, GstBuffer *buf)
{
  DecState *st = self->st;
  GstMapInfo map;
  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return GST_FLOW_ERROR;
  if (map.size == 4 && memcmp (map.data, "fLaC", 4) == 0) {
    gst_buffer_unmap (buf, &map);
    return gst_audio_decoder_finish_frame (GST_AUDIO_DECODER (self), NULL, 1);
  }
  if (map.size < 2 || !is_sync (map.data)) {
    /* a metadata block, unless STREAMINFO is known and this is a frame with
     * a damaged sync code */
    GstFlowReturn ret = GST_FLOW_OK;
    if (map.size >= 1 && (map.data[0] & 0x7f) != kInvalidBlock) {
      ret = flush_queued (self);
      if (ret == GST_FLOW_OK)
        handle_metadata_buffer (self, map.data, map.size);
      gst_buffer_unmap (buf, &map);
      /* finishing releases buf: only after unmapping */
      if (ret == GST_FLOW_OK)
        ret = gst_audio_decoder_finish_frame (GST_AUDIO_DECODER (self), NULL, 1);
      return ret;
    }
  }
  StreamDefaults d;
  if (st->have_info) {
    d.sample_rate = st->info.sample_rate;
    d.bps = st->info.bps;
    d.legacy_variable = st->info.min_blocksize != st->info.max_blocksize;
  }
  FrameHeader h;
  int r = parse_frame_header (map.data, map.size, d, &h);
  gst_buffer_unmap (buf, &map);
  if (r != kOk) {
    /* flacparse let through something that is not a frame: without a
     * header its duration is only known for fixed-blocksize streams */
    if (!st->have_info || st->info.min_blocksize != st->info.max_blocksize || st->queued_hdr.empty ()) {
      GstFlowReturn ret = count_error (self, st->queued_hdr.empty () ? 0 : st->queued_hdr.back ().number + 1,
          st->decoded + st->queued_samples, r, 0);
      return ret == GST_FLOW_OK ? gst_audio_decoder_finish_frame (GST_AUDIO_DECODER (self), NULL, 1) : ret;
    }
    h = st->queued_hdr.back ();
    h.number++;
    h.blocksize = st->info.max_blocksize;
    /* queued as a frame that fails to decode: silence of its duration */
  }
  BatchFormat fmt = format_of_header (h, d);
  if (!st->queued.empty () && !same_format (st->queued_fmt, st->queued_rate, fmt, h.sample_rate)) {
    GST_INFO_OBJECT (self, "stream parameters change at frame %" G_GUINT64_FORMAT, h.number);
    GstFlowReturn ret = flush_queued (self);
    if (ret != GST_FLOW_OK)
      return ret;
  }
  if (h.sample_rate == 0) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE, ("No sample rate"), ("frame header defers to a missing STREAMINFO"));
    return GST_FLOW_ERROR;
  }
  st->queued_fmt = fmt;
  st->queued_rate = h.sample_rate;
  st->queued.push_back (gst_buffer_ref (buf));
  st->queued_hdr.push_back (h);
  st->queued_samples += h.blocksize;
  bool full = st->queued.size () >= (st->live ? st->batch_frames : MIN (st->ramp_frames, st->batch_frames));
  GstClockTime batch_time = st->live ? live_batch_time (st) : st->batch_time;
  if (batch_time && gst_util_uint64_scale (st->queued_samples, GST_SECOND, h.sample_rate) >= batch_time)
    full = true;
  return full ? flush_queued (self) : GST_FLOW_OK;
}

} // namespace cudaflacdec
} // namespace gpc
