/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudaflacdec
 * @title: cudaflacdec
 *
 * Decodes FLAC in batches of frames, on an NVIDIA GPU (CUDA) or on every CPU
 * core. A drop-in for flacdec: the same output formats (S8, S16LE, S24_32LE,
 * S32LE interleaved, samples shifted to the container depth), with the
 * channel layouts of RFC 9639 (or of a WAVEFORMATEXTENSIBLE_CHANNEL_MASK
 * comment). Accepts framed input from flacparse and unframed FLAC straight
 * from a file source, in which case it reads the metadata itself and
 * locates frames over large chunks in parallel.
 *
 * Every frame's CRC-16 is checked; a corrupt or truncated frame is replaced
 * by silence of its duration and counted as a decoding error (max-errors),
 * with one warning at the end of the stream. At EOS the decoded audio's MD5
 * is compared with the STREAMINFO signature. The element's parts:
 * cudaflacdec-private.h.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=music.flac ! flacparse ! cudaflacdec ! autoaudiosink
 * gst-launch-1.0 filesrc location=music.flac ! cudaflacdec backend=cpu ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudaflacdec.h"

#include <string.h>

#include "cudaflacdec-private.h"

#ifdef GPC_HAVE_CUDA_KERNELS
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#endif

GST_DEBUG_CATEGORY (gst_cuda_flac_dec_debug);
#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

using namespace gpc::flac;
using namespace gpc::cudaflacdec;

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_BATCH_FRAMES,
  PROP_BATCH_TIME,
  PROP_CHUNK_SIZE,
  PROP_CHECK_MD5,
  PROP_THREADS,
  PROP_LOCATE_ON_GPU,
};

#define DEFAULT_BACKEND GST_CUDA_FLAC_DEC_BACKEND_AUTO
#define DEFAULT_DEVICE_ID 0
#define DEFAULT_BATCH_FRAMES 0 /* auto */
#define DEFAULT_BATCH_TIME (0)
#define DEFAULT_CHUNK_SIZE 0   /* auto */
#define DEFAULT_CHECK_MD5 TRUE
#define DEFAULT_THREADS 0
#define DEFAULT_LOCATE_ON_GPU TRUE

#define gst_cuda_flac_dec_parent_class parent_class
G_DEFINE_TYPE (GstCudaFlacDec, gst_cuda_flac_dec, GST_TYPE_AUDIO_DECODER);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (cudaflacdec, "cudaflacdec", GST_RANK_NONE,
    GST_TYPE_CUDA_FLAC_DEC,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_flac_dec_debug, "cudaflacdec", 0, "FLAC decoder (CUDA/CPU)"));

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("audio/x-flac, framed = (boolean) true, "
        "rate = (int) [ 1, 655350 ], channels = (int) [ 1, 8 ]; "
        "audio/x-flac"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("audio/x-raw, format = (string) { S8, " GST_AUDIO_NE (S16) ", "
        GST_AUDIO_NE (S24_32) ", " GST_AUDIO_NE (S32) " }, layout = (string) interleaved, "
        "rate = (int) [ 1, 655350 ], channels = (int) [ 1, 8 ]"));

#define GST_TYPE_CUDA_FLAC_DEC_BACKEND (gst_cuda_flac_dec_backend_get_type ())
static GType gst_cuda_flac_dec_backend_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    { GST_CUDA_FLAC_DEC_BACKEND_AUTO, "CUDA when a device is usable (CPU while it starts), else CPU (with a warning)", "auto" },
    { GST_CUDA_FLAC_DEC_BACKEND_CPU, "Every CPU core (std::thread)", "cpu" },
    { GST_CUDA_FLAC_DEC_BACKEND_CUDA, "CUDA device (error if none)", "cuda" },
    { 0, NULL, NULL },
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstCudaFlacDecBackend", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* ------------------------------------------------------------------------ */
/* GstAudioDecoder                                                           */

static GstFlowReturn gst_cuda_flac_dec_handle_frame (GstAudioDecoder *dec, GstBuffer *buf)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  DecState *st = self->st;
  if (!buf)
    return drain_batches (self);
  check_live (self);
  if (!st->framed_caps && !st->unframed && !st->metadata_done) {
    /* no framed caps: a FLAC file straight from a source */
    GST_OBJECT_LOCK (self);
    st->unframed = true;
    GST_OBJECT_UNLOCK (self);
    GST_INFO_OBJECT (self, "unframed input: reading metadata and locating frames");
  }
  return st->unframed ? handle_unframed (self, buf) : handle_framed (self, buf);
}

static gboolean gst_cuda_flac_dec_set_format (GstAudioDecoder *dec, GstCaps *caps)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  DecState *st = self->st;
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gboolean framed = FALSE;
  gst_structure_get_boolean (s, "framed", &framed);
  if (st->unframed && framed) {
    GST_ERROR_OBJECT (self, "cannot switch from unframed to framed input");
    return FALSE;
  }
  st->framed_caps = framed;
  if (framed)
    streaminfo_from_caps (self, s);
  return TRUE;
}

static void gst_cuda_flac_dec_flush (GstAudioDecoder *dec, gboolean hard)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  DecState *st = self->st;
  if (!st)
    return;
  GST_DEBUG_OBJECT (self, "flush (hard %d): discarding queued work", hard);
  reset_stream_state (st);
  /* after a seek the MD5 cannot cover the whole stream */
  st->md5_valid = false;
  st->md5.reset ();
}

static gboolean gst_cuda_flac_dec_src_event (GstAudioDecoder *dec, GstEvent *event)
{
  gboolean result;
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK && unframed_seek (GST_CUDA_FLAC_DEC (dec), event, &result))
    return result;
  return GST_AUDIO_DECODER_CLASS (parent_class)->src_event (dec, event);
}

static gboolean gst_cuda_flac_dec_sink_event (GstAudioDecoder *dec, GstEvent *event)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    event = time_segment_from_bytes (self, event);
  if (self->st && GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT) {
    /* A segment that does not start at the stream's start (a seek made
     * before we started, so without a flush here) leaves part of the
     * stream undecoded: the MD5 cannot be checked. */
    const GstSegment *seg;
    gst_event_parse_segment (event, &seg);
    if (seg->start > 0 && self->st->md5_valid) {
      GST_DEBUG_OBJECT (self, "segment from %" GST_TIME_FORMAT ": MD5 not checked", GST_TIME_ARGS (seg->start));
      self->st->md5_valid = false;
      self->st->md5.reset ();
    }
  }
  if (self->st) {
    if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
      /* Upstream reached its end while a refined seek is on its way (the
       * data was dropped): that seek's flush restarts the stream. */
      bool hold = false;
      GST_OBJECT_LOCK (self);
      if (self->st->reseeking)
        hold = self->st->eos_held = true;
      GST_OBJECT_UNLOCK (self);
      if (hold) {
        GST_DEBUG_OBJECT (self, "holding EOS: a refined seek is on its way");
        gst_event_unref (event);
        return TRUE;
      }
      self->st->at_eos = true;
      GST_INFO_OBJECT (self, "EOS: draining");
    }
    else if (GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START) {
      self->st->at_eos = false;
      self->st->live_known = false;
      self->st->have_mask = false;
      /* A new stream starts with its metadata. Not at EOS: a seek back
       * after it reads on in the same stream. */
      GST_OBJECT_LOCK (self);
      self->st->metadata_done = false;
      GST_OBJECT_UNLOCK (self);
    }
  }
  bool eos = GST_EVENT_TYPE (event) == GST_EVENT_EOS;
  gboolean ret = GST_AUDIO_DECODER_CLASS (parent_class)->sink_event (dec, event);
  if (eos)
    GST_INFO_OBJECT (self, "EOS: drained and passed on");
  return ret;
}

/* The base class's sink pad event function, wrapped by sink_pad_event. */
static GstPadEventFunction base_sink_pad_event;

/* A change down to READY deactivates the source pad before the sink pad.
 * A sticky event that comes in between (a file source's STREAM_START or
 * SEGMENT as the pipeline stops) cannot be pushed on, and the base class
 * answers FALSE, which upstream takes for an error: filesrc would post
 * "Internal data stream error". Answered FLUSHING instead, as a buffer
 * is at that moment, so upstream stops quietly. */
static GstFlowReturn sink_pad_event (GstPad *pad, GstObject *parent, GstEvent *event)
{
  GstEventType type = GST_EVENT_TYPE (event);
  bool serialized = GST_EVENT_IS_SERIALIZED (event);
  if (base_sink_pad_event (pad, parent, event))
    return GST_FLOW_OK;
  if (serialized && GST_PAD_IS_FLUSHING (GST_AUDIO_DECODER_SRC_PAD (parent)))
    return GST_FLOW_FLUSHING;
  return type == GST_EVENT_CAPS ? GST_FLOW_NOT_NEGOTIATED : GST_FLOW_ERROR;
}

static gboolean gst_cuda_flac_dec_stop (GstAudioDecoder *dec);

static gboolean gst_cuda_flac_dec_start (GstAudioDecoder *dec)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  DecState *st = new DecState;
  GST_OBJECT_LOCK (self);
  st->backend = self->backend;
  st->device_id = self->device_id;
  st->batch_time = self->batch_time;
  st->check_md5 = self->check_md5;
  st->gpu_locate = self->locate_on_gpu;
  unsigned threads = self->threads;
  const guint batch_frames = self->batch_frames, chunk_size = self->chunk_size;
  self->st = st;
  GST_OBJECT_UNLOCK (self);
  /* The MD5 is one sequential thread that runs beside the decoding and
   * bounds a verified run: leave it a core of its own. */
  if (!threads && st->check_md5)
    threads = MAX (1u, std::thread::hardware_concurrency ()) - (std::thread::hardware_concurrency () > 1 ? 1 : 0);
  st->cpu.reset (new CpuDecoder (threads));
  st->in.reset (new InputBytes (&st->cuda, &st->cpu->pool ()));
  if (!start_backends (self, st)) {
    /* the base class calls stop() only after a successful start() */
    gst_cuda_flac_dec_stop (dec);
    return FALSE;
  }
  bool gpu = cuda_possible (st);
  if (!gpu)
    GST_INFO_OBJECT (self, "decoding on %u CPU threads", st->cpu->threads ());
  st->batch_frames_prop = batch_frames;
  st->chunk_size_prop = chunk_size;
  resize_for (self, gpu);
  return TRUE;
}

static gboolean gst_cuda_flac_dec_stop (GstAudioDecoder *dec)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  gint64 t0 = g_get_monotonic_time ();
  if (self->st) {
    GString *times = g_string_new (NULL);
    for (int i = 0; i < kStages; i++)
      g_string_append_printf (times, "%s%s %.3f s", i ? ", " : "", kStageNames[i], self->st->stage_s[i]);
    GST_INFO_OBJECT (self, "time in the streaming thread by stage: %s", times->str);
    g_string_free (times, TRUE);
    DecState *st = self->st;
    st->stopping = true;
    join_cuda_init (st); /* backend=auto: a context still being made */
    GST_OBJECT_LOCK (self); /* reseek_async and context queries may look */
    self->st = NULL;
    GST_OBJECT_UNLOCK (self);
    reset_stream_state (st);
    g_clear_error (&st->cuda_error);
    if (st->out_pool) {
      gst_buffer_pool_set_active (st->out_pool, FALSE);
      gst_object_unref (st->out_pool);
    }
    if (st->cuda_backend)
      st->cuda_backend->stop ();
    delete st;
  }
#ifdef GPC_HAVE_CUDA_KERNELS
  gst_clear_object (&self->cuda_ctx);
#endif
  GST_INFO_OBJECT (self, "stopped in %.1f ms", (g_get_monotonic_time () - t0) / 1e3);
  return TRUE;
}

static void gst_cuda_flac_dec_set_context (GstElement *element, GstContext *context)
{
#ifdef GPC_HAVE_CUDA_KERNELS
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (element);
  GST_OBJECT_LOCK (self);
  gint device_id = self->device_id;
  GST_OBJECT_UNLOCK (self);
  if (gst_cuda_load_library ())
    gst_cuda_handle_set_context (element, context, device_id, &self->cuda_ctx);
#endif
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static gboolean handle_query (G_GNUC_UNUSED GstCudaFlacDec *self, G_GNUC_UNUSED GstQuery *query)
{
#ifdef GPC_HAVE_CUDA_KERNELS
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT) {
    GST_OBJECT_LOCK (self);
    DecState *st = self->st;
    bool starting = st && st->cuda_state.load () == DecState::kCudaStarting;
    GST_OBJECT_UNLOCK (self);
    if (starting)
      join_cuda_init (st); /* the context is being made: answer with it */
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT && self->cuda_ctx)
    return gst_cuda_handle_context_query (GST_ELEMENT (self), query, self->cuda_ctx);
#endif
  return FALSE;
}

static gboolean gst_cuda_flac_dec_sink_query (GstAudioDecoder *dec, GstQuery *query)
{
  if (handle_query (GST_CUDA_FLAC_DEC (dec), query))
    return TRUE;
  return GST_AUDIO_DECODER_CLASS (parent_class)->sink_query (dec, query);
}

static gboolean gst_cuda_flac_dec_src_query (GstAudioDecoder *dec, GstQuery *query)
{
  if (handle_query (GST_CUDA_FLAC_DEC (dec), query) || answer_stream_query (GST_CUDA_FLAC_DEC (dec), query))
    return TRUE;
  return GST_AUDIO_DECODER_CLASS (parent_class)->src_query (dec, query);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                   */

static void gst_cuda_flac_dec_set_property (GObject *object, guint prop_id, const GValue *value,
    GParamSpec *pspec)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (object);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BACKEND: self->backend = (GstCudaFlacDecBackend) g_value_get_enum (value); break;
    case PROP_CUDA_DEVICE_ID: self->device_id = g_value_get_int (value); break;
    case PROP_BATCH_FRAMES: self->batch_frames = g_value_get_uint (value); break;
    case PROP_BATCH_TIME: self->batch_time = g_value_get_uint64 (value); break;
    case PROP_CHUNK_SIZE: {
      guint v = g_value_get_uint (value);
      self->chunk_size = v == 0 ? 0 : MAX (v, 64 * 1024);
      break;
    }
    case PROP_CHECK_MD5: self->check_md5 = g_value_get_boolean (value); break;
    case PROP_THREADS: self->threads = g_value_get_uint (value); break;
    case PROP_LOCATE_ON_GPU: self->locate_on_gpu = g_value_get_boolean (value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void gst_cuda_flac_dec_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (object);
  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BACKEND: g_value_set_enum (value, self->backend); break;
    case PROP_CUDA_DEVICE_ID: g_value_set_int (value, self->device_id); break;
    case PROP_BATCH_FRAMES: g_value_set_uint (value, self->batch_frames); break;
    case PROP_BATCH_TIME: g_value_set_uint64 (value, self->batch_time); break;
    case PROP_CHUNK_SIZE: g_value_set_uint (value, self->chunk_size); break;
    case PROP_CHECK_MD5: g_value_set_boolean (value, self->check_md5); break;
    case PROP_THREADS: g_value_set_uint (value, self->threads); break;
    case PROP_LOCATE_ON_GPU: g_value_set_boolean (value, self->locate_on_gpu); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec); break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void gst_cuda_flac_dec_class_init (GstCudaFlacDecClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAudioDecoderClass *dec_class = GST_AUDIO_DECODER_CLASS (klass);
  GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);

  gobject_class->set_property = gst_cuda_flac_dec_set_property;
  gobject_class->get_property = gst_cuda_flac_dec_get_property;

  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where frames are decoded: cuda (error if no CUDA device; live input decodes on the CPU until the "
          "CUDA context is made), cpu (every core), or auto "
          "(the CPU first; CUDA where it pays: at once where the pipeline holds a CUDA context, else once "
          "the CPU's measured rate shows the rest of the stream would take it longer than the GPU plus "
          "CUDA's start-up; a warning where CUDA is wanted and unavailable; live input stays on the CPU)",
          GST_TYPE_CUDA_FLAC_DEC_BACKEND, DEFAULT_BACKEND, rw));
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device id",
          "CUDA device to decode on (a context shared through gst.cuda.context takes precedence "
          "when its device matches)", 0, G_MAXINT, DEFAULT_DEVICE_ID, rw));
  g_object_class_install_property (gobject_class, PROP_BATCH_FRAMES,
      g_param_spec_uint ("batch-frames", "Batch frames",
          "Framed input: most FLAC frames decoded at once (0 = auto: 3072 on CUDA, 256 on the CPU). "
          "A stream starts with batches of 16 frames that double up to this size, so that output "
          "starts at once; with a live upstream a batch closes at 20 ms of audio (or one frame, "
          "where frames are longer) and that is the latency reported",
          0, 1 << 20, DEFAULT_BATCH_FRAMES, rw));
  g_object_class_install_property (gobject_class, PROP_BATCH_TIME,
      g_param_spec_uint64 ("batch-time", "Batch time",
          "Framed input: also decode a batch once it holds this much audio (nanoseconds, 0 = only "
          "batch-frames counts); with a live upstream, at most 20 ms", 0, G_MAXUINT64,
          DEFAULT_BATCH_TIME, rw));
  g_object_class_install_property (gobject_class, PROP_CHUNK_SIZE,
      g_param_spec_uint ("chunk-size", "Chunk size",
          "Unframed input: most bytes of FLAC data located and decoded at once (0 = auto: 3072 of "
          "the stream's largest frames, within 16-64 MiB, on CUDA; 8 MiB on the CPU; values below "
          "64 KiB are raised to it). A stream starts with 256 KiB, doubled per chunk up to this size; "
          "with a live upstream every input buffer is decoded as it comes", 0, 1u << 30,
          DEFAULT_CHUNK_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_CHECK_MD5,
      g_param_spec_boolean ("check-md5", "Check MD5",
          "Compare the decoded audio with the STREAMINFO MD5 signature at EOS and post a warning "
          "naming the stream on mismatch (only when the whole stream was decoded without seeking)",
          DEFAULT_CHECK_MD5, rw));
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "CPU backend (and frame location of unframed input): worker threads, 0 = one per core "
          "(one less while check-md5 is on: the MD5 runs on a thread of its own)",
          0, 1024, DEFAULT_THREADS, rw));
  g_object_class_install_property (gobject_class, PROP_LOCATE_ON_GPU,
      g_param_spec_boolean ("locate-on-gpu", "Locate frames on the GPU",
          "Unframed input decoded on CUDA: find the frames of each chunk on the GPU, from the upload the "
          "decoding reads (false: on the CPU threads, then upload; for comparisons)",
          DEFAULT_LOCATE_ON_GPU, rw));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "FLAC decoder (CUDA)",
      "Codec/Decoder/Audio/Hardware",
      "Decodes FLAC in batches of frames on an NVIDIA GPU or on all CPU cores",
      "gst-gpucodecs");
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_set_context);

  dec_class->start = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_start);
  dec_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_stop);
  dec_class->set_format = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_set_format);
  dec_class->handle_frame = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_handle_frame);
  dec_class->flush = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_flush);
  dec_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_sink_event);
  dec_class->src_event = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_src_event);
  dec_class->sink_query = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_sink_query);
  dec_class->src_query = GST_DEBUG_FUNCPTR (gst_cuda_flac_dec_src_query);

  gst_type_mark_as_plugin_api (GST_TYPE_CUDA_FLAC_DEC_BACKEND, (GstPluginAPIFlags) 0);
}

static void gst_cuda_flac_dec_init (GstCudaFlacDec *self)
{
  GstPad *sinkpad = GST_AUDIO_DECODER_SINK_PAD (self);
  /* The base class's function, the same for every instance: stored once,
   * as other instances' streaming threads read it. */
  static gsize base_saved;
  if (g_once_init_enter (&base_saved)) {
    base_sink_pad_event = GST_PAD_EVENTFUNC (sinkpad);
    g_once_init_leave (&base_saved, 1);
  }
  gst_pad_set_event_full_function (sinkpad, sink_pad_event);
  self->backend = DEFAULT_BACKEND;
  self->device_id = DEFAULT_DEVICE_ID;
  self->batch_frames = DEFAULT_BATCH_FRAMES;
  self->batch_time = DEFAULT_BATCH_TIME;
  self->chunk_size = DEFAULT_CHUNK_SIZE;
  self->check_md5 = DEFAULT_CHECK_MD5;
  self->threads = DEFAULT_THREADS;
  self->locate_on_gpu = DEFAULT_LOCATE_ON_GPU;
  self->st = NULL;
  gst_audio_decoder_set_needs_format (GST_AUDIO_DECODER (self), FALSE);
  gst_audio_decoder_set_drainable (GST_AUDIO_DECODER (self), TRUE);
  gst_audio_decoder_set_estimate_rate (GST_AUDIO_DECODER (self), TRUE);
  gst_audio_decoder_set_use_default_pad_acceptcaps (GST_AUDIO_DECODER (self), TRUE);
  GST_PAD_SET_ACCEPT_TEMPLATE (GST_AUDIO_DECODER_SINK_PAD (self));
}
