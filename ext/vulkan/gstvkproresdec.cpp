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
 * memory: in the buffers of the pool downstream offers (written by the GPU
 * where they are host-visible Vulkan memory of the same device), else the
 * decoder's downloads themselves (vkproresdelivery.h). Formats as FFmpeg decodes the
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

#include <string>

#include "compute/gpcvkcontext.h"
#include "gpc-parallel-copy.h"
#include "prores-frame.h"
#include "vkproresdec-settings.h"
#include "vkproresdelivery.h"
#include "vkproresframes.h"
#include "vkproresoutput.h"
#include "vkproresprobe.h"

GST_DEBUG_CATEGORY (gst_vk_prores_dec_debug);
#define GST_CAT_DEFAULT gst_vk_prores_dec_debug

/* Bit positions in the kernel are 32-bit. */
#define MAX_FRAME_BYTES (256u << 20)

enum { PROP_0, PROP_DEVICE_INDEX, PROP_DEVICE_NAME /* with device-index */, PROP_FIRST_SETTING };

struct _GstVkProResDec
{
  GstVideoDecoder parent;

  gpc::ProResDecSettings settings;      /* properties, under the object lock */

  GpcVkContext vk;
  gboolean opening;             /* in NULL -> READY (see post_message) */
  gboolean refuse_caps;         /* no usable device, in a decodebin3 (see open) */
  gpc::ProResFrames *frames;    /* from start to stop */
  gpc::ProResDelivery *delivery;        /* likewise */
  gpc::ProResPacing pacing;     /* this stream's (choose_pacing) */
  gpc::ParallelCopy *copier;

  GstVideoCodecState *input_state;
  guint32 variant_depth;
  gpc::ProResOutConfig config;
  gboolean have_config;
  gboolean warned_alpha;
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


/* ----------------------------------------------------------- negotiation */

/* Sets the output state for a new configuration and negotiates. */
static gboolean
update_output_state (GstVkProResDec * self, const gpc::ProResOutConfig & c,
    const gpc::prores::ProbeInfo & probe)
{
  GstVideoDecoder *dec = GST_VIDEO_DECODER (self);
  GstVideoCodecState *state = gst_video_decoder_set_output_state (dec, c.format,
      c.width, c.height, self->input_state);
  GstVideoInfo *info = &state->info;
  gpc::prores_output_info (info, c, probe);

  GST_OBJECT_LOCK (self);
  const gpc::ProResOutputMemory mode = self->settings.output_memory;
  GST_OBJECT_UNLOCK (self);
  if (state->caps)
    gst_caps_unref (state->caps);
  state->caps = self->delivery->configure (c, info, GST_VIDEO_DECODER_SRC_PAD (dec), mode,
      gst_video_info_to_caps (info));
  GST_INFO_OBJECT (self, "output %" GST_PTR_FORMAT, state->caps);

  if (GST_VIDEO_INFO_FPS_N (info) > 0) {
    GstClockTime lat = gst_util_uint64_scale_int (GST_SECOND * self->pacing.in_flight,
        GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));
    gst_video_decoder_set_latency (dec, lat, lat);
  }
  gst_video_codec_state_unref (state);
  self->config = c;
  self->have_config = TRUE;
  self->frames->trim ();
  return gst_video_decoder_negotiate (dec);
}

/* memory:VulkanBuffer: our own pool. System memory: the base class
 * takes downstream's pool (or makes one), which gets every frame where
 * downstream offered it (see ProResDelivery). */
static gboolean
gst_vk_prores_dec_decide_allocation (GstVideoDecoder * dec, GstQuery * query)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  if (self->delivery->vulkan ())
    return self->delivery->decide_vulkan (query, self->vk.device, self->pacing.in_flight + 2);
  const bool offered = gst_query_get_n_allocation_pools (query) > 0;
  if (!GST_VIDEO_DECODER_CLASS (parent_class)->decide_allocation (dec, query))
    return FALSE;
  self->delivery->decide_system (GST_OBJECT (self), query, offered);
  return TRUE;
}

/* --------------------------------------------------------------- frames */

/* Parses a frame, renegotiates where its format changes, and queues it. */
static GstFlowReturn
queue_frame (GstVkProResDec * self, GstVideoCodecFrame * frame, const guint8 * data,
    gsize size)
{
  GstVideoDecoder *dec = GST_VIDEO_DECODER (self);
  gpc::prores::Frame parsed;
  std::string err;
  gpc::prores::Status s = size > MAX_FRAME_BYTES ? gpc::prores::Status::kUnsupported :
      gpc::prores::parse_frame (data, size, &parsed, &err);
  if (s != gpc::prores::Status::kOk) {
    if (size > MAX_FRAME_BYTES)
      err = "frame larger than 256 MiB";
    const std::string why = std::string (gpc::prores::status_name (s)) + ": " + err;
    return self->frames->skip (frame, why.c_str ());
  }

  bool dropped = false;
  gpc::ProResOutConfig c = gpc::prores_out_config (parsed.header,
      self->variant_depth, self->settings.skip_alpha, &dropped);
  if (dropped && !self->warned_alpha) {
    self->warned_alpha = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Alpha channel dropped"),
        ("GStreamer 1.22 has no 12-bit video format with alpha"));
  }
  if (!self->have_config || c != self->config
      || gst_pad_check_reconfigure (GST_VIDEO_DECODER_SRC_PAD (dec))) {
    /* Frames decoded for the old format go out with the old caps. */
    GstFlowReturn ret = self->frames->drain ();
    if (ret != GST_FLOW_OK) {
      gst_video_decoder_drop_frame (dec, frame);
      return ret;
    }
    gpc::prores::ProbeInfo probe = { };
    gpc::prores::probe (data, size, &probe, NULL);
    if (!update_output_state (self, c, probe)) {
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
  return self->frames->queue (frame, data, size, parsed, self->config,
      self->settings.idct_flavor ());
}

static GstFlowReturn
gst_vk_prores_dec_handle_frame (GstVideoDecoder * dec, GstVideoCodecFrame * frame)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  GstMapInfo map;
  /* Ours until unmapped: a frame that fails is dropped on the way. */
  GstBuffer *input = gst_buffer_ref (frame->input_buffer);
  if (!gst_buffer_map (input, &map, GST_MAP_READ)) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("Could not map the input"), (NULL));
    gst_video_decoder_drop_frame (dec, frame);
    return GST_FLOW_ERROR;
  }
  GstFlowReturn ret = queue_frame (self, frame, map.data, map.size);
  gst_buffer_unmap (input, &map);
  gst_buffer_unref (input);
  return ret == GST_FLOW_OK ? self->frames->complete_due () : ret;
}

static GstFlowReturn
gst_vk_prores_dec_finish (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  GstFlowReturn ret = self->frames ? self->frames->drain () : GST_FLOW_OK;
  /* At EOS the base class does not report what pushing our last frames
   * returned: a caps downstream refused would go unnoticed. */
  if (ret == GST_FLOW_NOT_NEGOTIATED)
    GST_ELEMENT_FLOW_ERROR (self, ret);
  if (ret == GST_FLOW_OK && self->frames)
    self->frames->errors ().finish (dec);
  return ret;
}

static GstFlowReturn
gst_vk_prores_dec_drain (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  return self->frames ? self->frames->drain () : GST_FLOW_OK;
}

static gboolean
gst_vk_prores_dec_flush (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  if (self->frames) {
    self->frames->discard ();
    self->frames->errors ().reset (false);
  }
  return TRUE;
}

/* Frames in flight and batch for this stream (ProResPacing): the
 * properties, or what upstream's liveness asks for. */
static gboolean
choose_pacing (GstVkProResDec * self)
{
  gboolean live = FALSE;
  GstQuery *q = gst_query_new_latency ();
  if (gst_pad_peer_query (GST_VIDEO_DECODER_SINK_PAD (self), q))
    gst_query_parse_latency (q, &live, NULL, NULL);
  gst_query_unref (q);
  GST_OBJECT_LOCK (self);
  const gpc::ProResPacing p = gpc::ProResPacing::choose (live, self->settings.frames_in_flight,
      self->settings.batch);
  GST_OBJECT_UNLOCK (self);
  const gboolean changed = p != self->pacing;
  self->pacing = p;
  if (self->frames)
    self->frames->set_pacing (p);
  GST_INFO_OBJECT (self, "upstream %s: %u frames in flight, batches of %u",
      live ? "live" : "not live", p.in_flight, p.batch);
  return changed;
}

static gboolean
gst_vk_prores_dec_set_format (GstVideoDecoder * dec, GstVideoCodecState * state)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);
  const guint32 depth = gpc::prores_caps_depth (gst_caps_get_structure (state->caps, 0));
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

/* The device is found at NULL -> READY: decodebin and decodebin3 try the
 * next decoder (avdec_prores) when an element fails there, so a device
 * that went away, or one that cannot run the kernels, falls back cleanly.
 *
 * decodebin3 (1.22 to 1.26 at least) adds a candidate to itself before it
 * tries READY: an application's state change that walks the bin in that
 * moment fails with the candidate. There the element opens without a
 * device and refuses the caps instead (accept-caps), which makes
 * decodebin3 take the next decoder just the same. */
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
  self->refuse_caps = !ok && gpc::prores_tried_by_decodebin3 (GST_ELEMENT (self));
  if (self->refuse_caps)
    GST_INFO_OBJECT (self, "no usable device: refusing caps, for decodebin3 to try another decoder");
  return ok || self->refuse_caps;
}

/* What fails in NULL -> READY (open() and the base class's report of it)
 * is told to a decodebin3 as a warning, so that avdec_prores can play: one
 * older than 1.24 would stop the pipeline with the error of a decoder it
 * replaces, and a newer one passes on the error of a candidate that a
 * racing state change (see open) opened before decodebin3 recorded it.
 * decodebin drops the errors of a decoder it replaces, and applications
 * that use the element directly get them. */
static gboolean
gst_vk_prores_dec_post_message (GstElement * element, GstMessage * message)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (element);
  if (self->opening && GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR
      && gpc::prores_tried_by_decodebin3 (element))
    message = gpc::prores_error_as_warning (message);
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
  self->delivery = new gpc::ProResDelivery (self->vk.device, self->copier);
  self->frames = gpc::ProResFrames::create (dec, self->vk.device, self->vk.queue, self->copier,
      self->delivery, &error);
  if (!self->frames) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Failed to set up ProRes decoding on the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    delete self->delivery;      /* stop() follows only a start that succeeded */
    self->delivery = nullptr;
    return FALSE;
  }
  self->frames->set_pacing (self->pacing);
  self->have_config = FALSE;
  self->warned_alpha = FALSE;
  return TRUE;
}

static gboolean
gst_vk_prores_dec_stop (GstVideoDecoder * dec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (dec);

  delete self->frames;          /* waits for the GPU */
  self->frames = nullptr;
  delete self->delivery;
  self->delivery = nullptr;
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
gst_vk_prores_dec_set_property (GObject * object, guint id, const GValue * value,
    GParamSpec * pspec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (object);
  GST_OBJECT_LOCK (self);
  if (!gpc_vk_context_set_property (&self->vk, id, PROP_DEVICE_INDEX, value)
      && (id < PROP_FIRST_SETTING
      || !gpc::prores_settings_set (&self->settings, id - PROP_FIRST_SETTING, value)))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_prores_dec_get_property (GObject * object, guint id, GValue * value, GParamSpec * pspec)
{
  GstVkProResDec *self = GST_VK_PRORES_DEC (object);
  GST_OBJECT_LOCK (self);
  if (!gpc_vk_context_get_property (&self->vk, id, PROP_DEVICE_INDEX, value)
      && (id < PROP_FIRST_SETTING
      || !gpc::prores_settings_get (&self->settings, id - PROP_FIRST_SETTING, value)))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
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
  new (&self->settings) gpc::ProResDecSettings ();
  new (&self->pacing) gpc::ProResPacing ();
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

  init_debug ();

  gobject_class->set_property = gst_vk_prores_dec_set_property;
  gobject_class->get_property = gst_vk_prores_dec_get_property;
  gobject_class->finalize = gst_vk_prores_dec_finalize;

  gpc_vk_context_install_properties (gobject_class, PROP_DEVICE_INDEX);
  gpc::prores_settings_install (gobject_class, PROP_FIRST_SETTING);

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

  gst_type_mark_as_plugin_api (gpc::prores_output_memory_get_type (), (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (gpc::prores_idct_get_type (), (GstPluginAPIFlags) 0);
}
