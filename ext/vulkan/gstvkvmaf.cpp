/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-vkvmaf
 * @title: vkvmaf
 *
 * Computes VMAF (libvmaf 3.x's integer VIF, ADM and motion features and its
 * SVM models) of a distorted video against its reference on a Vulkan device,
 * equal to libvmaf's scores. Frames in GPU memory are never read back: only
 * each frame pair's few hundred bytes of sums return to the CPU, which
 * scores them with the model in double precision as libvmaf does.
 *
 * Frames arrive on `ref_sink` and `dist_sink`, are paired by running time and
 * must have one size and luma bit depth. The source pad passes the distorted
 * frames (or, with output=reference, the reference ones) on untouched.
 *
 * Results: with frame-message=true a "VMAF" element message per scored frame
 * (timestamp, stream-time, running-time, duration, score, type="frame",
 * index and every feature value by libvmaf's name), at EOS a "VMAF" message
 * with type="pooled" (pool-method), and with results-filename a log in
 * libvmaf's xml, json or csv layout.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m filesrc location=source.y4m ! decodebin ! v.ref_sink \
 *   filesrc location=encoded.mp4 ! decodebin ! v.dist_sink \
 *   vkvmaf name=v frame-message=true results-filename=vmaf.json log-format=json ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvkvmaf.h"

#include <gst/video/video.h>

#include <string>

#include "compute/gpcvkcontext.h"
#include "vkfilter.h"
#include "vkframeio.h"
#include "vkvmaf-engine.h"
#include "vkvmaf-settings.h"
#include "vmaf-adm-ref.h"
#include "vmaf-vif-ref.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_vmaf_debug);
#define GST_CAT_DEFAULT gst_vk_vmaf_debug

enum { PROP_0, PROP_DEVICE_INDEX, PROP_DEVICE_NAME /* with device-index */, PROP_FIRST_SETTING };
enum { REF, DIST };
static const char *const kInputName[2] = { "reference", "distorted" };

struct _GstVkVmaf
{
  GstAggregator parent;
  GstAggregatorPad *pads[2];

  gpc::VmafSettings *settings;  /* properties, under the object lock */
  GpcVkContext vk;

  /* Streaming (the source pad's thread) */
  gpc::VmafSettings *run;       /* settings as they were at start */
  gpc::VmafModel *model;
  gpc::VmafScorer *scorer;
  gpc::VmafEngine *engine;
  gpc::VmafLogWriter *log;
  GstVideoInfo info[2];
  gpc::LumaLayout layout[2];
  gboolean have_info[2];
  gboolean configured;          /* the engine knows the current caps */
  GstCaps *out_caps;
  guint64 frames[2];            /* paired frames from each input */
  guint64 dropped;
  gint64 start_time;
};

#define gst_vk_vmaf_parent_class parent_class
G_DEFINE_TYPE (GstVkVmaf, gst_vk_vmaf, GST_TYPE_AGGREGATOR);
GST_ELEMENT_REGISTER_DEFINE (vkvmaf, "vkvmaf", GST_RANK_NONE, GST_TYPE_VK_VMAF);

/* ------------------------------------------------------------- results */

static void
publish (GstVkVmaf * self, std::vector < gpc::VmafScored > &scored)
{
  GST_OBJECT_LOCK (self);
  const bool messages = self->settings->frame_message;
  GST_OBJECT_UNLOCK (self);
  const std::vector < std::string > &cols = self->scorer->columns ();
  for (const gpc::VmafScored & s : scored) {
    if (self->log->is_open ())
      self->log->frame (s.result);
    GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT ": vmaf %f", s.result.index,
        s.result.values.back ());
    if (!messages)
      continue;
    GstStructure *st = gst_structure_new ("VMAF",
        "timestamp", G_TYPE_UINT64, s.time.pts,
        "stream-time", G_TYPE_UINT64, s.time.stream_time,
        "running-time", G_TYPE_UINT64, s.time.running_time,
        "duration", G_TYPE_UINT64, s.time.duration,
        "score", G_TYPE_DOUBLE, s.result.values.back (),
        "type", G_TYPE_STRING, "frame",
        "index", G_TYPE_INT, (gint) s.result.index, NULL);
    for (size_t c = 0; c + 1 < cols.size (); c++)
      gst_structure_set (st, cols[c].c_str (), G_TYPE_DOUBLE, s.result.values[c], NULL);
    gst_element_post_message (GST_ELEMENT_CAST (self),
        gst_message_new_element (GST_OBJECT_CAST (self), st));
  }
  scored.clear ();
}

/* Completes GPU work down to `in_flight` pending pairs; false with an
 * element error posted when the device failed. */
static gboolean
complete (GstVkVmaf * self, guint in_flight)
{
  std::vector < gpc::VmafScored > scored;
  GError *error = NULL;
  const bool ok = self->engine->complete (in_flight, scored, &error);
  publish (self, scored);
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("The Vulkan device failed computing VMAF"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
  }
  return ok;
}

/* Both inputs ended together: scores the last frames, posts the pooled
 * score and writes the log. */
static GstFlowReturn
end_stream (GstVkVmaf * self)
{
  if (!complete (self, 0))
    return GST_FLOW_ERROR;
  std::vector < gpc::VmafScored > scored;
  self->engine->finish (scored);
  publish (self, scored);

  const gpc::VmafPoolMethod method = self->run->pool_method;
  const std::vector < std::string > &cols = self->scorer->columns ();
  GEnumClass *methods = (GEnumClass *) g_type_class_ref (gpc::vmaf_pool_method_get_type ());
  GEnumValue *nick = g_enum_get_value (methods, (gint) method);
  GstStructure *st = gst_structure_new ("VMAF",
      "score", G_TYPE_DOUBLE, self->scorer->pooled (cols.size () - 1, method),
      "type", G_TYPE_STRING, "pooled",
      "pool-method", G_TYPE_STRING, nick ? nick->value_nick : "",
      "frames", G_TYPE_UINT64, self->scorer->frames_scored (), NULL);
  g_type_class_unref (methods);
  for (size_t c = 0; c + 1 < cols.size (); c++)
    gst_structure_set (st, cols[c].c_str (), G_TYPE_DOUBLE, self->scorer->pooled (c, method), NULL);
  gst_element_post_message (GST_ELEMENT_CAST (self),
      gst_message_new_element (GST_OBJECT_CAST (self), st));

  if (self->log->is_open ()) {
    const double secs = (g_get_monotonic_time () - self->start_time) / 1e6;
    std::string error;
    if (!self->log->close (*self->scorer, GST_VIDEO_INFO_WIDTH (&self->info[REF]),
            GST_VIDEO_INFO_HEIGHT (&self->info[REF]),
            secs > 0 ? self->engine->frames () / secs : 0, &error)) {
      GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("Could not write the VMAF results"),
          ("%s", error.c_str ()));
      return GST_FLOW_ERROR;
    }
  }
  return GST_FLOW_EOS;
}

/* ---------------------------------------------------------- aggregation */

/* The inputs of the next pair agree (size, luma layout); the engine knows
 * them. FALSE with an element error posted otherwise. */
static gboolean
check_inputs (GstVkVmaf * self)
{
  if (self->configured)
    return TRUE;
  const GstVideoInfo *r = &self->info[REF], *d = &self->info[DIST];
  const gpc::LumaLayout & a = self->layout[REF], &b = self->layout[DIST];
  if (!self->have_info[REF] || !self->have_info[DIST]) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("a buffer arrived before caps"));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (r) != GST_VIDEO_INFO_WIDTH (d)
      || GST_VIDEO_INFO_HEIGHT (r) != GST_VIDEO_INFO_HEIGHT (d)
      || a.packing != b.packing || a.bpc != b.bpc || a.shift != b.shift) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT,
        ("The reference and distorted inputs must have the same size and luma sample format"),
        ("reference %dx%d %s, distorted %dx%d %s", GST_VIDEO_INFO_WIDTH (r),
            GST_VIDEO_INFO_HEIGHT (r), GST_VIDEO_INFO_NAME (r), GST_VIDEO_INFO_WIDTH (d),
            GST_VIDEO_INFO_HEIGHT (d), GST_VIDEO_INFO_NAME (d)));
    return FALSE;
  }
  const guint min = MAX (gpc::kVifMinSize, gpc::kAdmMinSize);
  if (GST_VIDEO_INFO_WIDTH (r) < (gint) min || GST_VIDEO_INFO_HEIGHT (r) < (gint) min) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Frames must be at least %ux%u for VMAF", min, min),
        ("%dx%d", GST_VIDEO_INFO_WIDTH (r), GST_VIDEO_INFO_HEIGHT (r)));
    return FALSE;
  }
  /* A new size ends the motion history: frames in flight complete first. */
  if (!complete (self, 0))
    return FALSE;
  self->engine->configure (r, d, a);
  self->configured = TRUE;
  return TRUE;
}

/* The pad's running time of `buf`, and half its duration (the pairing
 * tolerance). */
static GstClockTime
running_time (GstAggregatorPad * pad, GstBuffer * buf, const GstVideoInfo * info,
    GstClockTime * half)
{
  GstClockTime d = GST_BUFFER_DURATION (buf);
  if (!GST_CLOCK_TIME_IS_VALID (d) && GST_VIDEO_INFO_FPS_N (info) > 0)
    d = gst_util_uint64_scale (GST_SECOND, GST_VIDEO_INFO_FPS_D (info), GST_VIDEO_INFO_FPS_N (info));
  *half = GST_CLOCK_TIME_IS_VALID (d) ? d / 2 : 0;
  return gst_segment_to_running_time (&pad->segment, GST_FORMAT_TIME, GST_BUFFER_PTS (buf));
}

static GstFlowReturn
aggregate_pair (GstVkVmaf * self, GstBuffer * buf[2])
{
  GstAggregator *agg = GST_AGGREGATOR (self);
  GstClockTime half[2];
  const GstClockTime rt[2] = {
    running_time (self->pads[REF], buf[REF], &self->info[REF], &half[REF]),
    running_time (self->pads[DIST], buf[DIST], &self->info[DIST], &half[DIST]),
  };
  if (GST_CLOCK_TIME_IS_VALID (rt[REF]) && GST_CLOCK_TIME_IS_VALID (rt[DIST])) {
    const GstClockTime diff = rt[REF] > rt[DIST] ? rt[REF] - rt[DIST] : rt[DIST] - rt[REF];
    if (diff > MAX (half[REF], half[DIST])) {
      /* No partner at this time: the earlier frame goes. */
      const int early = rt[REF] < rt[DIST] ? REF : DIST;
      if (self->dropped++ == 0)
        GST_ELEMENT_WARNING (self, STREAM, FAILED, ("Frames without a partner are dropped"),
            ("the %s frame at running time %" GST_TIME_FORMAT " has no %s frame at that time",
                kInputName[early], GST_TIME_ARGS (rt[early]), kInputName[1 - early]));
      gst_aggregator_pad_drop_buffer (self->pads[early]);
      return GST_FLOW_OK;
    }
  }
  if (!check_inputs (self))
    return GST_FLOW_NOT_NEGOTIATED;

  const int out = self->run->output == gpc::VMAF_OUTPUT_REFERENCE ? REF : DIST;
  GstSegment *seg = &self->pads[out]->segment;
  GstBuffer *ob = buf[out];
  gst_aggregator_selected_samples (agg, GST_BUFFER_PTS (ob), GST_BUFFER_DTS (ob),
      GST_BUFFER_DURATION (ob), NULL);
  const gpc::VmafFrameTime time = { GST_BUFFER_PTS (ob),
    gst_segment_to_stream_time (seg, GST_FORMAT_TIME, GST_BUFFER_PTS (ob)), rt[out],
    GST_BUFFER_DURATION (ob) };
  GError *error = NULL;
  if (!self->engine->submit (buf[REF], buf[DIST], time, &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Failed to submit VMAF work to the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    return GST_FLOW_ERROR;
  }
  self->frames[REF]++;
  self->frames[DIST]++;
  gst_aggregator_pad_drop_buffer (self->pads[1 - out]);
  GstBuffer *pass = gst_aggregator_pad_pop_buffer (self->pads[out]);
  GstFlowReturn ret = gst_aggregator_finish_buffer (agg, pass);
  GST_OBJECT_LOCK (self);
  const guint in_flight = self->settings->frames_in_flight;
  GST_OBJECT_UNLOCK (self);
  if (!complete (self, in_flight))
    return GST_FLOW_ERROR;
  return ret;
}

static GstFlowReturn
gst_vk_vmaf_aggregate (GstAggregator * agg, gboolean timeout)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  GstBuffer *buf[2] = { gst_aggregator_pad_peek_buffer (self->pads[REF]),
    gst_aggregator_pad_peek_buffer (self->pads[DIST])
  };
  GstFlowReturn ret = GST_FLOW_OK;
  const gboolean eos[2] = { gst_aggregator_pad_is_eos (self->pads[REF]),
    gst_aggregator_pad_is_eos (self->pads[DIST])
  };

  if (buf[REF] && buf[DIST]) {
    ret = aggregate_pair (self, buf);
  } else if (eos[REF] && eos[DIST]) {
    ret = end_stream (self);
  } else if ((eos[REF] && buf[DIST]) || (eos[DIST] && buf[REF])) {
    const int ended = eos[REF] ? REF : DIST;
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("The %s input ended after %" G_GUINT64_FORMAT " frames, the %s input has more",
            kInputName[ended], self->frames[ended], kInputName[1 - ended]),
        ("VMAF compares frame pairs: both inputs must have the same number of frames"));
    ret = GST_FLOW_ERROR;
  }
  /* Otherwise a live input timed out: wait for its frame. */
  for (GstBuffer * b : buf)
    if (b)
      gst_buffer_unref (b);
  return ret;
}

/* --------------------------------------------------------------- events */

static gboolean
gst_vk_vmaf_sink_event (GstAggregator * agg, GstAggregatorPad * pad, GstEvent * event)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  const int i = pad == self->pads[REF] ? REF : DIST;
  const int out = self->run && self->run->output == gpc::VMAF_OUTPUT_REFERENCE ? REF : DIST;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps;
    GstVideoInfo info;
    gpc::LumaLayout layout;
    gst_event_parse_caps (event, &caps);
    if (!gst_video_info_from_caps (&info, caps)
        || !gpc::luma_layout_for_format (GST_VIDEO_INFO_FORMAT (&info), &layout)) {
      GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
          ("unsupported %s caps %" GST_PTR_FORMAT, kInputName[i], caps));
      gst_event_unref (event);
      return FALSE;
    }
    self->info[i] = info;
    self->layout[i] = layout;
    self->have_info[i] = TRUE;
    self->configured = FALSE;
    if (i == out) {
      gst_caps_replace (&self->out_caps, caps);
      gst_pad_mark_reconfigure (GST_AGGREGATOR_SRC_PAD (agg));
    }
  }
  const GstEventType type = GST_EVENT_TYPE (event);
  const gboolean ret = GST_AGGREGATOR_CLASS (parent_class)->sink_event (agg, pad, event);
  /* Output buffers keep their timestamps: they go out in their input's segment. */
  if (i == out && type == GST_EVENT_SEGMENT)
    gst_aggregator_update_segment (agg, &pad->segment);
  return ret;
}

static GstFlowReturn
gst_vk_vmaf_update_src_caps (GstAggregator * agg, GstCaps * downstream, GstCaps ** ret)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  if (!self->out_caps)
    return GST_AGGREGATOR_FLOW_NEED_DATA;
  if (!gst_caps_can_intersect (self->out_caps, downstream))
    return GST_FLOW_NOT_NEGOTIATED;
  *ret = gst_caps_ref (self->out_caps);
  return GST_FLOW_OK;
}

static gboolean
gst_vk_vmaf_sink_query (GstAggregator * agg, GstAggregatorPad * pad, GstQuery * query)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  GST_OBJECT_LOCK (self);
  const int out = self->settings->output == gpc::VMAF_OUTPUT_REFERENCE ? REF : DIST;
  GST_OBJECT_UNLOCK (self);
  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gpc_vk_context_handle_query (GST_ELEMENT (self), &self->vk, query))
        return TRUE;
      break;
    case GST_QUERY_ALLOCATION:
      /* The passed-on input's frames go downstream as they are. */
      if (pad == self->pads[out])
        return gst_pad_peer_query (GST_AGGREGATOR_SRC_PAD (agg), query);
      break;
    case GST_QUERY_CAPS: {
      GstCaps *res;
      if (pad == self->pads[out]) {
        GstCaps *filter, *templ = gst_pad_get_pad_template_caps (GST_PAD (pad));
        gst_query_parse_caps (query, &filter);
        GstCaps *peer = gst_pad_peer_query_caps (GST_AGGREGATOR_SRC_PAD (agg), filter);
        res = gst_caps_intersect (peer, templ);
        gst_caps_unref (peer);
        gst_caps_unref (templ);
      } else if (GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query)) {
        gst_query_parse_caps_result (query, &res);
        res = gst_caps_ref (res);
      } else {
        return FALSE;
      }
      /* Vulkan memory of another device than ours is of no use here. */
      res = gpc_vk_context_restrict_sink_caps (GST_ELEMENT (self), &self->vk, GST_PAD (pad), res);
      gst_query_set_caps_result (query, res);
      gst_caps_unref (res);
      return TRUE;
    }
    default:
      break;
  }
  return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query);
}

static gboolean
gst_vk_vmaf_src_query (GstAggregator * agg, GstQuery * query)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT
      && gpc_vk_context_handle_query (GST_ELEMENT (self), &self->vk, query))
    return TRUE;
  return GST_AGGREGATOR_CLASS (parent_class)->src_query (agg, query);
}

static GstFlowReturn
gst_vk_vmaf_flush (GstAggregator * agg)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  if (self->engine)
    self->engine->discard ();
  return GST_AGGREGATOR_CLASS (parent_class)->flush ?
      GST_AGGREGATOR_CLASS (parent_class)->flush (agg) : GST_FLOW_OK;
}

/* ------------------------------------------------------- start and stop */

static gboolean gst_vk_vmaf_stop (GstAggregator * agg);

static gboolean
gst_vk_vmaf_start (GstAggregator * agg)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  GST_OBJECT_LOCK (self);
  self->run = new gpc::VmafSettings (*self->settings);
  GST_OBJECT_UNLOCK (self);

  std::string why;
  self->model = new gpc::VmafModel ();
  self->scorer = new gpc::VmafScorer ();
  self->log = new gpc::VmafLogWriter ();
  if (!self->run->load_model (self->model, &why)
      || !self->scorer->init (*self->model, self->run->flags, self->run->subsample, &why)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("Cannot use the VMAF model \"%s\"",
            self->run->model_filename.c_str ()), ("%s", why.c_str ()));
    gst_vk_vmaf_stop (agg);
    return FALSE;
  }
  if (!self->run->results_filename.empty ()
      && !self->log->open (self->run->results_filename, self->run->log_format,
          self->scorer->columns (), &why)) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE, ("Cannot write the VMAF results to \"%s\"",
            self->run->results_filename.c_str ()), ("%s", why.c_str ()));
    gst_vk_vmaf_stop (agg);
    return FALSE;
  }
  if (!gpc_vk_context_ensure (GST_ELEMENT (self), &self->vk)) {
    gst_vk_vmaf_stop (agg);
    return FALSE;
  }
  GError *error = NULL;
  self->engine = new gpc::VmafEngine ();
  if (gpc::start_fault_injected (GST_ELEMENT (self), &error)
      || !self->engine->start (self->vk.queue, self->scorer, &error)) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Failed to set up the VMAF kernels on the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    gst_vk_vmaf_stop (agg);
    return FALSE;
  }
  self->frames[REF] = self->frames[DIST] = self->dropped = 0;
  self->configured = FALSE;
  self->start_time = g_get_monotonic_time ();
  return TRUE;
}

static gboolean
gst_vk_vmaf_stop (GstAggregator * agg)
{
  GstVkVmaf *self = GST_VK_VMAF (agg);
  if (self->engine && !self->engine->stop ())
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("The Vulkan device did not finish"), (NULL));
  delete self->engine;
  self->engine = nullptr;
  /* A log is complete at EOS only: an earlier stop leaves no file. */
  delete self->log;
  self->log = nullptr;
  delete self->scorer;
  self->scorer = nullptr;
  delete self->model;
  self->model = nullptr;
  delete self->run;
  self->run = nullptr;
  self->have_info[REF] = self->have_info[DIST] = FALSE;
  gst_caps_replace (&self->out_caps, NULL);
  return TRUE;
}

/* ------------------------------------------------------------ GObject */

static void
gst_vk_vmaf_set_context (GstElement * element, GstContext * context)
{
  GstVkVmaf *self = GST_VK_VMAF (element);
  gpc_vk_context_set_context (element, &self->vk, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static GstStateChangeReturn
gst_vk_vmaf_change_state (GstElement * element, GstStateChange transition)
{
  GstVkVmaf *self = GST_VK_VMAF (element);
  GstStateChangeReturn ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gpc_vk_context_clear (&self->vk);
  return ret;
}

static void
gst_vk_vmaf_set_property (GObject * object, guint id, const GValue * value, GParamSpec * pspec)
{
  GstVkVmaf *self = GST_VK_VMAF (object);
  GST_OBJECT_LOCK (self);
  if (!gpc_vk_context_set_property (&self->vk, id, PROP_DEVICE_INDEX, value)
      && (id < PROP_FIRST_SETTING
      || !gpc::vmaf_settings_set (self->settings, id - PROP_FIRST_SETTING, value)))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_vmaf_get_property (GObject * object, guint id, GValue * value, GParamSpec * pspec)
{
  GstVkVmaf *self = GST_VK_VMAF (object);
  GST_OBJECT_LOCK (self);
  if (!gpc_vk_context_get_property (&self->vk, id, PROP_DEVICE_INDEX, value)
      && (id < PROP_FIRST_SETTING
      || !gpc::vmaf_settings_get (self->settings, id - PROP_FIRST_SETTING, value)))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_vmaf_finalize (GObject * object)
{
  GstVkVmaf *self = GST_VK_VMAF (object);
  delete self->settings;
  gpc_vk_context_clear (&self->vk);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_vk_vmaf_init (GstVkVmaf * self)
{
  self->settings = new gpc::VmafSettings ();
  gpc_vk_context_init (&self->vk);
  const char *const names[2] = { "ref_sink", "dist_sink" };
  for (int i = 0; i < 2; i++) {
    GstPadTemplate *templ = gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (self),
        names[i]);
    self->pads[i] = (GstAggregatorPad *) g_object_new (GST_TYPE_AGGREGATOR_PAD, "name", names[i],
        "direction", GST_PAD_SINK, "template", templ, NULL);
    gst_element_add_pad (GST_ELEMENT (self), GST_PAD (self->pads[i]));
  }
}

static void
gst_vk_vmaf_class_init (GstVkVmafClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_vk_vmaf_debug, "vkvmaf", 0, "VMAF on Vulkan");

  gobject_class->set_property = gst_vk_vmaf_set_property;
  gobject_class->get_property = gst_vk_vmaf_get_property;
  gobject_class->finalize = gst_vk_vmaf_finalize;
  gpc_vk_context_install_properties (gobject_class, PROP_DEVICE_INDEX);
  gpc::vmaf_settings_install (gobject_class, PROP_FIRST_SETTING);

  GstCaps *caps = gpc::luma_template_caps ("width = (int) [ 1, 65536 ], "
      "height = (int) [ 1, 65536 ]");
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("ref_sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps,
          GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new_with_gtype ("dist_sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps,
          GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);

  gst_element_class_set_static_metadata (element_class, "Vulkan VMAF",
      "Filter/Analyzer/Video/Hardware",
      "Computes VMAF (libvmaf's integer features and models) of a distorted video against "
      "its reference on a Vulkan device, equal to libvmaf's scores",
      "gst-gpucodecs developers");

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_vk_vmaf_set_context);
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_vk_vmaf_change_state);
  agg_class->start = GST_DEBUG_FUNCPTR (gst_vk_vmaf_start);
  agg_class->stop = GST_DEBUG_FUNCPTR (gst_vk_vmaf_stop);
  agg_class->aggregate = GST_DEBUG_FUNCPTR (gst_vk_vmaf_aggregate);
  agg_class->sink_event = GST_DEBUG_FUNCPTR (gst_vk_vmaf_sink_event);
  agg_class->sink_query = GST_DEBUG_FUNCPTR (gst_vk_vmaf_sink_query);
  agg_class->src_query = GST_DEBUG_FUNCPTR (gst_vk_vmaf_src_query);
  agg_class->update_src_caps = GST_DEBUG_FUNCPTR (gst_vk_vmaf_update_src_caps);
  agg_class->flush = GST_DEBUG_FUNCPTR (gst_vk_vmaf_flush);

  gst_type_mark_as_plugin_api (gpc::vmaf_pool_method_get_type (), (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (gpc::vmaf_log_format_get_type (), (GstPluginAPIFlags) 0);
  gst_type_mark_as_plugin_api (gpc::vmaf_output_get_type (), (GstPluginAPIFlags) 0);
}
