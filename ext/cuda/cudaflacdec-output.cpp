/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * cudaflacdec's output: caps and channel positions, latency, output
 * buffers, corrupt-frame accounting, tags, and the MD5 check at EOS.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaflacdec-private.h"

#include <gst/tag/tag.h>
#include <string.h>

#include "flac-channels.h"
#include "flac-md5.h"
#include "gpc-parallel-copy.h"

#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

namespace gpc {
namespace cudaflacdec {

/* Audio a live batch may hold: LIVE_BATCH_TIME, or batch-time if shorter. */
GstClockTime live_batch_time (const DecState *st)
{
  return st->batch_time ? MIN (st->batch_time, LIVE_BATCH_TIME) : LIVE_BATCH_TIME;
}

/* The latency we add: how long the first sample of a batch can wait for
 * the rest of it. Live: one live batch, plus (unframed) the frame that
 * waits for the next one's header to be found. Otherwise a whole batch or
 * chunk, twice on the GPU, where one batch decodes while the next fills. */
void update_latency (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  uint32_t rate = st->negotiated ? st->out_rate : st->have_info ? st->info.sample_rate : 0;
  if (!rate)
    return;
  uint32_t bs = st->have_info && st->info.max_blocksize ? st->info.max_blocksize : 4096;
  GstClockTime lat;
  if (st->live) {
    lat = live_batch_time (st);
    if (st->unframed)
      lat += gst_util_uint64_scale (bs, GST_SECOND, rate);
  } else if (!st->unframed) {
    lat = gst_util_uint64_scale (st->batch_frames * (guint64) bs, GST_SECOND, rate);
    if (st->batch_time && st->batch_time < lat)
      lat = st->batch_time;
  } else {
    /* a chunk holds about chunk_size / (compressed bytes per second) */
    unsigned ch = st->negotiated ? st->out_fmt.channels : st->info.channels;
    unsigned bps = st->negotiated ? st->out_fmt.bps : st->info.bps;
    guint64 bytes_per_s = (guint64) rate * ch * ((bps + 7) / 8) * 6 / 10;
    lat = gst_util_uint64_scale (st->chunk_size, GST_SECOND, MAX (bytes_per_s, 1));
  }
  if (!st->live && cuda_possible (st))
    lat *= 2;
  gst_audio_decoder_set_latency (GST_AUDIO_DECODER (self), lat, lat);
}

/* Asks upstream, once per stream, whether it is live. */
void check_live (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  if (st->live_known)
    return;
  st->live_known = true;
  GstQuery *q = gst_query_new_latency ();
  gboolean live = FALSE;
  if (gst_pad_peer_query (GST_AUDIO_DECODER_SINK_PAD (self), q))
    gst_query_parse_latency (q, &live, NULL, NULL);
  gst_query_unref (q);
  st->live = live;
  GST_INFO_OBJECT (self, "upstream is %s: %s", live ? "live" : "not live",
      live ? "batches of at most one frame or the live batch time" : "batches grow from a small first one");
  update_latency (self);
}

static gboolean negotiate_for (GstCudaFlacDec *self, const BatchFormat &fmt, uint32_t rate)
{
  DecState *st = self->st;
  if (st->negotiated && same_format (st->out_fmt, st->out_rate, fmt, rate))
    return TRUE;
  if (st->negotiated && !same_format (st->out_fmt, st->out_rate, fmt, rate) && st->check_md5 && st->md5_valid) {
    /* STREAMINFO (and its MD5) describe one format only */
    GST_INFO_OBJECT (self, "the stream's format changes after %" G_GUINT64_FORMAT " samples: MD5 not checked",
        st->decoded);
    st->md5_valid = false;
    st->md5.reset ();
  }
  unsigned ch = fmt.channels;
  if (!flac_channel_positions (ch, st->have_mask, st->channel_mask, st->from_pos))
    GST_WARNING_OBJECT (self, "channel mask 0x%x does not give %u channels positions GStreamer knows: "
        "output unpositioned", st->channel_mask, ch);
  memcpy (st->to_pos, st->from_pos, sizeof (GstAudioChannelPosition) * ch);
  gst_audio_channel_positions_to_valid_order (st->to_pos, ch);
  st->reorder = memcmp (st->from_pos, st->to_pos, sizeof (GstAudioChannelPosition) * ch) != 0;
  if (st->reorder && !gst_audio_get_channel_reorder_map ((gint) ch, st->from_pos, st->to_pos, st->reorder_map)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("no channel reorder map for %u channels", ch));
    return FALSE;
  }
  GstAudioInfo info;
  gst_audio_info_init (&info);
  gst_audio_info_set_format (&info, gst_format_of (fmt.format), rate, ch, st->to_pos);
  GST_INFO_OBJECT (self, "output: %u channels, %u bits in %s, %u Hz", ch, fmt.bps,
      gst_audio_format_to_string (gst_format_of (fmt.format)), rate);
  if (!gst_audio_decoder_set_output_format (GST_AUDIO_DECODER (self), &info))
    return FALSE;
  st->negotiated = true;
  st->out_fmt = fmt;
  st->out_rate = rate;
  update_latency (self);
  return TRUE;
}

/* An output buffer of `size` bytes. A batch's PCM is tens of megabytes:
 * fresh memory of that size comes from mmap and costs a page fault per
 * 4 KiB when first written (about 0.2 s for the 887 MB of the 4620 s
 * benchmark file), so large outputs come from a pool of our own, whose
 * buffers come back warm once downstream and the MD5 thread let go. */
GstBuffer *alloc_output (GstCudaFlacDec *self, gsize size)
{
  DecState *st = self->st;
  GstAudioDecoder *dec = GST_AUDIO_DECODER (self);
  const gsize kPooledFrom = 1 << 20;
  if (size < kPooledFrom)
    return gst_audio_decoder_allocate_output_buffer (dec, MAX (size, 1));
  if (!st->out_pool || size > st->out_pool_size) {
    if (st->out_pool) {
      gst_buffer_pool_set_active (st->out_pool, FALSE);
      gst_object_unref (st->out_pool);
    }
    /* batches vary a little: room for a larger one than this */
    st->out_pool_size = size + size / 4;
    st->out_pool = gst_buffer_pool_new ();
    GstStructure *config = gst_buffer_pool_get_config (st->out_pool);
    gst_buffer_pool_config_set_params (config, NULL, (guint) st->out_pool_size, 0, 0);
    if (!gst_buffer_pool_set_config (st->out_pool, config) || !gst_buffer_pool_set_active (st->out_pool, TRUE)) {
      gst_clear_object (&st->out_pool);
      st->out_pool_size = 0;
      return gst_audio_decoder_allocate_output_buffer (dec, size);
    }
  }
  GstBuffer *buf = NULL;
  if (gst_buffer_pool_acquire_buffer (st->out_pool, &buf, NULL) != GST_FLOW_OK)
    return gst_audio_decoder_allocate_output_buffer (dec, size);
  gst_buffer_set_size (buf, (gssize) size);
  return buf;
}

/* One corrupt frame, through the base class, so that max-errors applies;
 * the bus hears of them once, in summary (report_error_summary). */
GstFlowReturn count_error (GstCudaFlacDec *self, uint64_t number, uint64_t sample, int status,
    uint32_t samples)
{
  DecState *st = self->st;
  if (st->errors++ == 0) {
    st->first_error = number;
    st->first_error_sample = sample;
    st->first_error_status = status;
  }
  st->errors_unreported++;
  GstFlowReturn ret = GST_FLOW_OK;
  GST_AUDIO_DECODER_ERROR (self, 1, STREAM, DECODE, (NULL),
      ("corrupt FLAC frame %" G_GUINT64_FORMAT " (output sample %" G_GUINT64_FORMAT "): %s; %u samples of silence",
          number, sample, status_name (status), samples), ret);
  return ret;
}

static GstFlowReturn report_errors (GstCudaFlacDec *self, const Batch &b)
{
  DecState *st = self->st;
  GstFlowReturn ret = GST_FLOW_OK;
  for (size_t i = 0; i < b.jobs.size () && ret == GST_FLOW_OK; i++) {
    const FrameJob &j = b.jobs[i];
    if (j.status != kOk)
      ret = count_error (self, b.numbers[i], st->decoded + j.out_sample, j.status, j.samples);
  }
  return ret;
}

/* One warning for the corrupt frames since the last one (at EOS). */
void report_error_summary (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  if (!st->errors_unreported)
    return;
  GST_ELEMENT_WARNING (self, STREAM, DECODE, ("Corrupt FLAC frames replaced by silence"),
      ("%" G_GUINT64_FORMAT " corrupt frame(s) replaced by silence of their duration; the first: frame %"
          G_GUINT64_FORMAT " (output sample %" G_GUINT64_FORMAT "): %s", st->errors_unreported, st->first_error,
          st->first_error_sample, status_name (st->first_error_status)));
  st->errors_unreported = 0;
}

/* Pushes a finished batch: negotiation, reports, MD5, channel order. */
GstFlowReturn push_batch (GstCudaFlacDec *self, Batch &b, const uint8_t *pcm, size_t pcm_bytes)
{
  DecState *st = self->st;
  GstAudioDecoder *dec = GST_AUDIO_DECODER (self);
  if (!negotiate_for (self, b.fmt, b.rate)) {
    if (b.out)
      gst_buffer_unref (b.out);
    b.out = nullptr;
    return GST_FLOW_NOT_NEGOTIATED;
  }
  GstBuffer *out = b.out;
  b.out = nullptr;
  GstFlowReturn reported = report_errors (self, b);
  if (reported != GST_FLOW_OK) {
    if (out)
      gst_buffer_unref (out);
    return reported;
  }
  StageTimer timer (&st->stage_s[kStagePush]);
  if (!out)
    out = alloc_output (self, pcm_bytes);
  if (pcm) {
    /* PCM from the CUDA slot's pinned buffer: over the CPU backend's
     * threads, as one core copying into fresh pages is slower than the GPU
     * (0.6 s of 1.3 s for 4620 s of stereo on the H100 host). */
    GstMapInfo map;
    if (!gst_buffer_map (out, &map, GST_MAP_WRITE)) {
      gst_buffer_unref (out);
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot map the output buffer"), (NULL));
      return GST_FLOW_ERROR;
    }
    gpc::ParallelCopy (&st->cpu->pool ()).copy (map.data, pcm, MIN (pcm_bytes, map.size));
    gst_buffer_unmap (out, &map);
  }
  /* Reordered in place while `out` is ours alone: once the MD5 worker holds
   * it, it is read-only to everyone (a copy, on GStreamer 1.26, references
   * a pooled original too). The worker hashes it back in FLAC order. */
  if (st->reorder)
    out = gst_buffer_make_writable (out); /* a no-op for the buffers allocated above */
  if (st->reorder && !gst_audio_buffer_reorder_channels (out, gst_format_of (b.fmt.format),
          (gint) b.fmt.channels, st->from_pos, st->to_pos)) {
    gst_buffer_unref (out);
    GST_ELEMENT_ERROR (self, STREAM, DECODE, (NULL), ("cannot reorder the channels of the output"));
    return GST_FLOW_ERROR;
  }
  if (st->check_md5 && st->md5_valid)
    st->md5.push (out, out_format_bytes (b.fmt.format), out_format_depth (b.fmt.format) - b.fmt.bps,
        b.fmt.bps, st->reorder ? b.fmt.channels : 0, st->reorder ? st->reorder_map : nullptr);
  st->decoded += b.samples;
  if (b.trim) {
    /* shared with the MD5 worker: a new buffer over the same memory */
    out = gst_buffer_make_writable (out);
    size_t bpf = b.fmt.channels * out_format_bytes (b.fmt.format);
    size_t t = MIN (b.trim, b.samples);
    gst_buffer_resize (out, (gssize) (t * bpf), (gssize) ((b.samples - t) * bpf));
    b.samples -= t;
  }
  if (b.samples == 0) {
    gst_buffer_unref (out);
    out = nullptr;
  }
  /* a chunk whose format changes gives several batches: the input buffers
   * are finished with the last */
  if (b.in_frames == 0)
    return out ? gst_audio_decoder_finish_subframe (dec, out) : GST_FLOW_OK;
  return gst_audio_decoder_finish_frame (dec, out, b.in_frames);
}

void add_tags_from (GstCudaFlacDec *self, const Metadata &md)
{
  DecState *st = self->st;
  uint32_t mask = 0;
  if (md.has_comments && channel_mask_from_comments (md.comments, &mask) &&
      (!st->have_mask || mask != st->channel_mask)) {
    GST_INFO_OBJECT (self, "channel mask 0x%x from WAVEFORMATEXTENSIBLE_CHANNEL_MASK", mask);
    st->have_mask = true;
    st->channel_mask = mask;
    st->negotiated = false; /* positions to be set again */
  }
  GstTagList *tags = gst_tag_list_new_empty ();
  for (const std::string &c : md.comments) {
    size_t eq = c.find ('=');
    if (eq == std::string::npos || eq == 0)
      continue;
    std::string name = c.substr (0, eq), value = c.substr (eq + 1);
    if (g_utf8_validate (value.c_str (), -1, NULL))
      gst_vorbis_tag_add (tags, name.c_str (), value.c_str ());
  }
  for (const Picture &p : md.pictures) {
    GstSample *s = gst_tag_image_data_to_image_sample (p.data.data (), (guint) p.data.size (),
        p.type == 3 ? GST_TAG_IMAGE_TYPE_FRONT_COVER : GST_TAG_IMAGE_TYPE_UNDEFINED);
    if (s) {
      gst_tag_list_add (tags, GST_TAG_MERGE_APPEND,
          p.type == 3 || p.type == 0 ? GST_TAG_IMAGE : GST_TAG_PREVIEW_IMAGE, s, NULL);
      gst_sample_unref (s);
    }
  }
  gst_tag_list_add (tags, GST_TAG_MERGE_REPLACE, GST_TAG_AUDIO_CODEC, "Free Lossless Audio Codec (FLAC)", NULL);
  gst_audio_decoder_merge_tags (GST_AUDIO_DECODER (self), tags, GST_TAG_MERGE_REPLACE);
  gst_tag_list_unref (tags);
}

void set_stream_info (GstCudaFlacDec *self, const StreamInfo &si)
{
  DecState *st = self->st;
  GST_OBJECT_LOCK (self);
  st->info = si;
  st->have_info = true;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "STREAMINFO: %u Hz, %u channels, %u bits, blocks %u..%u, %" G_GUINT64_FORMAT
      " samples", si.sample_rate, si.channels, si.bps, si.min_blocksize, si.max_blocksize, si.total_samples);
}

void check_md5_at_eos (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  if (!st->check_md5 || !st->md5_valid || !st->have_info || !st->info.md5_known ())
    return;
  uint8_t digest[16];
  {
    StageTimer timer (&st->stage_s[kStageMd5Wait]);
    st->md5.finish (digest);
  }
  st->md5_valid = false; /* once per stream */
  if (st->info.total_samples && st->decoded != st->info.total_samples) {
    gchar *sid = gst_pad_get_stream_id (GST_AUDIO_DECODER_SINK_PAD (self));
    GST_ELEMENT_WARNING (self, STREAM, DECODE, ("FLAC stream is incomplete"),
        ("stream %s: decoded %" G_GUINT64_FORMAT " samples, STREAMINFO says %" G_GUINT64_FORMAT
            "; MD5 not checked", GST_STR_NULL (sid), st->decoded, st->info.total_samples));
    g_free (sid);
    return;
  }
  char got[33], want[33];
  md5_hex (digest, got);
  md5_hex (st->info.md5, want);
  gchar *sid = gst_pad_get_stream_id (GST_AUDIO_DECODER_SINK_PAD (self));
  if (memcmp (digest, st->info.md5, 16) != 0) {
    if (st->errors)
      GST_ELEMENT_WARNING (self, STREAM, DECODE, ("FLAC MD5 signature mismatch"),
          ("stream %s: decoded audio MD5 %s, STREAMINFO %s; %" G_GUINT64_FORMAT
              " corrupt frame(s), the first being frame %" G_GUINT64_FORMAT, GST_STR_NULL (sid), got, want,
              st->errors, st->first_error));
    else
      GST_ELEMENT_WARNING (self, STREAM, DECODE, ("FLAC MD5 signature mismatch"),
          ("stream %s: decoded audio MD5 %s, STREAMINFO %s, although every frame passed its CRC-16",
              GST_STR_NULL (sid), got, want));
  } else {
    GST_INFO_OBJECT (self, "MD5 signature %s verified", got);
  }
  g_free (sid);
}

} // namespace cudaflacdec
} // namespace gpc
