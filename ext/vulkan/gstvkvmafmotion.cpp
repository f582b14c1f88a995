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

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>
#include "compute/gpcvk.h"

#include <algorithm>
#include <deque>
#include <string>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkkernel.h"
#include "compute/gpcvkplane.h"
#include "vkmotionkernel.h"
#include "gstvmafmotionmeta.h"
#include "vmaf-motion-layout.h"
#include "vmaf-motion-log.h"
#include "vmaf-motion-scorer.h"
#include "pendingframes.h"
#include "vkfilter.h"
#include "pushpending.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_vmaf_motion_debug);
#define GST_CAT_DEFAULT gst_vk_vmaf_motion_debug

/* Result slots in the readback buffer: more than frames can be in flight. */
#define N_SLOTS 32

enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
  PROP_FORCE_ZERO,
  PROP_BLEND_FACTOR,
  PROP_BLEND_OFFSET,
  PROP_FPS_WEIGHT,
  PROP_MAX_VAL,
  PROP_FIVE_FRAME_WINDOW,
  PROP_MOVING_AVERAGE,
  PROP_RESULTS_LOCATION,
  PROP_RESULTS_FORMAT,
  PROP_FRAMES_IN_FLIGHT,
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
struct PendingFrame
{
  GstBuffer *buffer;
  GstVulkanFence *fence;
  guint32 slot;
  gboolean has_sad;
};

/* Timing of a frame whose motion2/motion3 are not known yet. */
struct FrameTime
{
  guint64 index;
  GstClockTime pts;
  GstClockTime running_time;
};

} // namespace

struct _GstVkVmafMotion
{
  GstBaseTransform parent;

  /* properties */
  gpc::MotionOptions opts;
  gchar *results_location;
  ResultsFormat results_format;
  gint post_messages;           /* atomic: mutable while playing */

  GpcVkContext vk;
  gpc::VkExec *exec;
  gpc::VkMotionKernel *kernel;
  gpc::VkBufferCache *device_cache;
  gpc::VkBufferCache *staging_cache;
  GstMemory *results;           /* N_SLOTS x (lo, hi) */

  GstVideoInfo info;
  gpc::LumaLayout layout;
  gboolean have_info;
  gpc::FilterState *state;      /* what other threads read: FilterState */

  gpc::MotionScorer *scorer;
  gpc::MotionLogWriter *log;
  gchar *log_location;          /* results-location at start: streaming reads this copy */
  ResultsFormat log_format;
  gpc::StoragePlane history[2]; /* previous frame, the one before */
  guint64 submitted;            /* frames submitted since the history began */
  guint64 index_base;           /* global index of the history's frame 0 */
  guint64 frames_total;
  gint64 start_time;
  std::deque<PendingFrame> *pending;
  std::deque<FrameTime> *times;
};

#define gst_vk_vmaf_motion_parent_class parent_class
G_DEFINE_TYPE (GstVkVmafMotion, gst_vk_vmaf_motion, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (vkvmafmotion, "vkvmafmotion", GST_RANK_NONE,
    GST_TYPE_VK_VMAF_MOTION);

static GstCaps *
build_template_caps (void)
{
  std::string list;
  std::string list8;
  for (const std::string & f : gpc::luma_supported_formats ()) {
    gpc::LumaLayout l;
    gpc::luma_layout_for_format (gst_video_format_from_string (f.c_str ()), &l);
    list += (list.empty ()? "" : ", ") + f;
    /* GStreamer 1.22's Vulkan image format table knows 8-bit formats only. */
    if (l.packing == gpc::LUMA_U8)
      list8 += (list8.empty ()? "" : ", ") + f;
  }
  const char *tail = ", width = (int) [ 3, 65536 ], height = (int) [ 3, 65535 ], "
      "framerate = (fraction) [ 0, max ]";
  std::string s =
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER "), format = (string) { "
      + list + " }" + tail + "; "
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "), format = (string) { "
      + list8 + " }" + tail + "; "
      "video/x-raw, format = (string) { " + list + " }" + tail;
  return gst_caps_from_string (s.c_str ());
}

/* ---------------------------------------------------------------- results */

static void
post_frame_message (GstVkVmafMotion * self, GstBuffer * buf, guint64 index,
    guint64 sad, gboolean has_sad, double motion, GstClockTime rt)
{
  if (!g_atomic_int_get (&self->post_messages))
    return;
  GstStructure *s = gst_structure_new ("vkvmafmotion",
      "index", G_TYPE_UINT64, index,
      "pts", G_TYPE_UINT64, GST_BUFFER_PTS (buf),
      "running-time", G_TYPE_UINT64, rt,
      "has-sad", G_TYPE_BOOLEAN, has_sad,
      "sad", G_TYPE_UINT64, sad,
      "motion", G_TYPE_DOUBLE, motion, NULL);
  gst_element_post_message (GST_ELEMENT_CAST (self),
      gst_message_new_element (GST_OBJECT_CAST (self), s));
}

/* Posts and logs frames whose motion2/motion3 became known. */
static void
publish_done (GstVkVmafMotion * self,
    const std::vector < gpc::MotionFrameResult > &done)
{
  for (const gpc::MotionFrameResult & r : done) {
    gpc::MotionFrameResult g = r;
    g.index = self->index_base + r.index;
    FrameTime t = { g.index, GST_CLOCK_TIME_NONE, GST_CLOCK_TIME_NONE };
    while (!self->times->empty () && self->times->front ().index <= g.index) {
      if (self->times->front ().index == g.index)
        t = self->times->front ();
      self->times->pop_front ();
    }
    if (self->log->is_open ())
      self->log->frame (g);
    if (g_atomic_int_get (&self->post_messages)) {
      GstStructure *s = gst_structure_new ("vkvmafmotion-scores",
          "index", G_TYPE_UINT64, g.index,
          "pts", G_TYPE_UINT64, t.pts,
          "running-time", G_TYPE_UINT64, t.running_time,
          "motion", G_TYPE_DOUBLE, g.motion,
          "motion2", G_TYPE_DOUBLE, g.motion2,
          "motion3", G_TYPE_DOUBLE, g.motion3, NULL);
      gst_element_post_message (GST_ELEMENT_CAST (self),
          gst_message_new_element (GST_OBJECT_CAST (self), s));
    }
  }
}

/* Ends the current motion history: every frame's motion2/motion3 is final. */
static void
finish_history (GstVkVmafMotion * self)
{
  std::vector < gpc::MotionFrameResult > done;
  self->scorer->finish (done);
  publish_done (self, done);
  self->index_base += self->scorer->frames_seen ();
  self->scorer->reset (false);
  self->times->clear ();
  for (gpc::StoragePlane & r : self->history)
    r.clear ();
  self->submitted = 0;
}

static void
post_summary (GstVkVmafMotion * self)
{
  static const char *names[3] = { "integer_motion", "integer_motion2",
    "integer_motion3"
  };
  GstStructure *s = gst_structure_new ("vkvmafmotion-summary",
      "frames", G_TYPE_UINT64, self->frames_total, NULL);
  for (int k = 0; k < 3; k++) {
    const gpc::MotionPool & p = self->scorer->pool (k);
    GstStructure *m = gst_structure_new (names[k],
        "min", G_TYPE_DOUBLE, p.min, "max", G_TYPE_DOUBLE, p.max,
        "mean", G_TYPE_DOUBLE, p.mean (),
        "harmonic-mean", G_TYPE_DOUBLE, p.harmonic_mean (), NULL);
    gst_structure_set (s, names[k], GST_TYPE_STRUCTURE, m, NULL);
    gst_structure_free (m);
  }
  gst_element_post_message (GST_ELEMENT_CAST (self),
      gst_message_new_element (GST_OBJECT_CAST (self), s));
}

static gboolean
close_log (GstVkVmafMotion * self)
{
  if (!self->log->is_open ())
    return TRUE;
  double secs = (g_get_monotonic_time () - self->start_time) / 1e6;
  double fps = secs > 0 ? self->frames_total / secs : 0;
  if (!self->log->close (*self->scorer, fps)) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not write the motion results to \"%s\"",
            self->log_location), GST_ERROR_SYSTEM);
    return FALSE;
  }
  return TRUE;
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

/* Waits for the oldest pending frame and returns its buffer, results
 * attached; NULL with an element error posted when the GPU failed. */
static GstBuffer *
complete_oldest (GstVkVmafMotion * self, GstFlowReturn * ret)
{
  PendingFrame f = self->pending->front ();
  self->pending->pop_front ();

  if (!gpc::wait_fence_or_error (GST_ELEMENT (self), *self->exec, f.fence, "computing motion")) {
    gst_vulkan_fence_unref (f.fence);
    gst_buffer_unref (f.buffer);
    *ret = GST_FLOW_ERROR;
    return NULL;
  }
  gst_vulkan_fence_unref (f.fence);

  guint64 sad = f.has_sad ? read_sad (self, f.slot) : 0;
  std::vector < gpc::MotionFrameResult > done;
  guint64 index = self->index_base + self->scorer->frames_seen ();
  double motion = self->scorer->add_frame (sad, GST_VIDEO_INFO_WIDTH (&self->info),
      GST_VIDEO_INFO_HEIGHT (&self->info), done);
  self->frames_total++;

  GstSegment *seg = &GST_BASE_TRANSFORM (self)->segment;
  GstClockTime rt = gst_segment_to_running_time (seg, GST_FORMAT_TIME,
      GST_BUFFER_PTS (f.buffer));
  self->times->push_back ({index, GST_BUFFER_PTS (f.buffer), rt});

  GstBuffer *out = gst_buffer_make_writable (f.buffer);
  gst_buffer_add_vmaf_motion_meta (out, index, sad, f.has_sad, motion);
  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT " sad %" G_GUINT64_FORMAT
      " motion %f", index, sad, motion);
  post_frame_message (self, out, index, sad, f.has_sad, motion, rt);
  publish_done (self, done);
  *ret = GST_FLOW_OK;
  return out;
}

/* Pushes every pending frame downstream, in order. */
static GstFlowReturn
drain (GstVkVmafMotion * self)
{
  return gpc::push_pending (GST_BASE_TRANSFORM_SRC_PAD (self), *self->pending,
      [self] (GstFlowReturn * r) { return complete_oldest (self, r); });
}

/* Drops pending frames (flush): waits for the GPU, pushes nothing. */
static void
discard_pending (GstVkVmafMotion * self)
{
  while (!self->pending->empty ()) {
    PendingFrame f = self->pending->front ();
    self->pending->pop_front ();
    gpc::wait_fence_or_error (GST_ELEMENT (self), *self->exec, f.fence, "computing motion");
    gst_vulkan_fence_unref (f.fence);
    gst_buffer_unref (f.buffer);
  }
}

/* Records the commands that make frame `buf`'s luma plane readable by the
 * kernel (gpcvkplane: in place, copied on the GPU, or uploaded). */
static gboolean
prepare_luma (GstVkVmafMotion * self, GstBuffer * buf, gpc::StoragePlane * out,
    GError ** error)
{
  const guint w = GST_VIDEO_INFO_WIDTH (&self->info);
  const guint h = GST_VIDEO_INFO_HEIGHT (&self->info);
  const gsize row_bytes = gpc::luma_row_bytes (self->layout, w);
  GstMemory *mem;
  gsize offset;
  gint stride;

  if (!gpc::video_plane_location (buf, &self->info, self->layout.plane, &mem,
          &offset, &stride)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the buffer has no luma plane");
    return FALSE;
  }
  if (gst_is_vulkan_image_memory (mem) || gst_is_vulkan_buffer_memory (mem)) {
    /* Images hold plain samples: R8, or R16 for 16-bit little-endian. */
    const guint texel = self->layout.packing == gpc::LUMA_U8 ? 1 :
        self->layout.packing == gpc::LUMA_U16LE ? 2 : 0;
    return gpc::vk_plane_for_compute (self->exec, self->device_cache, buf, mem,
        offset, stride, row_bytes, h, texel, out, error);
  }

  GstVideoFrame frame;
  if (!gst_video_frame_map (&frame, &self->info, buf, GST_MAP_READ)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "could not map the input frame");
    return FALSE;
  }
  gpc::HostPlane hp = {
    (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&frame, self->layout.plane),
    (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&frame, self->layout.plane), row_bytes, h
  };
  gboolean ok = gpc::vk_upload_planes (self->exec, self->staging_cache,
      self->device_cache, &hp, 1, out, error);
  gst_video_frame_unmap (&frame);
  return ok;
}

/* Records and submits one frame: luma preparation and, where the scorer
 * needs it, the SAD kernel against the frame 1 (or 2) before. */
static GstFlowReturn
submit_frame (GstVkVmafMotion * self, GstBuffer * buf)
{
  GError *error = NULL;
  gpc::VkExec * exec = self->exec;
  gpc::StoragePlane cur;
  guint64 n = self->submitted;
  guint32 slot = (guint32) (n % N_SLOTS);
  const gpc::MotionOptions & o = self->scorer->options ();
  gboolean need_sad = !o.force_zero && n >= o.min_index ();
  GstVulkanFence *fence;

  exec->collect ();
  if (!exec->begin (&error))
    goto gpu_error;
  if (!prepare_luma (self, buf, &cur, &error)) {
    /* the recording is dropped with the submission below */
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot read this frame's luma"),
        ("%s", error->message));
    g_clear_error (&error);
    fence = exec->submit (NULL);
    if (fence)
      gst_vulkan_fence_unref (fence);
    gst_buffer_unref (buf);
    return GST_FLOW_ERROR;
  }

  if (need_sad) {
    const gpc::StoragePlane & prev = self->history[o.five_frame_window ? 1 : 0];
    gpc::MotionPlane p = { prev.mem, prev.offset, prev.stride };
    gpc::MotionPlane c = { cur.mem, cur.offset, cur.stride };
    if (!self->kernel->record (exec, p, c, (GstVulkanBufferMemory *) self->results,
            slot, GST_VIDEO_INFO_WIDTH (&self->info),
            GST_VIDEO_INFO_HEIGHT (&self->info), self->layout, &error))
      goto gpu_error_recording;
    exec->keep (GST_MINI_OBJECT_CAST (prev.holder));
  }

  fence = exec->submit (&error);
  if (!fence) {
    cur.clear ();
    goto gpu_error;
  }

  self->history[1].clear ();
  self->history[1] = self->history[0];
  self->history[0] = cur;
  self->submitted++;
  self->pending->push_back ({buf, fence, slot, need_sad});
  return GST_FLOW_OK;

gpu_error_recording:
  cur.clear ();
  fence = exec->submit (NULL);
  if (fence)
    gst_vulkan_fence_unref (fence);
gpu_error:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Failed to submit motion work to the Vulkan device"),
      ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  gst_buffer_unref (buf);
  return GST_FLOW_ERROR;
}

/* ------------------------------------------------------ GstBaseTransform */

static GstFlowReturn
gst_vk_vmaf_motion_submit_input_buffer (GstBaseTransform * trans,
    gboolean is_discont, GstBuffer * input)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (trans);
  if (!self->have_info) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  return submit_frame (self, input);
}

static GstFlowReturn
gst_vk_vmaf_motion_generate_output (GstBaseTransform * trans,
    GstBuffer ** outbuf)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (trans);
  GstFlowReturn ret = GST_FLOW_OK;
  *outbuf = NULL;
  if (self->pending->empty ())
    return GST_FLOW_OK;

  /* Never wait for the frame just submitted unless the window is full:
   * the GPU works on it while the next frame arrives. */
  PendingFrame & oldest = self->pending->front ();
  if (self->pending->size () > self->state->frames_in_flight ()
      || gst_vulkan_fence_is_signaled (oldest.fence))
    *outbuf = complete_oldest (self, &ret);
  return ret;
}

static gboolean
gst_vk_vmaf_motion_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      discard_pending (self);
      finish_history (self);
      break;
    case GST_EVENT_EOS:
      drain (self);
      finish_history (self);
      post_summary (self);
      close_log (self);
      break;
    default:
      /* Serialized events must not overtake the frames we still hold. */
      if (GST_EVENT_IS_SERIALIZED (event))
        drain (self);
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
gst_vk_vmaf_motion_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (trans);
  GstVideoInfo info;
  gpc::LumaLayout layout;

  if (!gst_video_info_from_caps (&info, incaps)
      || !gpc::luma_layout_for_format (GST_VIDEO_INFO_FORMAT (&info), &layout)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported caps %" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (&info) < 3 || GST_VIDEO_INFO_HEIGHT (&info) < 3) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("Frames must be at least 3x3 for the motion filter"), (NULL));
    return FALSE;
  }
  /* A new format or size starts a new motion history. */
  if (self->have_info && (GST_VIDEO_INFO_FORMAT (&info) !=
          GST_VIDEO_INFO_FORMAT (&self->info)
          || GST_VIDEO_INFO_WIDTH (&info) != GST_VIDEO_INFO_WIDTH (&self->info)
          || GST_VIDEO_INFO_HEIGHT (&info) != GST_VIDEO_INFO_HEIGHT (&self->info))) {
    GST_INFO_OBJECT (self, "format changed: restarting the motion history");
    drain (self);
    finish_history (self);
    self->device_cache->trim ();
    self->staging_cache->trim ();
  }
  self->info = info;
  self->layout = layout;
  self->have_info = TRUE;
  self->state->set_caps (&info);

  if (self->log_location && !self->log->is_open ()) {
    gpc::MotionLogFormat fmt = (gpc::MotionLogFormat) self->log_format;
    if (!self->log->open (self->log_location, fmt,
            GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info))) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
          ("Could not open \"%s\" for writing", self->log_location),
          GST_ERROR_SYSTEM);
      return FALSE;
    }
  }
  return TRUE;
}

static gboolean
gst_vk_vmaf_motion_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (trans);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gpc_vk_context_handle_query (GST_ELEMENT (self), &self->vk, query))
        return TRUE;
      break;
    case GST_QUERY_LATENCY:
      if (direction == GST_PAD_SRC) {
        if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
                query))
          return FALSE;
        self->state->answer_latency (query);
        return TRUE;
      }
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
}

static gboolean gst_vk_vmaf_motion_stop (GstBaseTransform * trans);

static gboolean
gst_vk_vmaf_motion_start (GstBaseTransform * trans)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (trans);
  GError *error = NULL;

  if (!gpc_vk_context_ensure (GST_ELEMENT (self), &self->vk))
    return FALSE;

  self->exec = gpc::VkExec::create (self->vk.queue, &error);
  if (self->exec && !gpc::start_fault_injected (GST_ELEMENT (self), &error))
    self->kernel = gpc::VkMotionKernel::create (self->vk.device, &error);
  if (self->kernel)
    self->results = gpc::vk_storage_alloc (self->vk.device, N_SLOTS * 8, true,
        &error);
  if (!self->results) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Failed to set up the motion kernel on the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    /* GstBaseTransform calls stop only after a start that succeeded. */
    gst_vk_vmaf_motion_stop (trans);
    return FALSE;
  }
  self->device_cache = new gpc::VkBufferCache (self->vk.device, false);
  self->staging_cache = new gpc::VkBufferCache (self->vk.device, true);
  self->scorer = new gpc::MotionScorer (self->opts);
  self->log = new gpc::MotionLogWriter ();
  GST_OBJECT_LOCK (self);
  self->log_location = g_strdup (self->results_location);
  self->log_format = self->results_format;
  GST_OBJECT_UNLOCK (self);
  self->submitted = self->index_base = self->frames_total = 0;
  self->start_time = g_get_monotonic_time ();
  return TRUE;
}

static gboolean
gst_vk_vmaf_motion_stop (GstBaseTransform * trans)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (trans);

  if (self->exec)
    discard_pending (self);
  for (gpc::StoragePlane & r : self->history)
    r.clear ();
  if (self->log && self->log->is_open ())
    close_log (self);
  if (self->exec)
    gpc::wait_idle_or_error (GST_ELEMENT (self), *self->exec);
  delete self->log;
  self->log = nullptr;
  g_clear_pointer (&self->log_location, g_free);
  delete self->scorer;
  self->scorer = nullptr;
  delete self->device_cache;
  self->device_cache = nullptr;
  delete self->staging_cache;
  self->staging_cache = nullptr;
  if (self->results)
    gst_memory_unref (self->results);
  self->results = nullptr;
  delete self->exec;
  self->exec = nullptr;
  delete self->kernel;
  self->kernel = nullptr;
  self->have_info = FALSE;
  self->state->set_caps (NULL);
  self->times->clear ();
  return TRUE;
}

/* ---------------------------------------------------------- GstElement */

static void
gst_vk_vmaf_motion_set_context (GstElement * element, GstContext * context)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (element);
  gpc_vk_context_set_context (element, &self->vk, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static GstStateChangeReturn
gst_vk_vmaf_motion_change_state (GstElement * element,
    GstStateChange transition)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (element);
  GstStateChangeReturn ret =
      GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gpc_vk_context_clear (&self->vk);
  return ret;
}

static void
gst_vk_vmaf_motion_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      self->vk.device_index = g_value_get_int (value);
      break;
    case PROP_FORCE_ZERO:
      self->opts.force_zero = g_value_get_boolean (value);
      break;
    case PROP_BLEND_FACTOR:
      self->opts.blend_factor = g_value_get_double (value);
      break;
    case PROP_BLEND_OFFSET:
      self->opts.blend_offset = g_value_get_double (value);
      break;
    case PROP_FPS_WEIGHT:
      self->opts.fps_weight = g_value_get_double (value);
      break;
    case PROP_MAX_VAL:
      self->opts.max_val = g_value_get_double (value);
      break;
    case PROP_FIVE_FRAME_WINDOW:
      self->opts.five_frame_window = g_value_get_boolean (value);
      break;
    case PROP_MOVING_AVERAGE:
      self->opts.moving_average = g_value_get_boolean (value);
      break;
    case PROP_RESULTS_LOCATION:
      g_free (self->results_location);
      self->results_location = g_value_dup_string (value);
      break;
    case PROP_RESULTS_FORMAT:
      self->results_format = (ResultsFormat) g_value_get_enum (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->state->set_property (value);
      break;
    case PROP_POST_MESSAGES:
      g_atomic_int_set (&self->post_messages, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_vmaf_motion_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, self->vk.device_index);
      break;
    case PROP_FORCE_ZERO:
      g_value_set_boolean (value, self->opts.force_zero);
      break;
    case PROP_BLEND_FACTOR:
      g_value_set_double (value, self->opts.blend_factor);
      break;
    case PROP_BLEND_OFFSET:
      g_value_set_double (value, self->opts.blend_offset);
      break;
    case PROP_FPS_WEIGHT:
      g_value_set_double (value, self->opts.fps_weight);
      break;
    case PROP_MAX_VAL:
      g_value_set_double (value, self->opts.max_val);
      break;
    case PROP_FIVE_FRAME_WINDOW:
      g_value_set_boolean (value, self->opts.five_frame_window);
      break;
    case PROP_MOVING_AVERAGE:
      g_value_set_boolean (value, self->opts.moving_average);
      break;
    case PROP_RESULTS_LOCATION:
      g_value_set_string (value, self->results_location);
      break;
    case PROP_RESULTS_FORMAT:
      g_value_set_enum (value, self->results_format);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->state->get_property (value);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, g_atomic_int_get (&self->post_messages));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_vmaf_motion_finalize (GObject * object)
{
  GstVkVmafMotion *self = GST_VK_VMAF_MOTION (object);
  g_free (self->results_location);
  delete self->pending;
  delete self->state;
  delete self->times;
  gpc_vk_context_clear (&self->vk);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_vk_vmaf_motion_init (GstVkVmafMotion * self)
{
  new (&self->opts) gpc::MotionOptions ();
  gpc_vk_context_init (&self->vk);
  self->results_format = RESULTS_FORMAT_XML;
  self->state = new gpc::FilterState ();
  self->post_messages = TRUE;
  self->pending = new std::deque < PendingFrame > ();
  self->times = new std::deque < FrameTime > ();
  new (&self->history[0]) gpc::StoragePlane ();
  new (&self->history[1]) gpc::StoragePlane ();
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
}

static void
gst_vk_vmaf_motion_class_init (GstVkVmafMotionClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE |
      G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY);

  GST_DEBUG_CATEGORY_INIT (gst_vk_vmaf_motion_debug, "vkvmafmotion", 0,
      "VMAF integer motion on Vulkan");

  gobject_class->set_property = gst_vk_vmaf_motion_set_property;
  gobject_class->get_property = gst_vk_vmaf_motion_get_property;
  gobject_class->finalize = gst_vk_vmaf_motion_finalize;

  gpc_vk_context_install_properties (gobject_class, PROP_DEVICE_INDEX);
  g_object_class_install_property (gobject_class, PROP_FORCE_ZERO,
      g_param_spec_boolean ("force-zero", "Force zero",
          "Force every motion score to zero (libvmaf motion_force_zero)",
          FALSE, rw));
  g_object_class_install_property (gobject_class, PROP_BLEND_FACTOR,
      g_param_spec_double ("blend-factor", "Blend factor",
          "Blend motion3 with its value capped at blend-offset "
          "(libvmaf motion_blend_factor)", 0.0, 1.0, 1.0, rw));
  g_object_class_install_property (gobject_class, PROP_BLEND_OFFSET,
      g_param_spec_double ("blend-offset", "Blend offset",
          "Cap used by the motion3 blend (libvmaf motion_blend_offset)",
          0.0, 1000.0, 40.0, rw));
  g_object_class_install_property (gobject_class, PROP_FPS_WEIGHT,
      g_param_spec_double ("fps-weight", "FPS weight",
          "Multiplicative frame-rate correction of every score "
          "(libvmaf motion_fps_weight)", 0.0, 5.0, 1.0, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_VAL,
      g_param_spec_double ("max-val", "Maximum value",
          "Scores above this value are clipped to it (libvmaf motion_max_val)",
          0.0, 10000.0, 10000.0, rw));
  g_object_class_install_property (gobject_class, PROP_FIVE_FRAME_WINDOW,
      g_param_spec_boolean ("five-frame-window", "Five-frame window",
          "Compare each frame with the one two frames before, and take "
          "motion2 over frames i-1 and i+1 (libvmaf motion_five_frame_window)",
          FALSE, rw));
  g_object_class_install_property (gobject_class, PROP_MOVING_AVERAGE,
      g_param_spec_boolean ("moving-average", "Moving average",
          "motion3 is the mean of this and the previous frame's blended "
          "score (libvmaf motion_moving_average)", FALSE, rw));
  g_object_class_install_property (gobject_class, PROP_RESULTS_LOCATION,
      g_param_spec_string ("results-location", "Results location",
          "File to write every frame's scores and the pooled metrics to, "
          "laid out like libvmaf's logs (NULL: no file)", NULL, rw));
  g_object_class_install_property (gobject_class, PROP_RESULTS_FORMAT,
      g_param_spec_enum ("results-format", "Results format",
          "Layout of the results file", GST_TYPE_VK_VMAF_MOTION_RESULTS_FORMAT,
          RESULTS_FORMAT_XML, rw));
  gpc::FilterState::install_property (gobject_class, PROP_FRAMES_IN_FLIGHT, "Frames", "frame");
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post per-frame element messages on the bus", TRUE,
          (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
              GST_PARAM_MUTABLE_PLAYING)));

  GstCaps *caps = build_template_caps ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  gst_element_class_set_static_metadata (element_class,
      "Vulkan VMAF motion", "Filter/Analyzer/Video/Hardware",
      "Computes VMAF's integer motion feature (libvmaf 'motion') on a Vulkan "
      "device, bit-exact with libvmaf",
      "gst-gpucodecs developers");

  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_set_context);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_change_state);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_set_caps);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_query);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_submit_input_buffer);
  trans_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_vk_vmaf_motion_generate_output);
  trans_class->passthrough_on_same_caps = TRUE;

  gst_type_mark_as_plugin_api (GST_TYPE_VK_VMAF_MOTION_RESULTS_FORMAT,
      (GstPluginAPIFlags) 0);
}
