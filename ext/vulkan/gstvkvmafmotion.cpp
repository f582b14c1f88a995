/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-vkvmafmotion
 * @title: vkvmafmotion
 *
 * Computes VMAF's integer motion feature (libvmaf's `motion`, formerly
 * `integer_motion_v2`) on a Vulkan device, bit-exact with libvmaf's scalar
 * code. Frames pass through untouched; frames already in GPU memory are never
 * read back: only each frame's 8-byte SAD returns to the CPU.
 *
 * Results reach the application as
 * - a #GstVmafMotionMeta on every outgoing buffer (index, sad, motion),
 * - element messages: `vkvmafmotion` per frame (index, pts, running-time,
 *   sad, motion), `vkvmafmotion-scores` once motion2/motion3 of a frame are
 *   known (one frame later), and `vkvmafmotion-summary` at EOS with the
 *   pooled min / max / mean / harmonic mean of each feature,
 * - optionally a log file in libvmaf's xml / json / csv layout.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=clip.mp4 ! decodebin ! vkvmafmotion results-location=motion.xml ! fakesink
 * gst-launch-1.0 videotestsrc num-buffers=100 ! vulkanupload ! vkvmafmotion ! vulkandownload ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvkvmafmotion.h"

#include "fieldprops.h"
#include "gstvkfilter.h"
#include "gstvmafmotionmeta.h"
#include "vkmotionkernel.h"
#include "vmaf-motion-layout.h"
#include "vkmotionresults.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_vmaf_motion_debug);
#define GST_CAT_DEFAULT gst_vk_vmaf_motion_debug

/* Result slots in the readback buffer: more than frames can be in flight. */
#define N_SLOTS 32

enum
{
  PROP_0,
  PROP_FORCE_ZERO,
  PROP_BLEND_FACTOR,
  PROP_BLEND_OFFSET,
  PROP_FPS_WEIGHT,
  PROP_MAX_VAL,
  PROP_FIVE_FRAME_WINDOW,
  PROP_MOVING_AVERAGE,
  PROP_RESULTS_LOCATION,
  PROP_RESULTS_FORMAT,
  PROP_POST_MESSAGES,
};

namespace {

typedef enum
{
  RESULTS_FORMAT_XML,
  RESULTS_FORMAT_JSON,
  RESULTS_FORMAT_CSV,
} ResultsFormat;

#define GST_TYPE_VK_VMAF_MOTION_RESULTS_FORMAT (results_format_get_type ())
static GType
results_format_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {RESULTS_FORMAT_XML, "libvmaf XML log", "xml"},
    {RESULTS_FORMAT_JSON, "libvmaf JSON log", "json"},
    {RESULTS_FORMAT_CSV, "libvmaf CSV log", "csv"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkVmafMotionResultsFormat", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* A frame submitted to the GPU, waiting for its SAD. */

} // namespace

struct _GstVkVmafMotion
{
  GpcVkFilter parent;

  /* properties */
  gpc::MotionOptions opts;
  gchar *results_location;
  ResultsFormat results_format;
  gint post_messages;           /* atomic: mutable while playing */

  gpc::VkMotionKernel *kernel;
  GstMemory *results;           /* N_SLOTS x (lo, hi) */
  gpc::LumaLayout layout;

  gpc::MotionResults *res;
  gpc::StoragePlane history[2]; /* previous frame, the one before */
  guint64 submitted;            /* frames submitted since the history began */
};

#define gst_vk_vmaf_motion_parent_class parent_class
G_DEFINE_TYPE (GstVkVmafMotion, gst_vk_vmaf_motion, GPC_TYPE_VK_FILTER);
GST_ELEMENT_REGISTER_DEFINE (vkvmafmotion, "vkvmafmotion", GST_RANK_NONE,
    GST_TYPE_VK_VMAF_MOTION);

/* Ends the current motion history: every frame's motion2/motion3 is final. */
static void
finish_history (GstVkVmafMotion * self)
{
  self->res->finish_history (g_atomic_int_get (&self->post_messages));
  for (gpc::StoragePlane & r : self->history)
    r.clear ();
  self->submitted = 0;
}

/* ----------------------------------------------------------- GPU frames */

/* Reads the SAD of a finished frame from its result slot. */
static guint64
read_sad (GstVkVmafMotion * self, guint32 slot)
{
  GstMapInfo map;
  guint64 sad = 0;
  if (gst_memory_map (self->results, &map, GST_MAP_READ)) {
    const guint32 *r = (const guint32 *) map.data;
    sad = ((guint64) r[2 * slot + 1] << 32) | r[2 * slot];
    gst_memory_unmap (self->results, &map);
  }
  return sad;
}

/* The frame, passed through, with its results: meta, messages, log. */
static GstBuffer *
gst_vk_vmaf_motion_finish (GpcVkFilter * filter, const gpc::PendingFrame * f, GstBuffer * buf)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (filter);
  const gboolean has_sad = f->aux >= 0;
  guint64 sad = has_sad ? read_sad (self, (guint32) f->aux) : 0;
  GstSegment *seg = &GST_BASE_TRANSFORM (self)->segment;
  GstClockTime rt = gst_segment_to_running_time (seg, GST_FORMAT_TIME, GST_BUFFER_PTS (buf));
  guint64 index;
  double motion = self->res->add_frame (buf, rt, sad, has_sad,
      GST_VIDEO_INFO_WIDTH (&filter->in_info), GST_VIDEO_INFO_HEIGHT (&filter->in_info),
      g_atomic_int_get (&self->post_messages), &index);
  GstBuffer *out = gst_buffer_make_writable (buf);
  gst_buffer_add_vmaf_motion_meta (out, index, sad, has_sad, motion);
  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT " sad %" G_GUINT64_FORMAT
      " motion %f", index, sad, motion);
  return out;
}

/* The SAD kernel against the frame 1 (or 2) before where the scorer needs
 * it; this frame's luma joins the history. */
static gboolean
gst_vk_vmaf_motion_record (GpcVkFilter * filter, GstBuffer * buf, gpc::StoragePlane * planes,
    gpc::PendingFrame * f, const char **stage, GError ** error)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (filter);
  const guint64 n = self->submitted;
  const guint32 slot = (guint32) (n % N_SLOTS);
  const gpc::MotionOptions & o = self->res->options ();
  const gboolean need_sad = !o.force_zero && n >= o.min_index ();
  gpc::StoragePlane cur = planes[0];
  planes[0].holder = NULL;

  if (need_sad) {
    const gpc::StoragePlane & prev = self->history[o.five_frame_window ? 1 : 0];
    gpc::MotionPlane p = { prev.mem, prev.offset, prev.stride };
    gpc::MotionPlane c = { cur.mem, cur.offset, cur.stride };
    *stage = "dispatch";
    if (!self->kernel->record (filter->exec, p, c, (GstVulkanBufferMemory *) self->results,
            slot, GST_VIDEO_INFO_WIDTH (&filter->in_info),
            GST_VIDEO_INFO_HEIGHT (&filter->in_info), self->layout, error)) {
      cur.clear ();
      return FALSE;
    }
    filter->exec->keep (GST_MINI_OBJECT_CAST (prev.holder));
  }
  self->history[1].clear ();
  self->history[1] = self->history[0];
  self->history[0] = cur;
  self->submitted++;
  f->out = gst_buffer_ref (buf);
  f->aux = need_sad ? (gint64) slot : -1;
  return TRUE;
}

static void
gst_vk_vmaf_motion_drained (GpcVkFilter * filter, GstEvent * event)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (filter);
  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      finish_history (self);
      break;
    case GST_EVENT_EOS:
      finish_history (self);
      self->res->post_summary ();
      self->res->close_log ();
      break;
    default:
      break;
  }
}

static gboolean
gst_vk_vmaf_motion_set_info (GpcVkFilter * filter, const GstVideoInfo * info,
    const GstVideoInfo * out_info)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (filter);
  gpc::LumaLayout layout;

  if (!gpc::luma_layout_for_format (GST_VIDEO_INFO_FORMAT (info), &layout)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported format %s", GST_VIDEO_INFO_NAME (info)));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (info) < 3 || GST_VIDEO_INFO_HEIGHT (info) < 3) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Frames must be at least 3x3 for the motion filter"), (NULL));
    return FALSE;
  }
  /* A new format or size starts a new motion history. */
  const GstVideoInfo *old = &filter->in_info;
  if (filter->have_info && (GST_VIDEO_INFO_FORMAT (info) != GST_VIDEO_INFO_FORMAT (old)
          || GST_VIDEO_INFO_WIDTH (info) != GST_VIDEO_INFO_WIDTH (old)
          || GST_VIDEO_INFO_HEIGHT (info) != GST_VIDEO_INFO_HEIGHT (old))) {
    GST_INFO_OBJECT (self, "format changed: restarting the motion history");
    finish_history (self);
  }
  self->layout = layout;
  /* The kernel reads luma only. */
  filter->n_planes = 1;
  filter->planes[0] = gpc::luma_plane_spec (layout, info);

  return self->res->open_log (GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
}

static gboolean
gst_vk_vmaf_motion_open (GpcVkFilter * filter, GError ** error)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (filter);
  self->kernel = gpc::VkMotionKernel::create (filter->vk.device, error);
  if (self->kernel)
    self->results = gpc::vk_storage_alloc (filter->vk.device, N_SLOTS * 8, true, error);
  if (!self->results)
    return FALSE;
  /* The results file of this run: streaming reads this copy. */
  GST_OBJECT_LOCK (self);
  self->res = new gpc::MotionResults (GST_ELEMENT (self), self->opts, self->results_location,
      (gpc::MotionLogFormat) self->results_format);
  GST_OBJECT_UNLOCK (self);
  self->submitted = 0;
  return TRUE;
}

static void
gst_vk_vmaf_motion_close (GpcVkFilter * filter)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (filter);
  for (gpc::StoragePlane & r : self->history)
    r.clear ();
  delete self->res;
  self->res = nullptr;
  if (self->results)
    gst_memory_unref (self->results);
  self->results = nullptr;
  delete self->kernel;
  self->kernel = nullptr;
}

/* ---------------------------------------------------------- GObject */

static void
gst_vk_vmaf_motion_init (GstVkVmafMotion * self)
{
  new (&self->opts) gpc::MotionOptions ();
  gpc_field_props_reset (G_OBJECT (self));
  new (&self->history[0]) gpc::StoragePlane ();
  new (&self->history[1]) gpc::StoragePlane ();
  /* Frames pass through; a gap would change the scores, so none is
   * dropped for QoS (QoS events still go upstream). */
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), FALSE);
}

static void
gst_vk_vmaf_motion_class_init (GstVkVmafMotionClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  GpcVkFilterClass *filter_class = GPC_VK_FILTER_CLASS (klass);
  const GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);

  GST_DEBUG_CATEGORY_INIT (gst_vk_vmaf_motion_debug, "vkvmafmotion", 0,
      "VMAF integer motion on Vulkan");

  GPC_FIELD_PROP (gobject_class, PROP_FORCE_ZERO, GstVkVmafMotion, opts.force_zero,
      g_param_spec_boolean ("force-zero", "Force zero",
          "Force every motion score to zero (libvmaf motion_force_zero)",
          FALSE, rw));
  GPC_FIELD_PROP (gobject_class, PROP_BLEND_FACTOR, GstVkVmafMotion, opts.blend_factor,
      g_param_spec_double ("blend-factor", "Blend factor",
          "Blend motion3 with its value capped at blend-offset "
          "(libvmaf motion_blend_factor)", 0.0, 1.0, 1.0, rw));
  GPC_FIELD_PROP (gobject_class, PROP_BLEND_OFFSET, GstVkVmafMotion, opts.blend_offset,
      g_param_spec_double ("blend-offset", "Blend offset",
          "Cap used by the motion3 blend (libvmaf motion_blend_offset)",
          0.0, 1000.0, 40.0, rw));
  GPC_FIELD_PROP (gobject_class, PROP_FPS_WEIGHT, GstVkVmafMotion, opts.fps_weight,
      g_param_spec_double ("fps-weight", "FPS weight",
          "Multiplicative frame-rate correction of every score "
          "(libvmaf motion_fps_weight)", 0.0, 5.0, 1.0, rw));
  GPC_FIELD_PROP (gobject_class, PROP_MAX_VAL, GstVkVmafMotion, opts.max_val,
      g_param_spec_double ("max-val", "Maximum value",
          "Scores above this value are clipped to it (libvmaf motion_max_val)",
          0.0, 10000.0, 10000.0, rw));
  GPC_FIELD_PROP (gobject_class, PROP_FIVE_FRAME_WINDOW, GstVkVmafMotion,
      opts.five_frame_window,
      g_param_spec_boolean ("five-frame-window", "Five-frame window",
          "Compare each frame with the one two frames before, and take "
          "motion2 over frames i-1 and i+1 (libvmaf motion_five_frame_window)",
          FALSE, rw));
  GPC_FIELD_PROP (gobject_class, PROP_MOVING_AVERAGE, GstVkVmafMotion, opts.moving_average,
      g_param_spec_boolean ("moving-average", "Moving average",
          "motion3 is the mean of this and the previous frame's blended "
          "score (libvmaf motion_moving_average)", FALSE, rw));
  GPC_FIELD_PROP (gobject_class, PROP_RESULTS_LOCATION, GstVkVmafMotion, results_location,
      g_param_spec_string ("results-location", "Results location",
          "File to write every frame's scores and the pooled metrics to, "
          "laid out like libvmaf's logs (NULL: no file)", NULL, rw));
  GPC_FIELD_PROP (gobject_class, PROP_RESULTS_FORMAT, GstVkVmafMotion, results_format,
      g_param_spec_enum ("results-format", "Results format",
          "Layout of the results file", GST_TYPE_VK_VMAF_MOTION_RESULTS_FORMAT,
          RESULTS_FORMAT_XML, rw));
  GPC_FIELD_PROP (gobject_class, PROP_POST_MESSAGES, GstVkVmafMotion, post_messages,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post per-frame element messages on the bus", TRUE,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));

  GstCaps *caps = gpc::luma_template_caps ("width = (int) [ 3, 65536 ], "
      "height = (int) [ 3, 65535 ]");
  gpc_vk_filter_class_add_pad_templates (filter_class, caps, caps);

  gst_element_class_set_static_metadata (element_class,
      "Vulkan VMAF motion", "Filter/Analyzer/Video/Hardware",
      "Computes VMAF's integer motion feature (libvmaf 'motion') on a Vulkan "
      "device, bit-exact with libvmaf",
      "gst-gpucodecs developers");

  filter_class->kernel = "the motion kernel";
  filter_class->doing = "computing motion";
  filter_class->unit = "frame";
  filter_class->analysis = TRUE;
  filter_class->open = gst_vk_vmaf_motion_open;
  filter_class->close = gst_vk_vmaf_motion_close;
  filter_class->set_info = gst_vk_vmaf_motion_set_info;
  filter_class->record = gst_vk_vmaf_motion_record;
  filter_class->finish = gst_vk_vmaf_motion_finish;
  filter_class->drained = gst_vk_vmaf_motion_drained;
  trans_class->passthrough_on_same_caps = TRUE;

  gst_type_mark_as_plugin_api (GST_TYPE_VK_VMAF_MOTION_RESULTS_FORMAT,
      (GstPluginAPIFlags) 0);
}

