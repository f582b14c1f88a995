/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * cudaflacdec's unframed input (a FLAC byte stream): metadata, frame
 * location over chunks, byte seeks that land exactly on a TIME target.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cudaflacdec-private.h"

#include <string.h>

#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

namespace gpc {
namespace cudaflacdec {

namespace {

struct Reseek {
  GstClockTime target;
  uint64_t byte;
  GstSeekFlags flags;
  guint32 seqnum;
};

} // namespace

/* Off the streaming thread (a flushing seek must not come from it). */
static void reseek_async (GstElement *element, gpointer data)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (element);
  Reseek *r = (Reseek *) data;
  GST_OBJECT_LOCK (self);
  if (self->st)
    self->st->seek_time = r->target;
  GST_OBJECT_UNLOCK (self);
  GstEvent *ev = gst_event_new_seek (1.0, GST_FORMAT_BYTES, r->flags, GST_SEEK_TYPE_SET, (gint64) r->byte,
      GST_SEEK_TYPE_NONE, -1);
  gst_event_set_seqnum (ev, r->seqnum);
  if (!gst_pad_push_event (GST_AUDIO_DECODER_SINK_PAD (self), ev)) {
    GST_ELEMENT_WARNING (self, STREAM, DECODE, ("Seek is not exact"),
        ("upstream refused the byte seek to %" G_GUINT64_FORMAT " that would have landed before %"
            GST_TIME_FORMAT, r->byte, GST_TIME_ARGS (r->target)));
    bool eos = false;
    GST_OBJECT_LOCK (self);
    if (self->st) {
      self->st->seek_time = GST_CLOCK_TIME_NONE;
      self->st->reseeking = false;
      eos = self->st->eos_held;
      self->st->eos_held = false;
    }
    GST_OBJECT_UNLOCK (self);
    if (eos)
      gst_pad_push_event (GST_AUDIO_DECODER_SRC_PAD (self), gst_event_new_eos ());
  }
}

/* The byte seek of an unframed TIME seek (an estimate, no seek table point
 * before the target) landed at sample `first`, after the target: seeks
 * again, earlier by twice the overshoot at the stream's mean bitrate plus a
 * margin, and after three tries from the first frame, which always lands
 * before. Returns whether a new seek is on its way. */
static bool seek_earlier (GstCudaFlacDec *self, uint64_t first)
{
  DecState *st = self->st;
  const uint64_t audio = st->md.audio_offset;
  GST_OBJECT_LOCK (self); /* the seek_* fields come from the seek's thread */
  if (!GST_CLOCK_TIME_IS_VALID (st->seek_target) || st->seek_byte <= audio || st->seek_tries >= 4 ||
      !st->info.total_samples || st->seek_file_bytes <= (gint64) audio) {
    GST_OBJECT_UNLOCK (self);
    return false;
  }
  const double bytes_per_sample = (double) (st->seek_file_bytes - audio) / st->info.total_samples;
  const uint64_t over = (uint64_t) (2.0 * bytes_per_sample * (first - st->trim_to_sample));
  const uint64_t margin = MAX ((uint64_t) st->info.max_framesize * 4, (uint64_t) 256 * 1024);
  uint64_t byte = audio;
  if (++st->seek_tries < 4 && st->seek_byte > audio + over + margin)
    byte = st->seek_byte - over - margin;
  const int tries = st->seek_tries;
  st->seek_byte = byte;
  st->reseeking = true;
  Reseek *r = g_new (Reseek, 1);
  *r = Reseek { st->seek_target, byte, st->seek_flags, st->seek_seqnum };
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "seek landed at sample %" G_GUINT64_FORMAT ", after its target %" G_GUINT64_FORMAT
      ": seeking again from byte %" G_GUINT64_FORMAT " (try %d)", first, st->trim_to_sample, byte, tries);
  gst_element_call_async (GST_ELEMENT (self), reseek_async, r, g_free);
  return true;
}

GstFlowReturn process_chunk (GstCudaFlacDec *self, bool final)
{
  DecState *st = self->st;
  if (!st->metadata_done || st->in->empty ()) {
    if (final && st->pending_in > 0) {
      int n = st->pending_in;
      st->pending_in = 0;
      return gst_audio_decoder_finish_frame (GST_AUDIO_DECODER (self), NULL, n);
    }
    return GST_FLOW_OK;
  }
  GstFlowReturn adopted = adopt_cuda_when_ready (self);
  if (adopted != GST_FLOW_OK)
    return adopted;
  FlacBatchBackend *backend = st->active ();
  /* The chunk is located (on the device, where the backend can) and decoded
   * where the backend reads it: host memory for the CPU, a CUDA slot's
   * pinned input, which the GPU decodes from the upload it located in. */
  GstFlowReturn taken = backend->take_chunk ();
  if (taken != GST_FLOW_OK)
    return taken;
  LocateResult lr;
  uint8_t *dst = st->in->data ();
  const size_t size = st->in->size ();
  const int slot = st->in->slot ();
  {
    StageTimer timer (&st->stage_s[kStageLocate]);
    if (!backend->locate (final, &lr))
      st->locator->locate (dst, size, final, &lr);
  }
  if (st->trim_pending && !lr.frames.empty () && lr.frames.front ().first_sample > st->trim_to_sample &&
      seek_earlier (self, lr.frames.front ().first_sample)) {
    /* landed after the target: everything until the new seek's flush goes */
    st->in->clear ();
    int n = st->pending_in;
    st->pending_in = 0;
    return n ? gst_audio_decoder_finish_frame (GST_AUDIO_DECODER (self), NULL, n) : GST_FLOW_OK;
  }
  /* One batch per run of frames of one format (rate, channels and depth
   * may change between frames); the trim after a seek runs over them. */
  std::vector<std::unique_ptr<Batch>> batches;
  const StreamDefaults defaults = st->locator->params ().defaults ();
  size_t covered = 0;
  for (const LocatedFrame &f : lr.frames) {
    if (f.samples == 0)
      continue; /* bytes that hold no frame: counted below */
    covered += f.size;
    BatchFormat fmt = format_of_header (f.hdr, defaults);
    if (batches.empty () || !same_format (batches.back ()->fmt, batches.back ()->rate, fmt, f.hdr.sample_rate)) {
      std::unique_ptr<Batch> b (new Batch);
      b->fmt = fmt;
      b->rate = f.hdr.sample_rate;
      b->slot = slot;
      batches.push_back (std::move (b));
    }
    Batch &cur = *batches.back ();
    FrameJob j;
    j.data = dst + f.offset;
    j.size = f.corrupt ? 0 : f.size;
    j.out_sample = cur.samples;
    j.samples = f.samples;
    j.silence = f.corrupt;
    j.crc_checked = f.crc_checked;
    if (f.corrupt)
      j.status = kBadCrc16;
    cur.jobs.push_back (j);
    cur.numbers.push_back (f.corrupt ? (f.hdr.variable ? f.first_sample : f.hdr.number + 1) : f.hdr.number);
    cur.samples += f.samples;
  }
  st->skipped_bytes += lr.consumed > covered ? lr.consumed - covered : 0;
  if (st->trim_pending && !lr.frames.empty ()) {
    /* first frames after a seek: drop what precedes the target sample */
    st->trim_pending = false;
    uint64_t first = lr.frames.front ().first_sample;
    if (first <= st->trim_to_sample)
      st->trim_left = st->trim_to_sample - first;
    else
      GST_WARNING_OBJECT (self, "seek landed %" G_GUINT64_FORMAT " samples after its target",
          first - st->trim_to_sample);
  }
  for (auto &cur : batches) {
    if (!st->trim_left)
      break;
    cur->trim = (size_t) MIN (st->trim_left, (uint64_t) cur->samples);
    st->trim_left -= cur->trim;
  }
  size_t consumed = lr.consumed;
  bool left = size > consumed;
  /* Keep one input buffer unfinished while bytes wait for the next chunk, so
   * that the base class always has a frame to attach later output to. */
  int n = st->pending_in - ((final || !left) ? 0 : 1);
  GstFlowReturn ret = GST_FLOW_OK;
  if (batches.empty ()) {
    if (n > 0) {
      st->pending_in -= n;
      ret = gst_audio_decoder_finish_frame (GST_AUDIO_DECODER (self), NULL, n);
    }
  } else {
    if (n == 0)
      n = 1; /* nothing finished yet: attach to the held buffer anyway */
    st->pending_in -= n;
    for (size_t i = 0; i < batches.size () && ret == GST_FLOW_OK; i++) {
      const bool last = i + 1 == batches.size ();
      /* the input buffers are finished with the last batch; on the GPU the
       * earlier ones are pushed before the next is decoded from the same
       * slot's upload */
      batches[i]->in_frames = last ? n : 0;
      ret = run_batch_now (self, std::move (batches[i]));
      if (ret == GST_FLOW_OK && !last)
        ret = backend->finish ();
    }
  }
  if (ret != GST_FLOW_OK)
    return ret;
  /* the rest (the next chunk's start) stays, or moves on where the chunk's
   * memory is still being decoded */
  return backend->release_chunk (consumed);
}

/* backend=auto, unframed: tells the CUDA start-up thread what to allocate,
 * the PCM of a chunk estimated from the file's mean compression. */
void publish_cuda_sizes (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  size_t in = st->chunk_size + kChunkSlack;
  unsigned fb = out_format_bytes (out_format_for_bps (st->info.bps));
  gint64 file_bytes = 0;
  size_t out = 0;
  if (st->info.total_samples &&
      gst_pad_peer_query_duration (GST_AUDIO_DECODER_SINK_PAD (self), GST_FORMAT_BYTES, &file_bytes) &&
      file_bytes > (gint64) st->md.audio_offset) {
    double pcm = (double) st->info.total_samples * st->info.channels * fb;
    /* no more than 6 times the input: a file of long silences would
     * otherwise pin far more than a typical chunk needs */
    out = (size_t) (in * MIN (6.0, 1.05 * pcm / (double) (file_bytes - st->md.audio_offset)));
  }
  /* a file of a chunk or two decodes on the CPU before CUDA is up: pinning
   * buffers for it would only delay stop(), which waits for the thread */
  if (file_bytes > 0 && (guint64) file_bytes < 2 * (guint64) st->chunk_size) {
    GST_DEBUG_OBJECT (self, "short file (%" G_GINT64_FORMAT " bytes): no CUDA buffers ahead", file_bytes);
    return;
  }
  st->prep_format_bytes = fb;
  st->prep_out.store (out);
  st->prep_in.store (in, std::memory_order_release);
}

GstFlowReturn handle_unframed (GstCudaFlacDec *self, GstBuffer *buf)
{
  DecState *st = self->st;
  if (st->reseeking)
    return gst_audio_decoder_finish_frame (GST_AUDIO_DECODER (self), NULL, 1);
  {
    StageTimer timer (&st->stage_s[kStageInput]);
    GstMapInfo map;
    if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
      GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Cannot read the input buffer"), (NULL));
      return GST_FLOW_ERROR;
    }
    bool ok = st->in->append (map.data, map.size);
    gst_buffer_unmap (buf, &map);
    if (!ok) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("CUDA decoding failed"), ("no pinned memory"));
      return GST_FLOW_ERROR;
    }
  }
  st->pending_in++;
  if (!st->metadata_done) {
    Metadata md;
    int r = parse_metadata (st->in->data (), st->in->size (), &md);
    if (r == kNeedMore)
      return GST_FLOW_OK;
    StreamParams params;
    if (r == kOk) {
      GST_OBJECT_LOCK (self);
      st->md = md;
      GST_OBJECT_UNLOCK (self);
      set_stream_info (self, md.info);
      add_tags_from (self, md);
      st->in->drop_front (md.audio_offset);
      params = StreamParams::from_streaminfo (md.info);
    } else {
      /* A stream joined in the middle, cut, or with its metadata damaged:
       * every frame header carries the format (but for the rare codes that
       * defer to STREAMINFO), so play from the first frame whose CRC-8,
       * CRC-16 and successor check. */
      GST_INFO_OBJECT (self, "no \"fLaC\" marker and STREAMINFO (%s): locating frames by their headers",
          status_name (r));
      st->headerless = true;
    }
    /* the format may change between frames: candidates are not held to
     * STREAMINFO's */
    params.any_format = true;
    st->locator.reset (new FrameLocator (&st->cpu->pool (), params));
    if (!st->headerless)
      st->locator->expect_stream_start ();
    GST_OBJECT_LOCK (self);
    st->metadata_done = true;
    GST_OBJECT_UNLOCK (self);
    st->frame_bytes = 0;
    if (!st->headerless) {
      /* CUDA chunks hold a GPU's worth of the stream's frames */
      st->frame_bytes = md.info.max_framesize ? md.info.max_framesize
          : StreamParams::from_streaminfo (md.info).frame_bound () / 2;
      if (cuda_possible (st)) {
        resize_for (self, true);
        if (st->cuda_state.load () == DecState::kCudaStarting)
          publish_cuda_sizes (self);
      }
    }
  }
  /* live: whatever has come is located now (its last frame waits for the
   * next one's header) */
  if (st->live || st->in->size () >= MIN (st->ramp_chunk, st->chunk_size)) {
    GstFlowReturn ret = process_chunk (self, false);
    if (!st->live)
      st->ramp_chunk = (guint) MIN ((guint64) st->ramp_chunk * 2, (guint64) st->chunk_size);
    return ret;
  }
  return GST_FLOW_OK;
}

/* End of unframed input: one warning for all the bytes that held no frame,
 * and an error where none of them did. */
GstFlowReturn end_unframed (GstCudaFlacDec *self, GstFlowReturn ret)
{
  DecState *st = self->st;
  if (ret == GST_FLOW_OK && st->metadata_done && st->decoded == 0 && st->headerless) {
    GST_ELEMENT_ERROR (self, STREAM, WRONG_TYPE, ("Not a FLAC stream"),
        ("no \"fLaC\" marker and STREAMINFO, and no FLAC frame in %" G_GUINT64_FORMAT " bytes",
            st->skipped_bytes));
    return GST_FLOW_ERROR;
  }
  if (st->skipped_bytes)
    GST_ELEMENT_WARNING (self, STREAM, DECODE, ("Skipped data that holds no FLAC frame"),
        ("%" G_GUINT64_FORMAT " bytes in all", st->skipped_bytes));
  st->skipped_bytes = 0;
  return ret;
}

/* A file source sends a BYTES segment, which the base class can only map to
 * time once it has estimated a bitrate: map it here from STREAMINFO (exact
 * at the start, proportional after a byte seek). */
GstEvent *time_segment_from_bytes (GstCudaFlacDec *self, GstEvent *event)
{
  const GstSegment *in;
  gst_event_parse_segment (event, &in);
  if (in->format != GST_FORMAT_BYTES)
    return event;
  GstSegment seg;
  gst_segment_init (&seg, GST_FORMAT_TIME);
  seg.rate = in->rate;
  seg.applied_rate = in->applied_rate;
  GstClockTime t = 0;
  DecState *st = self->st;
  gint64 total_bytes = 0;
  GstClockTime seek_time = GST_CLOCK_TIME_NONE;
  if (st) {
    GST_OBJECT_LOCK (self);
    seek_time = st->seek_time;
    st->seek_time = GST_CLOCK_TIME_NONE;
    GST_OBJECT_UNLOCK (self);
  }
  if (GST_CLOCK_TIME_IS_VALID (seek_time)) {
    /* our own byte seek: the output will be trimmed to land on its target */
    t = seek_time;
    st->trim_pending = st->have_info;
    st->trim_to_sample = st->have_info ? gst_util_uint64_scale (t, st->info.sample_rate, GST_SECOND) : 0;
  } else if (in->start > 0 && st && st->have_info && st->info.total_samples && st->info.sample_rate &&
      gst_pad_peer_query_duration (GST_AUDIO_DECODER_SINK_PAD (self), GST_FORMAT_BYTES, &total_bytes) &&
      total_bytes > 0) {
    GstClockTime dur = gst_util_uint64_scale (st->info.total_samples, GST_SECOND, st->info.sample_rate);
    t = gst_util_uint64_scale (in->start, dur, (guint64) total_bytes);
  }
  seg.start = seg.time = seg.position = t;
  GST_DEBUG_OBJECT (self, "BYTES segment at %" G_GUINT64_FORMAT " -> TIME %" GST_TIME_FORMAT,
      in->start, GST_TIME_ARGS (t));
  GstEvent *out = gst_event_new_segment (&seg);
  gst_event_set_seqnum (out, gst_event_get_seqnum (event));
  gst_event_unref (event);
  return out;
}

/* Where an unframed TIME seek starts reading, from the stream's metadata
 * (the caller holds the object lock): the last SEEKTABLE point before the
 * target, or else a proportional estimate less a margin. */
static uint64_t seek_start_byte (const DecState *st, uint64_t target, uint64_t file_bytes, bool *from_table)
{
  const uint64_t audio = st->md.audio_offset;
  uint64_t byte = audio;
  *from_table = false;
  for (const SeekPoint &sp : st->md.seektable)
    if (sp.sample <= target && audio + sp.offset < file_bytes) {
      byte = audio + sp.offset;
      *from_table = true;
    }
  if (!*from_table && st->info.total_samples && file_bytes > audio) {
    uint64_t est = audio + gst_util_uint64_scale (file_bytes - audio, MIN (target, st->info.total_samples),
        st->info.total_samples);
    uint64_t margin = MAX ((uint64_t) st->info.max_framesize * 4, (uint64_t) 256 * 1024);
    byte = est > audio + margin ? est - margin : audio;
  }
  return byte;
}

/* Whether a seek is ours to turn into a byte seek (object lock held). */
bool seekable_unframed (const DecState *st)
{
  return st && st->unframed && st->metadata_done && st->have_info && st->info.sample_rate;
}

/* DURATION from STREAMINFO's sample count; SEEKING in TIME for unframed
 * input that we seek through byte seeks upstream. From any thread: what is
 * read of the stream is read under the object lock. */
gboolean answer_stream_query (GstCudaFlacDec *self, GstQuery *query)
{
  GstFormat format;
  if (GST_QUERY_TYPE (query) == GST_QUERY_DURATION)
    gst_query_parse_duration (query, &format, NULL);
  else if (GST_QUERY_TYPE (query) == GST_QUERY_SEEKING)
    gst_query_parse_seeking (query, &format, NULL, NULL, NULL);
  else
    return FALSE;
  if (format != GST_FORMAT_TIME)
    return FALSE;
  GST_OBJECT_LOCK (self);
  DecState *st = self->st;
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  bool seekable = st && seekable_unframed (st);
  if (st && st->have_info && st->info.total_samples && st->info.sample_rate)
    duration = gst_util_uint64_scale (st->info.total_samples, GST_SECOND, st->info.sample_rate);
  GST_OBJECT_UNLOCK (self);
  if (GST_QUERY_TYPE (query) == GST_QUERY_DURATION) {
    if (!GST_CLOCK_TIME_IS_VALID (duration))
      return FALSE;
    gst_query_set_duration (query, GST_FORMAT_TIME, (gint64) duration);
    return TRUE;
  }
  if (!seekable)
    return FALSE;
  GstQuery *bytes = gst_query_new_seeking (GST_FORMAT_BYTES);
  gboolean upstream = FALSE;
  if (gst_pad_peer_query (GST_AUDIO_DECODER_SINK_PAD (self), bytes))
    gst_query_parse_seeking (bytes, NULL, &upstream, NULL, NULL);
  gst_query_unref (bytes);
  gst_query_set_seeking (query, GST_FORMAT_TIME, upstream, 0,
      GST_CLOCK_TIME_IS_VALID (duration) ? (gint64) duration : -1);
  return TRUE;
}

/* Unframed input: a TIME seek becomes a BYTES seek upstream, at the last
 * SEEKTABLE point before the target, or at a proportional estimate minus a
 * margin; the output is then trimmed to start exactly at the target. Runs
 * on the seeking application's thread, while the streaming thread runs and
 * stop() may come: what it uses of the state is read under the object lock.
 * False when the seek is not ours (the base class handles it); otherwise
 * the event is taken and *result is the answer. */
bool unframed_seek (GstCudaFlacDec *self, GstEvent *event, gboolean *result)
{
  GST_OBJECT_LOCK (self);
  bool ours = seekable_unframed (self->st);
  GST_OBJECT_UNLOCK (self);
  gdouble rate;
  GstFormat format;
  GstSeekFlags flags;
  GstSeekType start_type, stop_type;
  gint64 start, stop;
  gst_event_parse_seek (event, &rate, &format, &flags, &start_type, &start, &stop_type, &stop);
  gint64 file_bytes = 0;
  if (!ours || format != GST_FORMAT_TIME || rate != 1.0 || !(flags & GST_SEEK_FLAG_FLUSH) ||
      start_type != GST_SEEK_TYPE_SET || start < 0 ||
      (stop_type != GST_SEEK_TYPE_NONE && !(stop_type == GST_SEEK_TYPE_SET && stop == -1)) ||
      !gst_pad_peer_query_duration (GST_AUDIO_DECODER_SINK_PAD (self), GST_FORMAT_BYTES, &file_bytes) ||
      file_bytes <= 0)
    return false;
  GST_OBJECT_LOCK (self);
  DecState *st = self->st;
  if (!seekable_unframed (st)) { /* stopped meanwhile */
    GST_OBJECT_UNLOCK (self);
    return false;
  }
  bool from_table;
  uint64_t byte = seek_start_byte (st, gst_util_uint64_scale (start, st->info.sample_rate, GST_SECOND),
      (uint64_t) file_bytes, &from_table);
  st->seek_time = start;
  /* refinement (seek_earlier), only where the position was estimated */
  st->seek_target = from_table ? GST_CLOCK_TIME_NONE : (GstClockTime) start;
  st->seek_byte = byte;
  st->seek_file_bytes = file_bytes;
  st->seek_flags = flags;
  st->seek_seqnum = gst_event_get_seqnum (event);
  st->seek_tries = 0;
  GST_OBJECT_UNLOCK (self);
  GST_DEBUG_OBJECT (self, "seek to %" GST_TIME_FORMAT ": byte %" G_GUINT64_FORMAT " (%s)",
      GST_TIME_ARGS (start), byte, from_table ? "seek table" : "estimate");
  GstEvent *bytes = gst_event_new_seek (1.0, GST_FORMAT_BYTES, flags, GST_SEEK_TYPE_SET, (gint64) byte,
      GST_SEEK_TYPE_NONE, -1);
  gst_event_set_seqnum (bytes, gst_event_get_seqnum (event));
  gboolean ok = gst_pad_push_event (GST_AUDIO_DECODER_SINK_PAD (self), bytes);
  if (!ok) {
    GST_OBJECT_LOCK (self);
    if (self->st)
      self->st->seek_time = GST_CLOCK_TIME_NONE;
    GST_OBJECT_UNLOCK (self);
  }
  gst_event_unref (event);
  *result = ok;
  return true;
}


} // namespace cudaflacdec
} // namespace gpc
