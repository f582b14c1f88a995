/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-vkproresdec
 * @title: vkproresdec
 *
 * Decodes Apple ProRes (proxy, LT, standard, HQ, 4444, 4444 XQ; progressive
 * and interlaced; alpha) on a Vulkan device, bit-exact with FFmpeg's
 * software decoder. The CPU parses each frame (bounds checked) and uploads
 * the frame with its slice records in one transfer; entropy decoding
 * (one invocation per slice component), then dequantisation and the IDCT
 * (one workgroup per slice) run on the GPU (vkproresscheduler.h).
 *
 * Ranked above avdec_prores where the default Vulkan device is a GPU that
 * runs the kernels, NONE elsewhere (vkproresprobe.h), so that playbin and
 * decodebin use it only where it pays.
 *
 * Output is `memory:VulkanBuffer` (one storage buffer per plane with a
 * #GstVideoMeta, nothing read back) when downstream asks for it, else system
 * memory through an internal download. Formats as FFmpeg decodes the
 * stream: I422_10LE / Y444_10LE for the 4:2:2 profiles, Y444_12LE /
 * I422_12LE for 4444 and 4444 XQ, A422_10LE / A444_10LE with alpha at 10
 * bits, AYUV64 for 4:4:4 with alpha at 12 bits (GStreamer 1.22 has no
 * planar 12-bit format with alpha); 4:2:2 with alpha at 12 bits drops the
 * alpha plane (with a warning); #GstVkProResDec:skip-alpha drops it
 * always.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=clip.mov ! qtdemux ! vkproresdec ! videoconvert ! autovideosink
 * gst-launch-1.0 filesrc location=clip.mov ! qtdemux ! vkproresdec ! "video/x-raw(memory:VulkanBuffer)" ! vkvmafmotion ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvkproresdec.h"

#include <gst/video/video.h>
#include "compute/gpcvk.h"

#include <string.h>

#include <string>

#include "compute/gpcvkcontext.h"
#include "gpc-parallel-copy.h"
#include "prores-frame.h"
#include "vkproresoutput.h"
#include "vkproresprobe.h"
#include "vkproresscheduler.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_prores_dec_debug);
#define GST_CAT_DEFAULT gst_vk_prores_dec_debug

#define MAX_FRAMES_IN_FLIGHT 32
/* What frames-in-flight and batch left at -1 (auto) mean. Upstream not
 * live: throughput, as measured on the H100 (docs/performance.md): 16-frame
 * batches let the split path's serial first passes of many frames run at
 * once (2160p HQ: 789 fps with batches of 1, 2211 with 16). Upstream live:
 * the fewest frames that keep the GPU busy, one frame a submission and two
 * in flight (one decoding while the next is uploaded). The latency,
 * reported, is frames-in-flight frames. */
#define AUTO -1
#define THROUGHPUT_FRAMES_IN_FLIGHT 32
#define THROUGHPUT_BATCH 16
#define LIVE_FRAMES_IN_FLIGHT 2
#define LIVE_BATCH 1
/* Bit positions in the kernel are 32-bit. */
#define MAX_FRAME_BYTES (256u << 20)

enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
  PROP_SKIP_ALPHA,
  PROP_FRAMES_IN_FLIGHT,
  PROP_OUTPUT_MEMORY,
  PROP_IDCT,
  PROP_BATCH,
};

namespace {

typedef enum
{
  OUTPUT_MEMORY_AUTO,
  OUTPUT_MEMORY_VULKAN,
  OUTPUT_MEMORY_SYSTEM,
} OutputMemory;

#define GST_TYPE_VK_PRORES_DEC_OUTPUT_MEMORY (output_memory_get_type ())
static GType
output_memory_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {OUTPUT_MEMORY_AUTO, "memory:VulkanBuffer when downstream asks for it by "
          "name, else system memory", "auto"},
    {OUTPUT_MEMORY_VULKAN, "memory:VulkanBuffer whenever downstream accepts it",
        "vulkan"},
    {OUTPUT_MEMORY_SYSTEM, "System memory", "system"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkProResDecOutputMemory", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

typedef enum
{
  IDCT_X86,
  IDCT_C,
} IdctArith;

#define GST_TYPE_VK_PRORES_DEC_IDCT (idct_get_type ())
static GType
idct_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {IDCT_X86, "FFmpeg's x86 SIMD arithmetic (Debian amd64 ffmpeg)", "x86"},
    {IDCT_C, "FFmpeg's C arithmetic (builds without SIMD, e.g. arm64)", "c"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkProResDecIdct", values);
    g_once_init_leave (&type, t);
  }
  return type;
}


} // namespace

struct _GstVkProResDec
{
  GstVideoDecoder parent;

  /* properties */
  gboolean skip_alpha;
  gint frames_in_flight_prop;   /* properties; AUTO: by liveness */
  gint batch_prop;
  guint frames_in_flight;       /* this stream's (choose_pacing) */
  OutputMemory output_memory;
  IdctArith idct;

  GpcVkContext vk;
  gboolean opening;             /* in NULL -> READY (see post_message) */
  gboolean refuse_caps;         /* no usable device, in an old decodebin3 (see open) */
  gpc::ProResScheduler *sched;  /* from start to stop */
  gpc::ProResDownloads *downloads;
  gpc::ParallelCopy *copier;

  GstVideoCodecState *input_state;
  guint32 variant_depth;
  gpc::ProResOutConfig config;
  gboolean have_config;
  gboolean vulkan_output;
  /* System memory: downstream reads GstVideoMeta (our downloads go out in
   * their own layout), or gave a pool of its own kind of memory (frames go
   * into its buffers). */
  gboolean downstream_video_meta;
  gboolean downstream_pool;
  gboolean warned_alpha;
  guint batch;                  /* this stream's frames per submission */
  GstBufferPool *vk_pool;
  guint64 frames_bad_slices;
  guint64 frames_skipped;       /* undecodable, since start or the last flush */
  guint64 frames_decoded;       /* finished, likewise */
};

#define gst_vk_prores_dec_parent_class parent_class
G_DEFINE_TYPE (GstVkProResDec, gst_vk_prores_dec, GST_TYPE_VIDEO_DECODER);

static void
init_debug (void)
{
  GST_DEBUG_CATEGORY_INIT (gst_vk_prores_dec_debug, "vkproresdec", 0,
      "ProRes decoder on Vulkan");
}

/* Autoplugged above avdec_prores only on a GPU that runs the kernels
 * (vkproresprobe.h); GST_PLUGIN_FEATURE_RANK=vkproresdec:MAX forces it. */
static gboolean
register_vkproresdec (GstPlugin * plugin)
{
  init_debug ();
  gpc::prores_add_probe_dependencies (plugin);
  /* A plugin loaded for use after a registry scan keeps the rank the scan
   * found: probing again would only open another Vulkan instance. */
  GstPluginFeature *known = gst_registry_lookup_feature (gst_registry_get (), "vkproresdec");
  GstRank rank;
  if (known) {
    rank = (GstRank) gst_plugin_feature_get_rank (known);
    gst_object_unref (known);
  } else {
    std::string why;
    rank = gpc::prores_probe_rank (&why);
    GST_INFO ("rank %d: %s", (int) rank, why.c_str ());
  }
  return gst_element_register (plugin, "vkproresdec", rank, GST_TYPE_VK_PRORES_DEC);
}

GST_ELEMENT_REGISTER_DEFINE_CUSTOM (vkproresdec, register_vkproresdec);

#define OUT_FORMATS "{ I422_10LE, Y444_10LE, I422_12LE, Y444_12LE, A422_10LE, A444_10LE, AYUV64 }"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-prores"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_VIDEO_CAPS_MAKE_WITH_FEATURES
        (GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, OUT_FORMATS) "; "
        GST_VIDEO_CAPS_MAKE (OUT_FORMATS)));


/* ------------------------------------------------------------ completion */

static void
set_field_flags (GstVkProResDec * self, GstBuffer * out)
{
  if (self->config.interlace) {
    GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_INTERLACED);
    if (self->config.interlace == 1)
      GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_TFF);
  }
}

/* Frames the scheduler gives back undecoded (a failed submission) are
 * dropped. */
static gpc::ProResScheduler::DropFn
dropper (GstVkProResDec * self)
{
  return [self] (void *frame) {
    gst_video_decoder_drop_frame (GST_VIDEO_DECODER (self), (GstVideoCodecFrame *) frame);
  };
}

/* A frame that cannot be decoded at all: counted against max-errors (the
 * base class's budget, unlimited by default, as for avdec_prores), dropped
 * with the base class's QoS message, and told to the application once a
 * stream as a warning; the stream goes on. A stream of which no frame
 * decodes ends in an error (see finish). */
static GstFlowReturn
skip_undecodable (GstVkProResDec * self, GstVideoCodecFrame * frame, const gchar * why)
{
  GstFlowReturn ret = GST_FLOW_OK;
  self->frames_skipped++;
  GST_VIDEO_DECODER_ERROR (self, 1, STREAM, DECODE, ("Could not decode a ProRes frame"),
      ("frame %u: %s", frame->system_frame_number, why), ret);
  if (ret == GST_FLOW_OK && self->frames_skipped == 1)
    GST_ELEMENT_WARNING (self, STREAM, DECODE, ("Undecodable ProRes frames are skipped"),
        ("frame %u: %s", frame->system_frame_number, why));
  gst_video_decoder_drop_frame (GST_VIDEO_DECODER (self), frame);
  return ret;
}

/* Waits for the oldest frame and finishes (or skips) it. */
static GstFlowReturn
complete_oldest (GstVkProResDec * self)
{
  GstVideoDecoder *dec = GST_VIDEO_DECODER (self);
  gpc::ProResScheduler::Done f;
  GError *error = NULL;
  if (!self->sched->complete_oldest (&f, dropper (self), &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("The Vulkan device failed while decoding"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  GstVideoCodecFrame *frame = (GstVideoCodecFrame *) f.frame;
  if (f.failed >= f.slices) {
    gst_clear_buffer (&f.download);
    gchar *why = g_strdup_printf ("none of its %u slices decoded (first error: status %u)",
        f.slices, f.code);
    GstFlowReturn ret = skip_undecodable (self, frame, why);
    g_free (why);
    return ret;
  }
  if (f.failed) {
    /* As FFmpeg: the frame goes out, its bad slices as they came out;
     * flagged corrupted (dropped with discard-corrupted-frames=true). */
    GST_VIDEO_CODEC_FRAME_FLAG_SET (frame, GST_VIDEO_CODEC_FRAME_FLAG_CORRUPTED);
    self->frames_bad_slices++;
    GST_WARNING_OBJECT (self, "frame %u: %u of %u slices failed (first: slice %u,"
        " status %u)", frame->system_frame_number, f.failed, f.slices, f.first_failed, f.code);
    /* Tell the application once; the log has every frame. */
    if (self->frames_bad_slices == 1)
      GST_ELEMENT_WARNING (self, STREAM, DECODE, ("Damaged ProRes frames"),
          ("frame %u: %u of its %u slices could not be decoded (first: slice %u, "
              "status %u); such frames are output with those slices undefined",
              frame->system_frame_number, f.failed, f.slices, f.first_failed, f.code));
  }
  if (f.download) {
    /* System memory: the download lent as it is, or copied into a buffer
     * of the negotiated pool. */
    GstFlowReturn ret = GST_FLOW_OK;
    GstVideoCodecState *state = gst_video_decoder_get_output_state (dec);
    GstBuffer *lent = state && !self->downstream_pool ? self->downloads->lend (f.download,
        self->config, &state->info, self->downstream_video_meta) : NULL;
    if (lent) {
      GST_LOG_OBJECT (self, "download lent as the output buffer");
      gst_buffer_replace (&frame->output_buffer, NULL);
      frame->output_buffer = lent;
    } else {
      ret = gst_video_decoder_allocate_output_frame (dec, frame);
      if (ret == GST_FLOW_OK && !(state && gpc::ProResDownloads::copy (f.download, self->config,
                  &state->info, frame->output_buffer, self->copier))) {
        GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not read back a frame"), (NULL));
        ret = GST_FLOW_ERROR;
      }
    }
    if (state)
      gst_video_codec_state_unref (state);
    gst_buffer_unref (f.download);
    if (ret != GST_FLOW_OK) {
      gst_video_decoder_drop_frame (dec, frame);
      return ret;
    }
    set_field_flags (self, frame->output_buffer);
  }
  self->frames_decoded++;
  return gst_video_decoder_finish_frame (dec, frame);
}

/* Finishes every pending frame, in order. */
static GstFlowReturn
drain_pending (GstVkProResDec * self)
{
  GstFlowReturn ret = GST_FLOW_OK;
  while (self->sched && !self->sched->empty ()) {
    GstFlowReturn r = complete_oldest (self);
    if (ret == GST_FLOW_OK)
      ret = r;
  }
  return ret;
}

/* Drops pending frames (flush, stop): waits for the GPU, outputs nothing;
 * the base class drops its own references to the frames. */
static void
discard_pending (GstVkProResDec * self)
{
  self->sched->discard ([] (void *frame) {
        gst_video_codec_frame_unref ((GstVideoCodecFrame *) frame);
      });
}

/* ----------------------------------------------------------- negotiation */

static gboolean
peer_wants_vulkan (GstVkProResDec * self, GstCaps * vkcaps)
{
  if (self->output_memory == OUTPUT_MEMORY_SYSTEM)
    return FALSE;
  GstCaps *peer = gst_pad_peer_query_caps (GST_VIDEO_DECODER_SRC_PAD (self), NULL);
  gboolean want = FALSE;
  if (!peer)
    return FALSE;
  if (self->output_memory == OUTPUT_MEMORY_VULKAN) {
    want = gst_caps_can_intersect (peer, vkcaps);
  } else if (!gst_caps_is_any (peer)) {
    /* auto: only when downstream names the feature (not through ANY). */
    for (guint i = 0; i < gst_caps_get_size (peer) && !want; i++) {
      GstCapsFeatures *f = gst_caps_get_features (peer, i);
      if (f && !gst_caps_features_is_any (f)
          && gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER)) {
        GstCaps *one = gst_caps_copy_nth (peer, i);
        want = gst_caps_can_intersect (one, vkcaps);
        gst_caps_unref (one);
      }
    }
  }
  gst_caps_unref (peer);
  return want;
}

/* What the caps do not say, from the frame header (gst/prores's probe:
 * frame rate, colour description). */
static void
apply_probe (GstVideoInfo * info, const gpc::prores::ProbeInfo & p)
{
  if (GST_VIDEO_INFO_FPS_N (info) == 0 && p.fps_n) {
    GST_VIDEO_INFO_FPS_N (info) = (gint) p.fps_n;
    GST_VIDEO_INFO_FPS_D (info) = (gint) p.fps_d;
  }
  /* 0 and 2 mean "unspecified": keep GStreamer's default for the size. */
  if (p.matrix_coefficients && p.matrix_coefficients != 2)
    info->colorimetry.matrix = gst_video_color_matrix_from_iso (p.matrix_coefficients);
  if (p.color_primaries && p.color_primaries != 2)
    info->colorimetry.primaries = gst_video_color_primaries_from_iso (p.color_primaries);
  if (p.transfer_characteristic && p.transfer_characteristic != 2)
    info->colorimetry.transfer = gst_video_transfer_function_from_iso (p.transfer_characteristic);
  /* ProRes codes limited-range Y'CbCr (RDD 36; an alpha plane is full
   * range, but the colorimetry describes Y'CbCr), as FFmpeg and so
   * avdec_prores report it; a container's explicit range is kept. */
  if (info->colorimetry.range == GST_VIDEO_COLOR_RANGE_UNKNOWN)
    info->colorimetry.range = GST_VIDEO_COLOR_RANGE_16_235;
}

/* Sets the output state for a new configuration and negotiates. */
static gboolean
update_output_state (GstVkProResDec * self, const gpc::ProResOutConfig & c,
    const gpc::prores::ProbeInfo & probe)
{
  GstVideoDecoder *dec = GST_VIDEO_DECODER (self);
  GstVideoCodecState *state = gst_video_decoder_set_output_state (dec, c.format,
      c.width, c.height, self->input_state);
  GstVideoInfo *info = &state->info;
  if (c.interlace) {
    GST_VIDEO_INFO_INTERLACE_MODE (info) = GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
    GST_VIDEO_INFO_FIELD_ORDER (info) = c.interlace == 1 ?
        GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST : GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST;
  }
  apply_probe (info, probe);

  GstCaps *caps = gst_video_info_to_caps (info);
  GstCaps *vkcaps = gst_caps_copy (caps);
  gst_caps_set_features (vkcaps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, NULL));
  self->vulkan_output = peer_wants_vulkan (self, vkcaps);
  if (state->caps)
    gst_caps_unref (state->caps);
  if (self->vulkan_output) {
    state->caps = vkcaps;
    gst_caps_unref (caps);
  } else {
    state->caps = caps;
    gst_caps_unref (vkcaps);
  }
  GST_INFO_OBJECT (self, "output %s %ux%u%s, %s memory",
      gst_video_format_to_string (c.format), c.width, c.height,
      c.interlace ? " interlaced" : "", self->vulkan_output ? "Vulkan" : "system");

  if (GST_VIDEO_INFO_FPS_N (info) > 0) {
    GstClockTime lat = gst_util_uint64_scale_int (GST_SECOND * self->frames_in_flight,
        GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));
    gst_video_decoder_set_latency (dec, lat, lat);
  }
  gst_video_codec_state_unref (state);
  self->config = c;
  self->have_config = TRUE;
  /* The decoder drops the old pool itself (deactivating it here could
   * break a downstream element still using it). */
  gst_clear_object (&self->vk_pool);
  self->downloads->trim ();
  self->sched->trim ();
  return gst_video_decoder_negotiate (dec);
}

/* System memory: the base class takes downstream's pool (or makes one),
 * with VideoMeta where downstream reads it. A pool of a kind of its own
 * (GL, XImage, Vulkan, DMABuf...) gets every frame; a plain system-memory
 * one would only cost a copy, so our finished downloads are lent instead
 * (see complete_oldest). */
static gboolean
decide_system_allocation (GstVkProResDec * self, GstQuery * query)
{
  GstVideoDecoder *dec = GST_VIDEO_DECODER (self);
  self->downstream_pool = FALSE;
  if (!GST_VIDEO_DECODER_CLASS (parent_class)->decide_allocation (dec, query))
    return FALSE;
  self->downstream_video_meta =
      gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  GstBufferPool *pool = NULL;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  if (!pool)
    return TRUE;
  const GType t = G_OBJECT_TYPE (pool);
  self->downstream_pool = t != GST_TYPE_VIDEO_BUFFER_POOL && t != GST_TYPE_BUFFER_POOL;
  if (self->downstream_video_meta
      && gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META)) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config))
      GST_DEBUG_OBJECT (self, "pool %" GST_PTR_FORMAT " refused VideoMeta", pool);
  }
  GST_DEBUG_OBJECT (self, "system memory into %" GST_PTR_FORMAT " (%s), VideoMeta %s", pool,
      self->downstream_pool ? "downstream's kind of memory: frames copied in" :
      "plain memory: downloads lent", self->downstream_video_meta ? "read" : "not read");
  gst_object_unref (pool);
  return TRUE;
}

static gboolean
gst_vk_prores_dec_decide_allocation (GstVideoDecoder * dec, GstQuery * query)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  if (!self->vulkan_output)
    return decide_system_allocation (self, query);

  /* Our own pool: storage buffers, one per plane, padded like the kernel
   * writes them. The layout follows from the size and format only. */
  GstCaps *caps;
  gst_query_parse_allocation (query, &caps, NULL);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return FALSE;
  const gpc::ProResOutConfig & c = self->config;
  gpc::ProResGpuLayout l = gpc::prores_vk_output_layout (c);
  guint total = 0;
  for (guint32 p = 0; p < c.n_planes; p++)
    total += l.size[p];

  GstBufferPool *pool = gpc::prores_vk_pool_new (self->vk.device, &info, l, c.n_planes);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  const guint min = self->frames_in_flight + 2;
  gst_buffer_pool_config_set_params (config, caps, total, min, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return FALSE;
  }
  while (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  gst_query_add_allocation_pool (query, pool, total, min, 0);
  if (self->vk_pool)
    gst_object_unref (self->vk_pool);
  self->vk_pool = pool;
  return TRUE;
}

/* --------------------------------------------------------------- frames */

/* Queues a parsed frame's GPU work and submits the batch once full. On
 * failure the frame is dropped with an error. */
static GstFlowReturn
submit_frame (GstVkProResDec * self, GstVideoCodecFrame * frame,
    const guint8 * data, gsize size, const gpc::prores::Frame & parsed)
{
  GstVideoDecoder *dec = GST_VIDEO_DECODER (self);
  GError *error = NULL;
  /* Vulkan output: the frame's buffer now (our pool has no upper limit).
   * System memory: a download buffer now, the output buffer when the
   * download completes, so that a downstream pool with few buffers cannot
   * block us while we hold frames in flight. */
  GstBuffer *vk_out = NULL, *download = NULL;
  if (self->vulkan_output) {
    GstFlowReturn ret = gst_video_decoder_allocate_output_frame (dec, frame);
    if (ret != GST_FLOW_OK) {
      gst_video_decoder_drop_frame (dec, frame);
      return ret;
    }
    vk_out = frame->output_buffer;
    set_field_flags (self, vk_out);
  } else {
    download = self->downloads->acquire (self->config, &error);
  }
  const gpc::prores::IdctFlavor idct = self->idct == IDCT_C ?
      gpc::prores::IdctFlavor::kC : gpc::prores::IdctFlavor::kX86;
  const bool queued = (vk_out || download) && self->sched->queue (frame, data, size, parsed,
      self->config, idct, vk_out, download, &error);
  gst_clear_buffer (&download);
  if (queued && self->sched->submit (true, dropper (self), &error))
    return GST_FLOW_OK;
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Failed to submit ProRes decoding to the Vulkan device"),
      ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  if (!queued)
    gst_video_decoder_drop_frame (dec, frame);
  return GST_FLOW_ERROR;
}

static GstFlowReturn
gst_vk_prores_dec_handle_frame (GstVideoDecoder * dec, GstVideoCodecFrame * frame)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  GstFlowReturn ret = GST_FLOW_OK;
  GstMapInfo map;

  if (!gst_buffer_map (frame->input_buffer, &map, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not map the input"), (NULL));
    gst_video_decoder_drop_frame (dec, frame);
    return GST_FLOW_ERROR;
  }

  gpc::prores::Frame parsed;
  std::string err;
  gpc::prores::Status s = map.size > MAX_FRAME_BYTES ?
      gpc::prores::Status::kUnsupported :
      gpc::prores::parse_frame (map.data, map.size, &parsed, &err);
  if (s != gpc::prores::Status::kOk) {
    gst_buffer_unmap (frame->input_buffer, &map);
    if (map.size > MAX_FRAME_BYTES)
      err = "frame larger than 256 MiB";
    /* Keep the output in order: finish what precedes this frame first. */
    ret = drain_pending (self);
    const std::string why = std::string (gpc::prores::status_name (s)) + ": " + err;
    GstFlowReturn r = skip_undecodable (self, frame, why.c_str ());
    return ret == GST_FLOW_OK ? r : ret;
  }

  bool dropped = false;
  gpc::ProResOutConfig c = gpc::prores_out_config (parsed.header,
      self->variant_depth, self->skip_alpha, &dropped);
  if (dropped && !self->warned_alpha) {
    self->warned_alpha = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Alpha channel dropped"),
        ("GStreamer 1.22 has no 12-bit video format with alpha"));
  }
  if (!self->have_config || c != self->config
      || gst_pad_check_reconfigure (GST_VIDEO_DECODER_SRC_PAD (dec))) {
    /* Frames decoded for the old format go out with the old caps. */
    ret = drain_pending (self);
    if (ret != GST_FLOW_OK) {
      gst_buffer_unmap (frame->input_buffer, &map);
      gst_video_decoder_drop_frame (dec, frame);
      return ret;
    }
    gpc::prores::ProbeInfo probe = { };
    gpc::prores::probe (map.data, map.size, &probe, NULL);
    if (!update_output_state (self, c, probe)) {
      gst_buffer_unmap (frame->input_buffer, &map);
      gst_video_decoder_drop_frame (dec, frame);
      /* Flushing pads fail negotiation too: not an error then. */
      if (GST_PAD_IS_FLUSHING (GST_VIDEO_DECODER_SRC_PAD (dec)))
        return GST_FLOW_FLUSHING;
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
          ("downstream does not accept %s %ux%u",
              gst_video_format_to_string (c.format), c.width, c.height));
      return GST_FLOW_NOT_NEGOTIATED;
    }
  }

  ret = submit_frame (self, frame, map.data, map.size, parsed);
  gst_buffer_unmap (frame->input_buffer, &map);
  if (ret != GST_FLOW_OK)
    return ret;

  /* Never wait for a frame just submitted unless the window is full
   * (complete_oldest submits a batch still open). */
  while (ret == GST_FLOW_OK && !self->sched->empty () && self->sched->oldest_due ())
    ret = complete_oldest (self);
  return ret;
}

static GstFlowReturn
gst_vk_prores_dec_finish (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  GstFlowReturn ret = drain_pending (self);
  /* At EOS the base class does not report what pushing our last frames
   * returned: a caps downstream refused would go unnoticed. */
  if (ret == GST_FLOW_NOT_NEGOTIATED)
    GST_ELEMENT_FLOW_ERROR (self, ret);
  /* The base class says this only when no frame was finished or dropped,
   * and it counts our undecodable frames, dropped for their QoS message. */
  if (ret == GST_FLOW_OK && self->frames_skipped > 0 && self->frames_decoded == 0)
    GST_ELEMENT_ERROR (self, STREAM, DECODE, ("No valid frames decoded before end of stream"),
        ("none of the %" G_GUINT64_FORMAT " frames could be decoded", self->frames_skipped));
  return ret;
}

static GstFlowReturn
gst_vk_prores_dec_drain (GstVideoDecoder * dec)
{
  return drain_pending (GST_VK_PRORES_DEC (dec));
}

static gboolean
gst_vk_prores_dec_flush (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  if (self->sched)
    discard_pending (self);
  self->frames_skipped = self->frames_decoded = 0;
  return TRUE;
}

/* Frames in flight and batch for this stream: the properties, or where
 * they are AUTO, the policy above for what upstream says about liveness. */
static gboolean
choose_pacing (GstVkProResDec * self)
{
  gboolean live = FALSE;
  GstQuery *q = gst_query_new_latency ();
  if (gst_pad_peer_query (GST_VIDEO_DECODER_SINK_PAD (self), q))
    gst_query_parse_latency (q, &live, NULL, NULL);
  gst_query_unref (q);
  GST_OBJECT_LOCK (self);
  const guint in_flight = self->frames_in_flight_prop != AUTO ?
      (guint) self->frames_in_flight_prop :
      live ? LIVE_FRAMES_IN_FLIGHT : THROUGHPUT_FRAMES_IN_FLIGHT;
  const guint batch = self->batch_prop != AUTO ? (guint) MAX (self->batch_prop, 1) :
      live ? LIVE_BATCH : THROUGHPUT_BATCH;
  GST_OBJECT_UNLOCK (self);
  const gboolean changed = in_flight != self->frames_in_flight || batch != self->batch;
  self->frames_in_flight = in_flight;
  self->batch = batch;
  if (self->sched)
    self->sched->set_pacing (in_flight, batch);
  GST_INFO_OBJECT (self, "upstream %s: %u frames in flight, batches of %u",
      live ? "live" : "not live", in_flight, batch);
  return changed;
}

static gboolean
gst_vk_prores_dec_set_format (GstVideoDecoder * dec, GstVideoCodecState * state)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  GstStructure *s = gst_caps_get_structure (state->caps, 0);
  /* qtdemux says "variant", matroskademux "format" (same names); the
   * latter writes "standard" for FourCCs it does not know (4444 XQ among
   * them): there, let the chroma format decide as for unknown streams. */
  const gchar *variant = gst_structure_get_string (s, "variant");
  guint32 depth = gpc::prores::bit_depth_for_variant (variant);
  if (!variant) {
    const gchar *format = gst_structure_get_string (s, "format");
    if (format && strcmp (format, "standard") != 0)
      depth = gpc::prores::bit_depth_for_variant (format);
  }
  GST_DEBUG_OBJECT (self, "input caps %" GST_PTR_FORMAT, state->caps);
  if (self->refuse_caps) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No usable Vulkan device for ProRes decoding"),
        ("the device was not found or cannot run the decoder when the element was opened"));
    return FALSE;
  }
  if (self->input_state)
    gst_video_codec_state_unref (self->input_state);
  self->input_state = gst_video_codec_state_ref (state);
  /* Pending frames keep their batch; a new window (and so a new latency,
   * set with the output state) from the next frame on. */
  if (choose_pacing (self))
    self->have_config = FALSE;
  if (depth != self->variant_depth) {
    /* The output format follows from the first frame under these caps. */
    self->variant_depth = depth;
    self->have_config = FALSE;
  }
  /* The caps carry no frame header: the format is known (and negotiated)
   * when the first frame is parsed, which is then decoded right away. */
  return TRUE;
}

/* -------------------------------------------------------------- queries */

static gboolean
gst_vk_prores_dec_src_query (GstVideoDecoder * dec, GstQuery * query)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gpc_vk_context_handle_query (GST_ELEMENT (self), &self->vk, query))
    return TRUE;
  return GST_VIDEO_DECODER_CLASS (parent_class)->src_query (dec, query);
}

static gboolean
gst_vk_prores_dec_sink_query (GstVideoDecoder * dec, GstQuery * query)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gpc_vk_context_handle_query (GST_ELEMENT (self), &self->vk, query))
    return TRUE;
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS && self->refuse_caps) {
    gst_query_set_accept_caps_result (query, FALSE);
    return TRUE;
  }
  return GST_VIDEO_DECODER_CLASS (parent_class)->sink_query (dec, query);
}

/* ------------------------------------------------------------ lifecycle */

static gboolean tried_by_old_decodebin3 (GstElement * element);

/* The device is found at NULL -> READY: decodebin and decodebin3 try the
 * next decoder (avdec_prores) when an element fails there, so a device
 * that went away, or one that cannot run the kernels, falls back cleanly.
 *
 * A decodebin3 older than 1.24 adds a candidate to itself before it tries
 * READY: an application's state change that walks the bin in that moment
 * fails with the candidate. There the element opens without a device and
 * refuses the caps instead (accept-caps), which makes decodebin3 take the
 * next decoder just the same. */
static gboolean
gst_vk_prores_dec_open (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  gboolean ok = gpc_vk_context_ensure (GST_ELEMENT (self), &self->vk);
  if (ok) {
    const GstVulkanPhysicalDevice *pd = self->vk.device->physical_device;
    std::string why;
    ok = gpc::prores_device_can_decode (pd->properties, pd->queue_family_props,
        pd->n_queue_families, &why);
    if (!ok)
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
          ("The Vulkan device cannot run the ProRes decoder"), ("%s: %s",
              pd->properties.deviceName, why.c_str ()));
  }
  self->refuse_caps = !ok && tried_by_old_decodebin3 (GST_ELEMENT (self));
  if (self->refuse_caps)
    GST_INFO_OBJECT (self, "no usable device: refusing caps, for decodebin3 to try another decoder");
  return ok || self->refuse_caps;
}

/* Whether the element is being tried by a decodebin3 older than 1.24,
 * which passes the errors of a candidate decoder on to the application
 * (stopping the pipeline) even when it then replaces the decoder. */
static gboolean
tried_by_old_decodebin3 (GstElement * element)
{
  guint major, minor, micro, nano;
  gst_version (&major, &minor, &micro, &nano);
  if (major > 1 || minor >= 24)
    return FALSE;
  GstObject *parent = gst_object_get_parent (GST_OBJECT (element));
  GstElementFactory *f = parent && GST_IS_ELEMENT (parent) ?
      gst_element_get_factory (GST_ELEMENT (parent)) : NULL;
  const gboolean old = f && !g_strcmp0 (GST_OBJECT_NAME (f), "decodebin3");
  gst_clear_object (&parent);
  return old;
}

/* What fails in NULL -> READY (open() and the base class's report of it)
 * is told to such a decodebin3 as a warning, so that avdec_prores can
 * play; decodebin and newer decodebin3 drop the errors of a decoder they
 * replace, and applications that use the element directly get them. */
static gboolean
gst_vk_prores_dec_post_message (GstElement * element, GstMessage * message)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (element);
  if (self->opening && GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR
      && tried_by_old_decodebin3 (element)) {
    GError *err = NULL;
    gchar *dbg = NULL;
    gst_message_parse_error (message, &err, &dbg);
    GstMessage *warning = gst_message_new_warning (GST_MESSAGE_SRC (message), err, dbg);
    g_error_free (err);
    g_free (dbg);
    gst_message_unref (message);
    message = warning;
  }
  return GST_ELEMENT_CLASS (parent_class)->post_message (element, message);
}

static gboolean
gst_vk_prores_dec_start (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  GError *error = NULL;

  if (self->refuse_caps)
    return TRUE;                /* see open(): no stream is accepted */
  if (!gpc_vk_context_ensure (GST_ELEMENT (self), &self->vk))
    return FALSE;
  if (!self->copier)
    self->copier = new gpc::ParallelCopy (gpc::ParallelCopy::default_workers ());
  self->sched = gpc::ProResScheduler::create (self->vk.device, self->vk.queue, self->copier,
      &error);
  if (!self->sched) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Failed to set up ProRes decoding on the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    return FALSE;
  }
  self->sched->set_pacing (self->frames_in_flight, self->batch);
  self->downloads = new gpc::ProResDownloads (self->vk.device);
  self->have_config = FALSE;
  self->downstream_video_meta = self->downstream_pool = FALSE;
  self->warned_alpha = FALSE;
  self->frames_bad_slices = 0;
  self->frames_skipped = self->frames_decoded = 0;
  return TRUE;
}

static gboolean
gst_vk_prores_dec_stop (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);

  if (self->sched) {
    discard_pending (self);
    delete self->sched;         /* waits for the GPU */
    self->sched = nullptr;
  }
  if (self->vk_pool) {
    gst_buffer_pool_set_active (self->vk_pool, FALSE);
    gst_clear_object (&self->vk_pool);
  }
  delete self->downloads;
  self->downloads = nullptr;
  if (self->input_state)
    gst_video_codec_state_unref (self->input_state);
  self->input_state = NULL;
  self->have_config = FALSE;
  self->variant_depth = 0;
  return TRUE;
}

static void
gst_vk_prores_dec_set_context (GstElement * element, GstContext * context)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (element);
  gpc_vk_context_set_context (element, &self->vk, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static GstStateChangeReturn
gst_vk_prores_dec_change_state (GstElement * element, GstStateChange transition)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (element);
  self->opening = transition == GST_STATE_CHANGE_NULL_TO_READY;
  GstStateChangeReturn ret =
      GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  self->opening = FALSE;
  if (transition == GST_STATE_CHANGE_READY_TO_NULL) {
    gpc_vk_context_clear (&self->vk);
    self->refuse_caps = FALSE;
  }
  return ret;
}

static void
gst_vk_prores_dec_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      self->vk.device_index = g_value_get_int (value);
      break;
    case PROP_SKIP_ALPHA:
      self->skip_alpha = g_value_get_boolean (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->frames_in_flight_prop = g_value_get_int (value);
      break;
    case PROP_OUTPUT_MEMORY:
      self->output_memory = (OutputMemory) g_value_get_enum (value);
      break;
    case PROP_IDCT:
      self->idct = (IdctArith) g_value_get_enum (value);
      break;
    case PROP_BATCH:
      self->batch_prop = g_value_get_int (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_prores_dec_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, self->vk.device_index);
      break;
    case PROP_SKIP_ALPHA:
      g_value_set_boolean (value, self->skip_alpha);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      g_value_set_int (value, self->frames_in_flight_prop);
      break;
    case PROP_OUTPUT_MEMORY:
      g_value_set_enum (value, self->output_memory);
      break;
    case PROP_IDCT:
      g_value_set_enum (value, self->idct);
      break;
    case PROP_BATCH:
      g_value_set_int (value, self->batch_prop);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_prores_dec_finalize (GObject * object)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (object);
  delete self->copier;
  gpc_vk_context_clear (&self->vk);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_vk_prores_dec_init (GstVkProResDec * self)
{
  gpc_vk_context_init (&self->vk);
  self->frames_in_flight_prop = AUTO;
  self->frames_in_flight = THROUGHPUT_FRAMES_IN_FLIGHT;
  self->output_memory = OUTPUT_MEMORY_AUTO;
  self->idct = IDCT_X86;
  self->batch_prop = AUTO;
  self->batch = THROUGHPUT_BATCH;
  new (&self->config) gpc::ProResOutConfig ();
  gst_video_decoder_set_packetized (GST_VIDEO_DECODER (self), TRUE);
  gst_video_decoder_set_needs_format (GST_VIDEO_DECODER (self), TRUE);
}

static void
gst_vk_prores_dec_class_init (GstVkProResDecClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoDecoderClass *dec_class = GST_VIDEO_DECODER_CLASS (klass);
  const GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);

  init_debug ();

  gobject_class->set_property = gst_vk_prores_dec_set_property;
  gobject_class->get_property = gst_vk_prores_dec_get_property;
  gobject_class->finalize = gst_vk_prores_dec_finalize;

  gpc_vk_context_install_properties (gobject_class, PROP_DEVICE_INDEX);
  g_object_class_install_property (gobject_class, PROP_SKIP_ALPHA,
      g_param_spec_boolean ("skip-alpha", "Skip alpha",
          "Do not decode the alpha channel (output without alpha)", FALSE, rw));
  g_object_class_install_property (gobject_class, PROP_FRAMES_IN_FLIGHT,
      g_param_spec_int ("frames-in-flight", "Frames in flight",
          "Frames the GPU may decode while later ones arrive; each adds one "
          "frame of reported latency (0: wait for every frame; -1: 32 when "
          "upstream is not live, 2 when it is)", AUTO, MAX_FRAMES_IN_FLIGHT, AUTO, rw));
  g_object_class_install_property (gobject_class, PROP_OUTPUT_MEMORY,
      g_param_spec_enum ("output-memory", "Output memory",
          "Where decoded frames go", GST_TYPE_VK_PRORES_DEC_OUTPUT_MEMORY,
          OUTPUT_MEMORY_AUTO, rw));
  g_object_class_install_property (gobject_class, PROP_IDCT,
      g_param_spec_enum ("idct", "IDCT arithmetic",
          "Which of FFmpeg's 10-bit IDCT arithmetics to reproduce (they differ "
          "only on crafted streams)", GST_TYPE_VK_PRORES_DEC_IDCT, IDCT_X86, rw));
  g_object_class_install_property (gobject_class, PROP_BATCH,
      g_param_spec_int ("batch", "Batch",
          "Frames recorded and submitted together: their decoding overlaps on "
          "the GPU even where the driver drains the queue at every barrier; a "
          "batch goes out when full or when its oldest frame is due (at most "
          "frames-in-flight + 1 frames; -1: 16 when upstream is not live, 1 "
          "when it is)", AUTO, MAX_FRAMES_IN_FLIGHT, AUTO, rw));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Vulkan ProRes decoder", "Codec/Decoder/Video/Hardware",
      "Decodes Apple ProRes on a Vulkan device (compute shaders), bit-exact "
      "with FFmpeg's software decoder", "gst-gpucodecs developers");

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_set_context);
  element_class->post_message = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_post_message);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_vk_prores_dec_change_state);

  dec_class->open = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_open);
  dec_class->start = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_start);
  dec_class->stop = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_stop);
  dec_class->set_format = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_set_format);
  dec_class->handle_frame = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_handle_frame);
  dec_class->finish = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_finish);
  dec_class->drain = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_drain);
  dec_class->flush = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_flush);
  dec_class->decide_allocation =
      GST_DEBUG_FUNCPTR (gst_vk_prores_dec_decide_allocation);
  dec_class->src_query = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_src_query);
  dec_class->sink_query = GST_DEBUG_FUNCPTR (gst_vk_prores_dec_sink_query);

  gst_type_mark_as_plugin_api (GST_TYPE_VK_PRORES_DEC_OUTPUT_MEMORY,
      (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (GST_TYPE_VK_PRORES_DEC_IDCT, (GstPluginAPIFlags) 0);
}
