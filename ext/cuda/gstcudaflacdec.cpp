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
 * with one warning at the end of the stream. At EOS
 * the decoded audio's MD5 is compared with the STREAMINFO signature.
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

#include <gst/tag/tag.h>
#include <string.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "flac-channels.h"
#include "flac-cpu-decoder.h"
#include "flac-cuda-decoder.h"
#include "gpc-parallel-copy.h"
#include "flac-frame.h"
#include "flac-input-bytes.h"
#include "flac-locator.h"
#include "flac-md5.h"
#include "flac-md5-worker.h"
#include "flac-metadata.h"

#ifdef GPC_HAVE_CUDA_KERNELS
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>
#endif

GST_DEBUG_CATEGORY (gst_cuda_flac_dec_debug);
#define GST_CAT_DEFAULT gst_cuda_flac_dec_debug

using namespace gpc::flac;

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_BATCH_FRAMES,
  PROP_BATCH_TIME,
  PROP_CHUNK_SIZE,
  PROP_CHECK_MD5,
  PROP_THREADS,
};

#define DEFAULT_BACKEND GST_CUDA_FLAC_DEC_BACKEND_AUTO
#define DEFAULT_DEVICE_ID 0
#define DEFAULT_BATCH_FRAMES 0 /* auto */
#define DEFAULT_BATCH_TIME (0)
#define DEFAULT_CHUNK_SIZE 0   /* auto */
/* "auto" sizes: a GPU needs thousands of frames in flight to be busy (one
 * thread decodes one frame, and those threads wait on memory); the CPU
 * backend only needs a few per core. A CUDA chunk holds about
 * AUTO_BATCH_FRAMES_CUDA frames of the stream (STREAMINFO's largest frame),
 * within 16..64 MiB. On the H100 host, 4620 s of 16-bit stereo without
 * MD5, best of three (first play of a pipeline / second play): 16 MiB
 * chunks 0.45 / 0.27 s, 24 MiB 0.44 / 0.20 s, 32 MiB 0.49 / 0.20 s, 48 MiB
 * 0.52 / 0.20 s: small batches leave the GPU waiting on memory, large ones
 * cost more pinned memory to set up and a longer fill and drain.
 * 6-channel 24-bit frames are 40 KB and more. */
#define AUTO_BATCH_FRAMES_CUDA 3072
#define AUTO_BATCH_FRAMES_CPU 256
#define AUTO_CHUNK_SIZE_CUDA_MIN (16u * 1024 * 1024)
#define AUTO_CHUNK_SIZE_CUDA_MAX (64u * 1024 * 1024)
#define AUTO_CHUNK_SIZE_CPU (8u * 1024 * 1024)
/* room beyond a chunk for the upstream buffer that completes it */
static const size_t kChunkSlack = 4u * 1024 * 1024;
/* Live input (upstream answers the latency query as live): a batch is
 * decoded once it holds this much audio, or one frame where frames are
 * longer, and nothing waits on the GPU behind it. */
#define LIVE_BATCH_TIME (20 * GST_MSECOND)
/* Other input starts small, so that playback starts at once, and doubles
 * the batch (or chunk) from there up to the configured size. */
#define FIRST_BATCH_FRAMES 16u
#define FIRST_CHUNK_SIZE (256u * 1024)
#define DEFAULT_CHECK_MD5 TRUE
#define DEFAULT_THREADS 0

namespace {

/* One batch of frames on its way through a backend. */
struct Batch {
  std::vector<FrameJob> jobs;
  std::vector<uint64_t> numbers;   /* frame (or sample) number of each job, for reports */
  std::vector<uint8_t> host_bytes; /* CPU backend: frame bytes */
  BatchFormat fmt;
  uint32_t rate = 0;
  size_t samples = 0;  /* per channel */
  int in_frames = 0;   /* input buffers (base-class frames) the batch finishes */
  size_t trim = 0;     /* samples dropped from the start (to land exactly on a seek target) */
  int slot = -1;       /* CUDA slot, -1 for the CPU backend */
  GstBuffer *out = nullptr; /* CPU: decoded into; CUDA: downloaded into, if a pinned one was free */
  ~Batch () {
    if (out)
      gst_buffer_unref (out);
  }
};

/* Wall time spent in each stage of the streaming thread, summed over the
 * stream and logged (category cudaflacdec, INFO) when the element stops:
 * it tells whether the GPU, the CPU-side locating and copying, or
 * downstream bounds a run. */
enum Stage { kStageInput, kStageLocate, kStageStage, kStageSubmit, kStageWait, kStagePush,
  kStageMd5Wait, kStages };
static const char *const kStageNames[kStages] = { "input", "locate", "copy-to-pinned", "decode/submit",
  "wait-gpu", "push", "md5-wait" };

struct StageTimer {
  double *total;
  gint64 t0;
  explicit StageTimer (double *t) : total (t), t0 (g_get_monotonic_time ()) {}
  ~StageTimer () { *total += (g_get_monotonic_time () - t0) / 1e6; }
};

/* Everything that lives between start() and stop(). The streaming thread
 * owns it; what a seek from another thread reads of it (the stream's
 * metadata, `unframed`, `metadata_done`) is written under the object lock,
 * and the seek_* fields are read and written under it. */
struct DecState {
  double stage_s[kStages] = {};
  /* the properties, as they were at start() */
  GstCudaFlacDecBackend backend = GST_CUDA_FLAC_DEC_BACKEND_AUTO;
  gint device_id = 0;
  guint64 batch_time = 0;
  bool check_md5 = true;
  /* stream */
  Metadata md;
  bool have_info = false;
  StreamInfo info;
  /* output */
  GstBufferPool *out_pool = nullptr; /* large outputs, recycled (alloc_output) */
  gsize out_pool_size = 0;
  bool negotiated = false;
  BatchFormat out_fmt;
  uint32_t out_rate = 0;
  GstAudioChannelPosition from_pos[8], to_pos[8]; /* FLAC's channel order, the output's */
  bool have_mask = false; /* a WAVEFORMATEXTENSIBLE_CHANNEL_MASK comment, instead of RFC 9639's order */
  uint32_t channel_mask = 0;
  bool reorder = false;
  gint reorder_map[8] = {}; /* FLAC channel i goes to output position reorder_map[i] */
  /* backends */
  std::unique_ptr<CpuDecoder> cpu;
  CudaDecoder cuda;
  bool use_cuda = false;
  /* backend=auto: the CUDA context is created on a thread of its own (a
   * fifth of a second on the H100) while the CPU decodes; batches go to the
   * GPU once it is ready. */
  enum { kCudaIdle, kCudaStarting, kCudaReady, kCudaFailed };
  std::atomic<int> cuda_state {kCudaIdle};
  std::thread cuda_init;
  std::mutex cuda_init_lock;
  GError *cuda_error = nullptr;
  guint cpu_batches_while_starting = 0;
  /* unframed input: chunk and PCM sizes for the start-up thread to allocate
   * the CUDA buffers with (0: unknown yet) */
  std::atomic<size_t> prep_in {0}, prep_out {0};
  std::atomic<bool> stopping {false}; /* stop() waits: no buffers ahead then */
  unsigned prep_format_bytes = 0;
  int next_slot = 0;
  std::unique_ptr<Batch> in_flight; /* CUDA: submitted, not yet pushed */
  /* framed input: queued frames */
  std::vector<GstBuffer *> queued;
  std::vector<FrameHeader> queued_hdr;
  BatchFormat queued_fmt;
  uint32_t queued_rate = 0;
  uint64_t queued_samples = 0;
  /* unframed input */
  bool unframed = false;
  bool framed_caps = false;
  bool metadata_done = false;
  std::unique_ptr<InputBytes> in; /* waiting to be located (host, or a CUDA slot's pinned input) */
  std::unique_ptr<FrameLocator> locator;
  bool gpu_locate = true; /* CUDA: candidates and ends found by the GPU (GPC_FLAC_LOCATE=cpu: by the CPU) */
  std::vector<FoundCandidate> found;
  int pending_in = 0;
  /* checks */
  Md5Worker md5;
  bool md5_valid = true;  /* decoding started at the stream start, no seek */
  uint64_t decoded = 0;   /* samples per channel */
  uint64_t errors = 0;
  uint64_t first_error = 0;
  uint64_t first_error_sample = 0;
  int first_error_status = kOk;
  uint64_t errors_unreported = 0; /* since the last summary warning */
  uint64_t skipped_bytes = 0; /* unframed: bytes that held no frame (garbage, damage) */
  bool headerless = false;    /* unframed input without "fLaC" and STREAMINFO */
  bool at_eos = false;
  /* unframed seeking: the target of the seek we turned into a byte seek,
   * then the sample the output must start at once frames are found */
  GstClockTime seek_time = GST_CLOCK_TIME_NONE;
  bool trim_pending = false;
  uint64_t trim_to_sample = 0;
  uint64_t trim_left = 0;      /* samples still to drop */
  /* Refinement of an unframed seek that landed after its target (a byte
   * estimate without seek table): the seek being refined, its last byte
   * position and tries; `reseeking` drops input until the new seek's flush. */
  GstClockTime seek_target = GST_CLOCK_TIME_NONE;
  uint64_t seek_byte = 0;
  gint64 seek_file_bytes = 0;
  GstSeekFlags seek_flags = GST_SEEK_FLAG_NONE;
  guint32 seek_seqnum = 0;
  int seek_tries = 0;
  std::atomic<bool> reseeking {false};
  bool eos_held = false; /* an EOS that came while reseeking (object lock) */
  /* effective sizes (properties, or their auto values for the backend) */
  guint batch_frames = 0;
  guint chunk_size = 0;
  bool auto_cuda_chunks = false;
  /* live upstream (asked once per stream, on its first buffer) */
  bool live = false;
  bool live_known = false;
  /* the growing size of non-live batches and chunks since the stream (or
   * seek) started */
  guint ramp_frames = FIRST_BATCH_FRAMES;
  guint ramp_chunk = FIRST_CHUNK_SIZE;
};

} // namespace

struct _GstCudaFlacDec {
  GstAudioDecoder parent;

  GstCudaFlacDecBackend backend;
  gint device_id;
  guint batch_frames;
  guint64 batch_time;
  guint chunk_size;
  gboolean check_md5;
  guint threads;

  DecState *st;
#ifdef GPC_HAVE_CUDA_KERNELS
  GstCudaContext *cuda_ctx;
#endif
};

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

static GstAudioFormat gst_format_of (OutFormat f)
{
  switch (f) {
    case kS8: return GST_AUDIO_FORMAT_S8;
    case kS16: return GST_AUDIO_FORMAT_S16LE;
    case kS24_32: return GST_AUDIO_FORMAT_S24_32LE;
    default: return GST_AUDIO_FORMAT_S32LE;
  }
}

static BatchFormat format_of_header (const FrameHeader &h, const StreamDefaults &d)
{
  BatchFormat f;
  f.defaults = d;
  f.channels = h.channels;
  f.bps = h.bps;
  f.format = out_format_for_bps (h.bps);
  return f;
}

static bool same_format (const BatchFormat &a, uint32_t ra, const BatchFormat &b, uint32_t rb)
{
  return a.channels == b.channels && a.bps == b.bps && ra == rb;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

/* Audio a live batch may hold: LIVE_BATCH_TIME, or batch-time if shorter. */
static GstClockTime live_batch_time (const DecState *st)
{
  return st->batch_time ? MIN (st->batch_time, LIVE_BATCH_TIME) : LIVE_BATCH_TIME;
}

/* The latency we add: how long the first sample of a batch can wait for
 * the rest of it. Live: one live batch, plus (unframed) the frame that
 * waits for the next one's header to be found. Otherwise a whole batch or
 * chunk, twice on the GPU, where one batch decodes while the next fills. */
static void update_latency (GstCudaFlacDec *self)
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
  if (!st->live && (st->use_cuda || st->cuda_state.load () == DecState::kCudaStarting))
    lat *= 2;
  gst_audio_decoder_set_latency (GST_AUDIO_DECODER (self), lat, lat);
}

/* Asks upstream, once per stream, whether it is live. */
static void check_live (GstCudaFlacDec *self)
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
static GstBuffer *alloc_output (GstCudaFlacDec *self, gsize size)
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
static GstFlowReturn count_error (GstCudaFlacDec *self, uint64_t number, uint64_t sample, int status,
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
static void report_error_summary (GstCudaFlacDec *self)
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
static GstFlowReturn push_batch (GstCudaFlacDec *self, Batch &b, const uint8_t *pcm, size_t pcm_bytes)
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

/* Runs a prepared batch (jobs reference b.host_bytes or the CUDA slot input).
 * CPU: decoded and pushed now. CUDA: submitted; the previous batch is
 * collected and pushed, this one stays in flight. */
static GstFlowReturn run_batch (GstCudaFlacDec *self, std::unique_ptr<Batch> b)
{
  DecState *st = self->st;
  size_t pcm_bytes = b->samples * b->fmt.channels * out_format_bytes (b->fmt.format);
  if (!st->use_cuda) {
    if (st->cuda_state.load () == DecState::kCudaStarting)
      st->cpu_batches_while_starting++;
    b->out = alloc_output (self, pcm_bytes);
    GstMapInfo map;
    if (!gst_buffer_map (b->out, &map, GST_MAP_WRITE)) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot map the output buffer"), (NULL));
      return GST_FLOW_ERROR;
    }
    {
      StageTimer timer (&st->stage_s[kStageSubmit]);
      st->cpu->decode (b->jobs.data (), b->jobs.size (), b->fmt, map.data);
    }
    gst_buffer_unmap (b->out, &map);
    gst_buffer_set_size (b->out, pcm_bytes);
    return push_batch (self, *b, nullptr, pcm_bytes);
  }
  bool submitted;
  {
    StageTimer timer (&st->stage_s[kStageSubmit]);
    /* straight into a pinned buffer that goes downstream, where one is free */
    uint8_t *direct = nullptr;
    b->out = st->cuda.output_buffer (pcm_bytes, &direct);
    submitted = st->cuda.submit (b->slot, b->jobs.data (), b->jobs.size (), b->fmt, b->samples, direct);
  }
  if (!submitted) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("CUDA decoding failed"), ("submitting a batch failed"));
    return GST_FLOW_ERROR;
  }
  GstFlowReturn ret = GST_FLOW_OK;
  std::unique_ptr<Batch> prev = std::move (st->in_flight);
  st->in_flight = std::move (b);
  if (prev) {
    const uint8_t *pcm;
    size_t n;
    bool collected;
    {
      StageTimer timer (&st->stage_s[kStageWait]);
      collected = st->cuda.collect (prev->slot, prev->jobs.data (), prev->jobs.size (), &pcm, &n);
    }
    if (!collected) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("CUDA decoding failed"), ("waiting for a batch failed"));
      return GST_FLOW_ERROR;
    }
    ret = push_batch (self, *prev, prev->out ? nullptr : pcm, n);
  }
  return ret;
}

static GstFlowReturn finish_in_flight (GstCudaFlacDec *self);

/* Runs a batch; live input waits for its output (nothing stays on the GPU
 * until the next batch, which may be a frame's duration away). */
static GstFlowReturn run_batch_now (GstCudaFlacDec *self, std::unique_ptr<Batch> b)
{
  GstFlowReturn ret = run_batch (self, std::move (b));
  if (ret == GST_FLOW_OK && self->st->live && self->st->use_cuda)
    ret = finish_in_flight (self);
  return ret;
}

/* Pushes the batch still on the GPU. */
static GstFlowReturn finish_in_flight (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  std::unique_ptr<Batch> prev = std::move (st->in_flight);
  if (!prev)
    return GST_FLOW_OK;
  const uint8_t *pcm;
  size_t n;
  bool collected;
  {
    StageTimer timer (&st->stage_s[kStageWait]);
    collected = st->cuda.collect (prev->slot, prev->jobs.data (), prev->jobs.size (), &pcm, &n);
  }
  if (!collected) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("CUDA decoding failed"), ("waiting for a batch failed"));
    return GST_FLOW_ERROR;
  }
  return push_batch (self, *prev, prev->out ? nullptr : pcm, n);
}

static void join_cuda_init (DecState *st)
{
  std::lock_guard<std::mutex> g (st->cuda_init_lock);
  if (st->cuda_init.joinable ())
    st->cuda_init.join ();
}

static void use_cuda_now (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  st->use_cuda = true;
  st->gpu_locate = g_strcmp0 (g_getenv ("GPC_FLAC_LOCATE"), "cpu") != 0;
  GST_INFO_OBJECT (self, "decoding on CUDA device %d; unframed input located on the %s", st->device_id,
      st->gpu_locate ? "GPU" : "CPU (GPC_FLAC_LOCATE=cpu)");
}

/* backend=auto: takes the CUDA backend once its start-up thread is done
 * (or reports that it failed); until then batches decode on the CPU. */
static void adopt_cuda_when_ready (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  int state = st->cuda_state.load (std::memory_order_acquire);
  /* live batches are a frame or two: the CPU decodes them sooner than a
   * round trip to the GPU */
  if (state == DecState::kCudaIdle || state == DecState::kCudaStarting || st->live)
    return;
  join_cuda_init (st);
  st->cuda_state = DecState::kCudaIdle;
  if (state == DecState::kCudaReady) {
    GST_INFO_OBJECT (self, "CUDA is ready after %u batch(es) decoded on the CPU", st->cpu_batches_while_starting);
    use_cuda_now (self);
  } else {
    GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND, ("CUDA unavailable, decoding on the CPU"),
        ("%s; using %u CPU threads", st->cuda_error ? st->cuda_error->message : "?", st->cpu->threads ()));
    g_clear_error (&st->cuda_error);
  }
}

/* The next CUDA slot to fill, once the batch still in flight there (if
 * any) is pushed: its output must not be overwritten. */
static GstFlowReturn take_slot (GstCudaFlacDec *self, int *slot)
{
  DecState *st = self->st;
  *slot = st->next_slot;
  st->next_slot = (st->next_slot + 1) % CudaDecoder::kSlots;
  if (st->in_flight && st->in_flight->slot == *slot)
    return finish_in_flight (self);
  return GST_FLOW_OK;
}

/* Buffer for a batch's frame bytes: pinned memory of the next CUDA slot, or
 * the batch's own vector. */
static uint8_t *batch_input (GstCudaFlacDec *self, Batch &b, size_t bytes, GstFlowReturn *ret)
{
  DecState *st = self->st;
  *ret = GST_FLOW_OK;
  if (st->use_cuda) {
    *ret = take_slot (self, &b.slot);
    return *ret == GST_FLOW_OK ? st->cuda.input (b.slot, MAX (bytes, 1)) : nullptr;
  }
  b.host_bytes.resize (MAX (bytes, 1));
  return b.host_bytes.data ();
}

/* ------------------------------------------------------------------------ */
/* Framed input (flacparse)                                                  */

static GstFlowReturn flush_queued (GstCudaFlacDec *self)
{
  DecState *st = self->st;
  if (st->queued.empty ())
    return GST_FLOW_OK;
  adopt_cuda_when_ready (self);
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

static void add_tags_from (GstCudaFlacDec *self, const Metadata &md)
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

static void set_stream_info (GstCudaFlacDec *self, const StreamInfo &si)
{
  DecState *st = self->st;
  GST_OBJECT_LOCK (self);
  st->info = si;
  st->have_info = true;
  GST_OBJECT_UNLOCK (self);
  GST_INFO_OBJECT (self, "STREAMINFO: %u Hz, %u channels, %u bits, blocks %u..%u, %" G_GUINT64_FORMAT
      " samples", si.sample_rate, si.channels, si.bps, si.min_blocksize, si.max_blocksize, si.total_samples);
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

static GstFlowReturn handle_framed (GstCudaFlacDec *self, GstBuffer *buf)
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

/* ------------------------------------------------------------------------ */
/* Unframed input (a FLAC file)                                              */

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

static GstFlowReturn process_chunk (GstCudaFlacDec *self, bool final)
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
  adopt_cuda_when_ready (self);
  LocateResult lr;
  /* CUDA: the chunk was gathered in a slot's pinned memory; the GPU locates
   * its frames there and decodes them from the same upload. CPU: frames are
   * located and decoded in place, before the consumed bytes are dropped. */
  if (st->use_cuda && st->in->slot () < 0) {
    /* the first chunk since CUDA took over (backend=auto) is in host memory */
    int to;
    GstFlowReturn taken = take_slot (self, &to);
    if (taken != GST_FLOW_OK)
      return taken;
    StageTimer timer (&st->stage_s[kStageStage]);
    if (!st->in->carry_to (to, 0, st->in->size ())) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("CUDA decoding failed"), ("no pinned memory"));
      return GST_FLOW_ERROR;
    }
  }
  uint8_t *dst = st->in->data ();
  const size_t size = st->in->size ();
  const int slot = st->in->slot ();
  {
    StageTimer timer (&st->stage_s[kStageLocate]);
    bool located = false;
    if (st->use_cuda && st->gpu_locate) {
      located = st->cuda.locate (slot, size, final, st->locator->params ().scan_params (), &st->found);
      if (located)
        st->locator->locate_found (dst, size, final, st->found.data (), st->found.size (), &lr);
      else
        GST_DEBUG_OBJECT (self, "GPU frame location gave up on this chunk: locating on the CPU");
    }
    if (!located)
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
  bool submitted = false;
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
      submitted = last && st->use_cuda && !st->live;
      ret = run_batch_now (self, std::move (batches[i]));
      if (ret == GST_FLOW_OK && !last && st->use_cuda)
        ret = finish_in_flight (self);
    }
  }
  if (ret != GST_FLOW_OK)
    return ret;
  if (submitted) {
    /* this slot is in flight: the rest gathers the next chunk in the next */
    int next;
    ret = take_slot (self, &next);
    if (ret == GST_FLOW_OK && !st->in->carry_to (next, consumed, st->chunk_size + kChunkSlack)) {
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("CUDA decoding failed"), ("no pinned memory"));
      ret = GST_FLOW_ERROR;
    }
  } else {
    st->in->drop_front (consumed);
  }
  return ret;
}

/* backend=auto, unframed: tells the CUDA start-up thread what to allocate,
 * the PCM of a chunk estimated from the file's mean compression. */
static void publish_cuda_sizes (GstCudaFlacDec *self)
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

static GstFlowReturn handle_unframed (GstCudaFlacDec *self, GstBuffer *buf)
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
    if (st->auto_cuda_chunks && !st->headerless) {
      /* CUDA: room for a GPU's worth of the stream's frames */
      guint64 frame = md.info.max_framesize ? md.info.max_framesize
          : StreamParams::from_streaminfo (md.info).frame_bound () / 2;
      st->chunk_size = (guint) CLAMP (frame * AUTO_BATCH_FRAMES_CUDA, (guint64) AUTO_CHUNK_SIZE_CUDA_MIN,
          (guint64) AUTO_CHUNK_SIZE_CUDA_MAX);
      GST_INFO_OBJECT (self, "chunks of %u bytes (frames up to %" G_GUINT64_FORMAT " bytes)", st->chunk_size,
          frame);
      if (st->cuda_state.load () == DecState::kCudaStarting)
        publish_cuda_sizes (self);
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

/* ------------------------------------------------------------------------ */
/* GstAudioDecoder                                                           */

static void check_md5_at_eos (GstCudaFlacDec *self)
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
    GST_ELEMENT_WARNING (self, STREAM, DECODE, ("FLAC stream is incomplete"),
        ("stream %s: decoded %" G_GUINT64_FORMAT " samples, STREAMINFO says %" G_GUINT64_FORMAT
            "; MD5 not checked", GST_STR_NULL (gst_pad_get_stream_id (GST_AUDIO_DECODER_SINK_PAD (self))),
            st->decoded, st->info.total_samples));
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

/* End of unframed input: one warning for all the bytes that held no frame,
 * and an error where none of them did. */
static GstFlowReturn end_unframed (GstCudaFlacDec *self, GstFlowReturn ret)
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

static GstFlowReturn gst_cuda_flac_dec_handle_frame (GstAudioDecoder *dec, GstBuffer *buf)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  DecState *st = self->st;
  if (!buf) { /* drain */
    GstFlowReturn ret = st->unframed ? process_chunk (self, true) : flush_queued (self);
    if (ret == GST_FLOW_OK && st->use_cuda)
      ret = finish_in_flight (self);
    if (st->at_eos && st->unframed)
      ret = end_unframed (self, ret);
    if (st->at_eos) {
      report_error_summary (self);
      check_md5_at_eos (self);
    }
    return ret;
  }
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
  /* STREAMINFO from the streamheader: 0x7F "FLAC" major minor count(2) "fLaC" block */
  const GValue *sh = gst_structure_get_value (s, "streamheader");
  if (framed && sh && GST_VALUE_HOLDS_ARRAY (sh) && gst_value_array_get_size (sh) > 0) {
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
            if (st->use_cuda)
              finish_in_flight (self);
          }
          set_stream_info (self, md.info);
        }
      }
      gst_buffer_unmap (hb, &map);
    }
  }
  return TRUE;
}

static void reset_stream_state (DecState *st)
{
  for (GstBuffer *b : st->queued)
    gst_buffer_unref (b);
  st->queued.clear ();
  st->queued_hdr.clear ();
  st->queued_samples = 0;
  st->in->reset ();
  st->pending_in = 0;
  st->trim_left = 0;
  st->ramp_frames = FIRST_BATCH_FRAMES;
  st->ramp_chunk = FIRST_CHUNK_SIZE;
  st->reseeking = false;
  st->eos_held = false;
  if (st->in_flight) {
    /* discard the GPU batch: wait for its slot, drop the result */
    const uint8_t *pcm;
    size_t n;
    st->cuda.collect (st->in_flight->slot, st->in_flight->jobs.data (), st->in_flight->jobs.size (), &pcm, &n);
    st->in_flight.reset ();
  }
  if (st->locator)
    st->locator->reset ();
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

/* A file source sends a BYTES segment, which the base class can only map to
 * time once it has estimated a bitrate: map it here from STREAMINFO (exact
 * at the start, proportional after a byte seek). */
static GstEvent *time_segment_from_bytes (GstCudaFlacDec *self, GstEvent *event)
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
static bool seekable_unframed (const DecState *st)
{
  return st && st->unframed && st->metadata_done && st->have_info && st->info.sample_rate;
}

/* Unframed input: a TIME seek becomes a BYTES seek upstream, at the last
 * SEEKTABLE point before the target, or at a proportional estimate minus a
 * margin; the output is then trimmed to start exactly at the target. Runs
 * on the seeking application's thread, while the streaming thread runs and
 * stop() may come: what it uses of the state is read under the object lock. */
static gboolean gst_cuda_flac_dec_src_event (GstAudioDecoder *dec, GstEvent *event)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  if (GST_EVENT_TYPE (event) != GST_EVENT_SEEK)
    return GST_AUDIO_DECODER_CLASS (parent_class)->src_event (dec, event);
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
    return GST_AUDIO_DECODER_CLASS (parent_class)->src_event (dec, event);
  GST_OBJECT_LOCK (self);
  DecState *st = self->st;
  if (!seekable_unframed (st)) { /* stopped meanwhile */
    GST_OBJECT_UNLOCK (self);
    return GST_AUDIO_DECODER_CLASS (parent_class)->src_event (dec, event);
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
  return ok;
}

static gboolean gst_cuda_flac_dec_sink_event (GstAudioDecoder *dec, GstEvent *event)
{
  GstCudaFlacDec *self = GST_CUDA_FLAC_DEC (dec);
  if (GST_EVENT_TYPE (event) == GST_EVENT_SEGMENT)
    event = time_segment_from_bytes (self, event);
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

/* st is passed in: on backend=auto this runs on a thread of its own, and
 * stop() may already have taken self->st away while it waits for it. */
static gboolean open_cuda (GstCudaFlacDec *self, DecState *st, GError **err)
{
#ifdef GPC_HAVE_CUDA_KERNELS
  if (!CudaDecoder::runtime_available ()) {
    g_set_error (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "the CUDA driver library (libcuda.so.1) cannot be loaded");
    return FALSE;
  }
  /* The fixed cost of the CUDA backend, logged because it shows in short files. */
  gint64 t0 = g_get_monotonic_time ();
  if (!gst_cuda_ensure_element_context (GST_ELEMENT (self), st->device_id, &self->cuda_ctx)) {
    g_set_error (err, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NOT_FOUND,
        "no usable CUDA device %d", st->device_id);
    return FALSE;
  }
  gint64 t1 = g_get_monotonic_time ();
  gboolean ok = st->cuda.open (self->cuda_ctx, err);
  GST_INFO_OBJECT (self, "CUDA context %.1f ms, kernels loaded %.1f ms", (t1 - t0) / 1e3,
      (g_get_monotonic_time () - t1) / 1e3);
  return ok;
#else
  return st->cuda.open (NULL, err);
#endif
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
  if (st->backend == GST_CUDA_FLAC_DEC_BACKEND_AUTO && CudaDecoder::runtime_available () &&
      CudaDecoder::kernels_built ()) {
    st->cuda_state = DecState::kCudaStarting;
    st->cuda_init = std::thread ([self, st] () {
      GError *err = NULL;
      bool ok = open_cuda (self, st, &err);
      size_t in = st->prep_in.load (std::memory_order_acquire);
      if (ok && in && !st->stopping.load ()) {
        gint64 t0 = g_get_monotonic_time ();
        bool prepared = st->cuda.prepare (in, st->prep_out.load (), st->prep_format_bytes);
        GST_INFO_OBJECT (self, "CUDA buffers for chunks of %zu bytes and %zu bytes of PCM %s in %.1f ms", in,
            st->prep_out.load (), prepared ? "allocated" : "not allocated", (g_get_monotonic_time () - t0) / 1e3);
      }
      st->cuda_error = err;
      st->cuda_state.store (ok ? DecState::kCudaReady : DecState::kCudaFailed, std::memory_order_release);
    });
    GST_INFO_OBJECT (self, "creating the CUDA context; the CPU decodes until it is ready");
  } else if (st->backend != GST_CUDA_FLAC_DEC_BACKEND_CPU) {
    GError *err = NULL;
    if (open_cuda (self, st, &err)) {
      use_cuda_now (self);
    } else if (st->backend == GST_CUDA_FLAC_DEC_BACKEND_CUDA) {
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("CUDA backend unavailable"), ("%s", err->message));
      g_error_free (err);
      /* the base class calls stop() only after a successful start() */
      gst_cuda_flac_dec_stop (dec);
      return FALSE;
    } else {
      GST_ELEMENT_WARNING (self, RESOURCE, NOT_FOUND, ("CUDA unavailable, decoding on the CPU"),
          ("%s; using %u CPU threads", err->message, st->cpu->threads ()));
      g_error_free (err);
    }
  }
  bool gpu = st->use_cuda || st->cuda_state.load () == DecState::kCudaStarting;
  if (!gpu)
    GST_INFO_OBJECT (self, "decoding on %u CPU threads", st->cpu->threads ());
  st->batch_frames = batch_frames ? batch_frames : gpu ? AUTO_BATCH_FRAMES_CUDA : AUTO_BATCH_FRAMES_CPU;
  st->chunk_size = chunk_size ? chunk_size : gpu ? AUTO_CHUNK_SIZE_CUDA_MIN : AUTO_CHUNK_SIZE_CPU;
  st->auto_cuda_chunks = !chunk_size && gpu; /* sized from STREAMINFO */
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
    st->cuda.close ();
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

/* DURATION from STREAMINFO's sample count; SEEKING in TIME for unframed
 * input that we seek through byte seeks upstream. From any thread: what is
 * read of the stream is read under the object lock. */
static gboolean answer_stream_query (GstCudaFlacDec *self, GstQuery *query)
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
          "Where frames are decoded: cuda (error if no CUDA device), cpu (every core), or auto "
          "(CUDA when a device and the kernels are available, else CPU with a warning; the CPU decodes "
          "while the CUDA context is being created, then batches go to the GPU; input from a live "
          "upstream stays on the CPU)",
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
  self->backend = DEFAULT_BACKEND;
  self->device_id = DEFAULT_DEVICE_ID;
  self->batch_frames = DEFAULT_BATCH_FRAMES;
  self->batch_time = DEFAULT_BATCH_TIME;
  self->chunk_size = DEFAULT_CHUNK_SIZE;
  self->check_md5 = DEFAULT_CHECK_MD5;
  self->threads = DEFAULT_THREADS;
  self->st = NULL;
  gst_audio_decoder_set_needs_format (GST_AUDIO_DECODER (self), FALSE);
  gst_audio_decoder_set_drainable (GST_AUDIO_DECODER (self), TRUE);
  gst_audio_decoder_set_estimate_rate (GST_AUDIO_DECODER (self), TRUE);
  gst_audio_decoder_set_use_default_pad_acceptcaps (GST_AUDIO_DECODER (self), TRUE);
  GST_PAD_SET_ACCEPT_TEMPLATE (GST_AUDIO_DECODER_SINK_PAD (self));
}
