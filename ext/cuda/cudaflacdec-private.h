/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the parts of cudaflacdec share: the element's instance, the state it
 * holds between start() and stop(), and the functions each part offers the
 * others. gstcudaflacdec.cpp is the element (properties, caps, events,
 * queries); cudaflacdec-output.cpp negotiates and pushes decoded batches
 * (latency, channel positions, errors, MD5); cudaflacdec-backend.cpp chooses
 * the backend that decodes the batches, cudaflacdec-cpu-backend.cpp or
 * cudaflacdec-cuda-backend.cpp; cudaflacdec-framed.cpp takes flacparse's
 * frames; cudaflacdec-unframed.cpp reads a FLAC byte stream (metadata,
 * frame location, byte seeks). Every function runs on the streaming thread
 * unless its comment says otherwise.
 */
#pragma once

#include <gst/audio/audio.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cudaflacdec-batch-backend.h"
#include "flac-batch-sizes.h"
#include "flac-cpu-decoder.h"
#include "flac-cuda-decoder.h"
#include "flac-input-bytes.h"
#include "flac-locator.h"
#include "flac-md5-worker.h"
#include "flac-metadata.h"
#include "gstcudaflacdec.h"

#ifdef GPC_HAVE_CUDA_KERNELS
#include <gst/cuda/gstcudacontext.h>
#endif

GST_DEBUG_CATEGORY_EXTERN (gst_cuda_flac_dec_debug);

/* room beyond a chunk for the upstream buffer that completes it */
inline constexpr size_t kChunkSlack = 4u * 1024 * 1024;
/* Live input (upstream answers the latency query as live): a batch is
 * decoded once it holds this much audio, or one frame where frames are
 * longer, and nothing waits on the GPU behind it. */
#define LIVE_BATCH_TIME (20 * GST_MSECOND)
/* Other input starts small, so that playback starts at once, and doubles
 * the batch (or chunk) from there up to the configured size. */
#define FIRST_BATCH_FRAMES 16u
#define FIRST_CHUNK_SIZE (256u * 1024)

namespace gpc {
namespace cudaflacdec {

using namespace gpc::flac;

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
inline constexpr const char *kStageNames[kStages] = { "input", "locate", "copy-to-pinned", "decode/submit",
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
  CudaDecoder cuda; /* the CUDA backend's, and the pinned memory `in` gathers chunks in */
  std::unique_ptr<FlacBatchBackend> cpu_backend;
  std::unique_ptr<FlacBatchBackend> cuda_backend; /* null where built without CUDA */
  bool use_cuda = false; /* batches go to cuda_backend */
  FlacBatchBackend *active () const { return use_cuda ? cuda_backend.get () : cpu_backend.get (); }
  /* backend=auto: the CUDA context is created on a thread of its own (a
   * fifth of a second on the H100) while the CPU decodes; batches go to the
   * GPU once it is ready. Without a CUDA context at hand at start, the CPU
   * decodes first and CUDA is started only where it pays (kCudaDeferred:
   * not decided yet; see maybe_start_cuda). */
  enum { kCudaIdle, kCudaStarting, kCudaReady, kCudaFailed, kCudaDeferred };
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
  bool gpu_locate = true; /* CUDA: candidates and ends found by the GPU (locate-on-gpu=false: by the CPU) */
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
  /* effective sizes (properties, or their auto values for the backend:
   * resize_for) */
  guint batch_frames = 0;
  guint chunk_size = 0;
  guint batch_frames_prop = 0, chunk_size_prop = 0; /* as set, 0 = auto */
  uint64_t frame_bytes = 0; /* unframed: the stream's largest frame (0: not known) */
  /* live upstream (asked once per stream, on its first buffer) */
  bool live = false;
  bool live_known = false;
  /* the growing size of non-live batches and chunks since the stream (or
   * seek) started */
  guint ramp_frames = FIRST_BATCH_FRAMES;
  guint ramp_chunk = FIRST_CHUNK_SIZE;
};

} // namespace cudaflacdec
} // namespace gpc

struct _GstCudaFlacDec {
  GstAudioDecoder parent;

  GstCudaFlacDecBackend backend;
  gint device_id;
  guint batch_frames;
  guint64 batch_time;
  guint chunk_size;
  gboolean check_md5;
  guint threads;
  gboolean locate_on_gpu;

  gpc::cudaflacdec::DecState *st;
#ifdef GPC_HAVE_CUDA_KERNELS
  GstCudaContext *cuda_ctx;
#endif
};

namespace gpc {
namespace cudaflacdec {

inline GstAudioFormat gst_format_of (OutFormat f)
{
  switch (f) {
    case kS8: return GST_AUDIO_FORMAT_S8;
    case kS16: return GST_AUDIO_FORMAT_S16LE;
    case kS24_32: return GST_AUDIO_FORMAT_S24_32LE;
    default: return GST_AUDIO_FORMAT_S32LE;
  }
}

inline BatchFormat format_of_header (const FrameHeader &h, const StreamDefaults &d)
{
  BatchFormat f;
  f.defaults = d;
  f.channels = h.channels;
  f.bps = h.bps;
  f.format = out_format_for_bps (h.bps);
  return f;
}

inline bool same_format (const BatchFormat &a, uint32_t ra, const BatchFormat &b, uint32_t rb)
{
  return a.channels == b.channels && a.bps == b.bps && ra == rb;
}

/* cudaflacdec-output.cpp */
GstClockTime live_batch_time (const DecState *st);
void check_live (GstCudaFlacDec *self);
void update_latency (GstCudaFlacDec *self);
GstBuffer *alloc_output (GstCudaFlacDec *self, gsize size);
GstFlowReturn count_error (GstCudaFlacDec *self, uint64_t number, uint64_t sample, int status, uint32_t samples);
void report_error_summary (GstCudaFlacDec *self);
GstFlowReturn push_batch (GstCudaFlacDec *self, Batch &b, const uint8_t *pcm, size_t pcm_bytes);
void add_tags_from (GstCudaFlacDec *self, const Metadata &md);
void set_stream_info (GstCudaFlacDec *self, const StreamInfo &si);
void check_md5_at_eos (GstCudaFlacDec *self);

/* cudaflacdec-backend.cpp */
bool start_backends (GstCudaFlacDec *self, DecState *st);
GstFlowReturn run_batch_now (GstCudaFlacDec *self, std::unique_ptr<Batch> b);
GstFlowReturn finish_in_flight (GstCudaFlacDec *self);
void join_cuda_init (DecState *st);
GstFlowReturn adopt_cuda_when_ready (GstCudaFlacDec *self);
GstFlowReturn drain_batches (GstCudaFlacDec *self);
void publish_cuda_sizes (GstCudaFlacDec *self);
/* Whether batches go to the GPU in this stream, or will once its start-up
 * thread is done (sizes are chosen for it). backend=auto before its
 * decision (kCudaDeferred) decodes as backend=cpu does. */
inline bool cuda_possible (const DecState *st)
{
  int state = st->cuda_state.load ();
  return st->use_cuda || state == DecState::kCudaStarting || state == DecState::kCudaReady;
}
void resize_for (GstCudaFlacDec *self, bool gpu);
uint8_t *batch_input (GstCudaFlacDec *self, Batch &b, size_t bytes, GstFlowReturn *ret);
void reset_stream_state (DecState *st);

/* cudaflacdec-framed.cpp */
void streaminfo_from_caps (GstCudaFlacDec *self, const GstStructure *s);
GstFlowReturn flush_queued (GstCudaFlacDec *self);
GstFlowReturn handle_framed (GstCudaFlacDec *self, GstBuffer *buf);

/* cudaflacdec-unframed.cpp */
GstFlowReturn handle_unframed (GstCudaFlacDec *self, GstBuffer *buf);
GstFlowReturn process_chunk (GstCudaFlacDec *self, bool final);
GstFlowReturn end_unframed (GstCudaFlacDec *self, GstFlowReturn ret);
GstEvent *time_segment_from_bytes (GstCudaFlacDec *self, GstEvent *event);
bool seekable_unframed (const DecState *st);
bool unframed_seek (GstCudaFlacDec *self, GstEvent *event, gboolean *result);
gboolean answer_stream_query (GstCudaFlacDec *self, GstQuery *query);

} // namespace cudaflacdec
} // namespace gpc
