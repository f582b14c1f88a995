/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvkfilter.h"
#include "fieldprops.h"

#include <utility>

GST_DEBUG_CATEGORY_STATIC (gpc_vk_filter_debug);
#define GST_CAT_DEFAULT gpc_vk_filter_debug

enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
  PROP_DEVICE_NAME, /* installed with device-index */
  PROP_FRAMES_IN_FLIGHT,
};

#define gpc_vk_filter_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE (GpcVkFilter, gpc_vk_filter, GST_TYPE_BASE_TRANSFORM);

/* ---------------------------------------------------------------- frames */

GstVulkanBufferMemory *
gpc_vk_filter_download_target (GpcVkFilter * self, gpc::PendingFrame * f, GError ** error)
{
  GstMemory *mem = self->io->outputs ().buffer (GST_VIDEO_INFO_SIZE (&self->out_info),
      gpc::VkMemKind::HostRead, error);
  if (!mem)
    return NULL;
  gst_clear_buffer (&f->staging);
  f->staging = gst_buffer_new ();
  gst_buffer_append_memory (f->staging, mem);
  return (GstVulkanBufferMemory *) mem;
}

/* The downloaded picture of `f` as a system-memory buffer. */
static GstBuffer *
download (GpcVkFilter * self, gpc::PendingFrame & f, GstFlowReturn * ret)
{
  GstBufferPool *pool = gst_base_transform_get_buffer_pool (GST_BASE_TRANSFORM (self));
  GstBuffer *out;
  /* The picture of `f` counts as in flight. */
  *ret = self->host->output (gst_buffer_peek_memory (f.staging, 0), &self->out_info, pool,
      self->io->outputs ().in_use (gpc::VkMemKind::HostRead), self->pending->size () + 1, &out);
  if (pool)
    gst_object_unref (pool);
  if (*ret != GST_FLOW_OK) {
    if (*ret != GST_FLOW_FLUSHING)
      GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Cannot output the picture of %s",
              GPC_VK_FILTER_GET_CLASS (self)->kernel), ("%s", gst_flow_get_name (*ret)));
    return NULL;
  }
  gst_buffer_copy_into (out, f.in, (GstBufferCopyFlags) (GST_BUFFER_COPY_FLAGS |
          GST_BUFFER_COPY_TIMESTAMPS), 0, -1);
  if (f.discont)
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_DISCONT);
  return out;
}

static GstBuffer *
complete_frame (GpcVkFilter * self, gpc::PendingFrame & f, GstFlowReturn * ret)
{
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);
  GstBuffer *out = f.out ? std::exchange (f.out, nullptr) : download (self, f, ret);
  if (out && klass->finish)
    out = klass->finish (self, &f, out);
  return out;
}

/* Submits what was recorded so far and forgets it (after an error). */
static void
abandon_recording (GpcVkFilter * self)
{
  GstVulkanFence *fence = self->exec->submit (NULL);
  if (fence)
    gst_vulkan_fence_unref (fence);
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);
  if (klass->abandoned)
    klass->abandoned (self);
}

/* Records and submits one picture. Takes `buf`. */
static GstFlowReturn
submit_frame (GpcVkFilter * self, GstBuffer * buf, gboolean discont)
{
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);
  gpc::VkExec * exec = self->exec;
  GError *error = NULL;
  const char *stage = "begin";
  gpc::PendingFrame f;
  gpc::StoragePlane planes[GST_VIDEO_MAX_PLANES];
  gboolean ok;

  f.discont = discont;
  exec->collect ();
  if (!exec->begin (&error))
    goto failed;
  if (!self->io->import (exec, buf, &self->in_info, self->planes, self->n_planes, planes,
          &error)) {
    abandon_recording (self);
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot read this %s", klass->unit),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    gst_buffer_unref (buf);
    return GST_FLOW_ERROR;
  }
  exec->keep (GST_MINI_OBJECT_CAST (buf));
  stage = "record";
  ok = klass->record (self, buf, planes, &f, &stage, &error);
  for (gpc::StoragePlane & p : planes)
    p.clear ();
  if (!ok) {
    abandon_recording (self);
    if (error)
      goto post;
    f.clear ();
    gst_buffer_unref (buf);
    return GST_FLOW_ERROR;
  }
  if (f.out && f.out != buf) {
    gst_buffer_copy_into (f.out, buf, (GstBufferCopyFlags) (GST_BUFFER_COPY_FLAGS |
            GST_BUFFER_COPY_TIMESTAMPS), 0, -1);
    if (discont)
      GST_BUFFER_FLAG_SET (f.out, GST_BUFFER_FLAG_DISCONT);
    exec->keep (GST_MINI_OBJECT_CAST (f.out));
  }
  if (f.staging)
    exec->keep (GST_MINI_OBJECT_CAST (f.staging));
  stage = "submit";
  f.fence = exec->submit (&error);
  if (!f.fence)
    goto failed;
  if (f.out)
    gst_buffer_unref (buf);
  else
    f.in = buf;
  self->pending->push_back (f);
  return GST_FLOW_OK;

failed:
  if (klass->abandoned)
    klass->abandoned (self);
post:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Failed to run %s on the Vulkan device (%s)",
          klass->kernel, stage), ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  f.clear ();
  gst_buffer_unref (buf);
  return GST_FLOW_ERROR;
}

/* ------------------------------------------------------ GstBaseTransform */

static GstFlowReturn
gpc_vk_filter_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont,
    GstBuffer * input)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  /* GstBaseTransform renegotiates where downstream asked for it, drops
   * late pictures (QoS) and leaves the others in queued_buf. */
  GstFlowReturn ret = GST_BASE_TRANSFORM_CLASS (parent_class)->submit_input_buffer (trans,
      is_discont, input);
  if (ret != GST_FLOW_OK)
    return ret;
  GstBuffer *buf = std::exchange (trans->queued_buf, nullptr);
  if (!buf)
    return GST_FLOW_OK;
  if (!self->have_info) {
    gst_buffer_unref (buf);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  return submit_frame (self, buf, is_discont);
}

/* Never called (generate_output makes every output), but GstBaseTransform
 * takes a class without a transform function for one that passes its input
 * on, which would leave allocation to upstream and downstream alone. */
static GstFlowReturn
gpc_vk_filter_transform (GstBaseTransform * trans, GstBuffer * inbuf, GstBuffer * outbuf)
{
  g_return_val_if_reached (GST_FLOW_NOT_SUPPORTED);
}

static GstFlowReturn
gpc_vk_filter_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  return self->pending->generate_output (*self->exec, self->state->frames_in_flight (), outbuf);
}

static gboolean
gpc_vk_filter_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);

  self->pending->before_sink_event (self->exec, event);
  if (self->exec && klass->drained && (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP
          || GST_EVENT_IS_SERIALIZED (event)))
    klass->drained (self, event);
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* `caps` in each memory that the other pad's template has, with the format
 * list `formats` (NULL: the same format). */
static GstCaps *
caps_in_memories (GstCaps * caps, const char *formats, GstCaps * other)
{
  GstCaps *res = gst_caps_new_empty ();
  GValue fmt = G_VALUE_INIT;
  if (formats) {
    gchar *s = g_strdup_printf ("x, format = (string) %s", formats);
    GstStructure *st = gst_structure_from_string (s, NULL);
    const GValue *v = gst_structure_get_value (st, "format");
    g_value_init (&fmt, G_VALUE_TYPE (v));
    g_value_copy (v, &fmt);
    gst_structure_free (st);
    g_free (s);
  }
  for (guint k = 0; k < gst_caps_get_size (other); k++) {
    GstCapsFeatures *features = gst_caps_get_features (other, k);
    GstCaps *c = gst_caps_copy (caps);
    for (guint i = 0; i < gst_caps_get_size (c); i++) {
      GstStructure *s = gst_caps_get_structure (c, i);
      gst_structure_remove_fields (s, "texture-target", NULL);
      if (formats) {
        gst_structure_remove_fields (s, "format", "colorimetry", "chroma-site", NULL);
        gst_structure_set_value (s, "format", &fmt);
      }
      gst_caps_set_features (c, i, gst_caps_features_copy (features));
    }
    res = gst_caps_merge (res, c);
  }
  if (formats)
    g_value_unset (&fmt);
  return res;
}

static GstCaps *
transform_memories (GstBaseTransform * trans, GstPadDirection direction, GstCaps * caps,
    GstCaps * filter)
{
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (trans);
  if (klass->analysis)
    return GST_BASE_TRANSFORM_CLASS (parent_class)->transform_caps (trans, direction, caps,
        filter);
  GstCaps *tmpl = gst_pad_get_pad_template_caps (direction == GST_PAD_SINK ?
      GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *res = caps_in_memories (caps, direction == GST_PAD_SINK ? klass->src_formats :
      klass->sink_formats, tmpl);
  GstCaps *t = gst_caps_intersect_full (res, tmpl, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (res);
  gst_caps_unref (tmpl);
  res = t;
  if (filter) {
    t = gst_caps_intersect_full (filter, res, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = t;
  }
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, res);
  return res;
}

/* What the sink pad takes is also bounded by upstream's device: Vulkan
 * memory of another device is of no use here (gpcvkcontext.h). */
static GstCaps *
gpc_vk_filter_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  GstCaps *res = transform_memories (trans, direction, caps, filter);
  if (direction == GST_PAD_SRC)
    res = gpc_vk_context_restrict_sink_caps (GST_ELEMENT (trans), &GPC_VK_FILTER (trans)->vk,
        GST_BASE_TRANSFORM_SINK_PAD (trans), res);
  return res;
}

static GpcVkOutput
output_of (GstCaps * caps)
{
  GstCapsFeatures *feat = gst_caps_get_features (caps, 0);
  if (feat && gst_caps_features_contains (feat, GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE))
    return GPC_VK_OUTPUT_IMAGE;
  if (feat && gst_caps_features_contains (feat, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER))
    return GPC_VK_OUTPUT_BUFFER;
  return GPC_VK_OUTPUT_SYSTEM;
}

static gboolean
gpc_vk_filter_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);
  GstVideoInfo in, out;

  if (!gst_video_info_from_caps (&in, incaps) || !gst_video_info_from_caps (&out, outcaps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported caps %" GST_PTR_FORMAT " to %" GST_PTR_FORMAT, incaps, outcaps));
    return FALSE;
  }
  /* A CAPS event drained the pictures in flight already; a renegotiation
   * that downstream asked for (RECONFIGURE) comes with the next picture,
   * and those before it go out in the caps they were made for. */
  if (self->exec)
    self->pending->drain (*self->exec);
  self->output = output_of (outcaps);
  self->n_planes = gpc::plane_specs_of (&in, self->planes);
  if (klass->set_info && !klass->set_info (self, &in, &out))
    return FALSE;
  if (self->have_info && !gst_video_info_is_equal (&in, &self->in_info) && self->io)
    self->io->trim ();
  self->in_info = in;
  self->out_info = out;
  self->have_info = TRUE;
  self->state->set_caps (&in);
  return TRUE;
}

/* Upstream may lay its pictures out as it likes (GstVideoMeta), and gets a
 * pool for system memory. */
static gboolean
gpc_vk_filter_propose_allocation (GstBaseTransform * trans, GstQuery * decide_query,
    GstQuery * query)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  GstCaps *caps;
  gst_query_parse_allocation (query, &caps, NULL);
  if (caps && output_of (caps) == GPC_VK_OUTPUT_SYSTEM)
    /* A picture is uploaded as it is recorded and held until it is done. */
    gpc::HostOutput::propose (query, self->state->frames_in_flight () + 1);
  else
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

/* Vulkan output is in memories of ours (1.22's pools make neither storage
 * buffers nor images); system output as gpc::HostOutput says. */
static gboolean
gpc_vk_filter_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  GstCaps *caps;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || output_of (caps) != GPC_VK_OUTPUT_SYSTEM) {
    while (gst_query_get_n_allocation_pools (query) > 0)
      gst_query_remove_nth_allocation_pool (query, 0);
    return TRUE;
  }
  /* GstBaseTransform then sets the pool's caps, size and allocator. */
  return self->host->decide (query)
      && GST_BASE_TRANSFORM_CLASS (parent_class)->decide_allocation (trans, query);
}

static gboolean
gpc_vk_filter_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);

  switch (GST_QUERY_TYPE (query)) {
    case GST_QUERY_CONTEXT:
      if (gpc_vk_context_handle_query (GST_ELEMENT (self), &self->vk, query))
        return TRUE;
      break;
    case GST_QUERY_LATENCY:
      if (direction == GST_PAD_SRC) {
        if (!GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query))
          return FALSE;
        self->state->answer_latency (query);
        return TRUE;
      }
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction, query);
}

static gboolean gpc_vk_filter_stop (GstBaseTransform * trans);

static gboolean
gpc_vk_filter_start (GstBaseTransform * trans)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);
  GError *error = NULL;
  gboolean ok = FALSE;

  if (!gpc_vk_context_ensure (GST_ELEMENT (self), &self->vk))
    return FALSE;
  self->exec = gpc::VkExec::create (self->vk.queue, &error);
  if (self->exec && !gpc::start_fault_injected (GST_ELEMENT (self), &error)) {
    self->io = new gpc::VkFrameIO (self->vk.device);
    ok = !klass->open || klass->open (self, &error);
  }
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED, ("Failed to set up %s on the Vulkan device",
            klass->kernel), ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    /* GstBaseTransform calls stop only after a start that succeeded. */
    gpc_vk_filter_stop (trans);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gpc_vk_filter_stop (GstBaseTransform * trans)
{
  GpcVkFilter *self = GPC_VK_FILTER (trans);
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);

  if (self->exec) {
    self->pending->discard (*self->exec);
    gpc::wait_idle_or_error (GST_ELEMENT (self), *self->exec);
  }
  if (klass->close)
    klass->close (self);
  delete self->io;
  self->io = nullptr;
  delete self->exec;
  self->exec = nullptr;
  self->have_info = FALSE;
  self->state->set_caps (NULL);
  return TRUE;
}

/* ---------------------------------------------------------- GstElement */

static void
gpc_vk_filter_set_context (GstElement * element, GstContext * context)
{
  GpcVkFilter *self = GPC_VK_FILTER (element);
  gpc_vk_context_set_context (element, &self->vk, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static GstStateChangeReturn
gpc_vk_filter_change_state (GstElement * element, GstStateChange transition)
{
  GpcVkFilter *self = GPC_VK_FILTER (element);
  GstStateChangeReturn ret = GST_ELEMENT_CLASS (parent_class)->change_state (element,
      transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gpc_vk_context_clear (&self->vk);
  return ret;
}

/* device-index, device-name and frames-in-flight: read, or written where `set`. */
static void
access_property (GObject * object, guint prop_id, GValue * value, GParamSpec * pspec,
    bool set)
{
  GpcVkFilter *self = GPC_VK_FILTER (object);

  GST_OBJECT_LOCK (self);
  const bool vk = set ? gpc_vk_context_set_property (&self->vk, prop_id, PROP_DEVICE_INDEX, value)
                     : gpc_vk_context_get_property (&self->vk, prop_id, PROP_DEVICE_INDEX, value);
  if (!vk && prop_id == PROP_FRAMES_IN_FLIGHT && set)
    self->state->set_property (value);
  else if (!vk && prop_id == PROP_FRAMES_IN_FLIGHT)
    self->state->get_property (value);
  else if (!vk)
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
  GST_OBJECT_UNLOCK (self);
}

static void
gpc_vk_filter_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  access_property (object, prop_id, (GValue *) value, pspec, true);
}

static void
gpc_vk_filter_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  access_property (object, prop_id, value, pspec, false);
}

static void
gpc_vk_filter_finalize (GObject * object)
{
  GpcVkFilter *self = GPC_VK_FILTER (object);
  delete self->pending;
  delete self->state;
  delete self->host;
  gpc_vk_context_clear (&self->vk);
  gpc_field_props_free (object);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gpc_vk_filter_init (GpcVkFilter * self)
{
  gpc_vk_context_init (&self->vk);
  gst_video_info_init (&self->in_info);
  gst_video_info_init (&self->out_info);
  self->state = new gpc::FilterState ();
  self->host = new gpc::HostOutput ();
  /* A filter that makes pictures drops those that would be late anyway, as
   * videoconvert does; analysers turn this off. */
  gst_base_transform_set_qos_enabled (GST_BASE_TRANSFORM (self), TRUE);
}

/* The pending-frame queue needs the class's texts: made once the instance
 * has its final class. */
static void
gpc_vk_filter_constructed (GObject * object)
{
  GpcVkFilter *self = GPC_VK_FILTER (object);
  GpcVkFilterClass *klass = GPC_VK_FILTER_GET_CLASS (self);
  self->pending = new gpc::PendingFrames (GST_ELEMENT (self), GST_BASE_TRANSFORM_SRC_PAD (self),
      klass->doing, [self] (gpc::PendingFrame & f, GstFlowReturn * ret) {
        return complete_frame (self, f, ret);
      });
  G_OBJECT_CLASS (parent_class)->constructed (object);
}

void
gpc_vk_filter_class_add_pad_templates (GpcVkFilterClass * klass, GstCaps * sink, GstCaps * src)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, src));
  gst_caps_unref (sink);
  if (src != sink)
    gst_caps_unref (src);
}

static void
gpc_vk_filter_class_init (GpcVkFilterClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gpc_vk_filter_debug, "gpcvkfilter", 0, "Vulkan filter base class");

  gobject_class->set_property = gpc_vk_filter_set_property;
  gobject_class->get_property = gpc_vk_filter_get_property;
  gobject_class->constructed = gpc_vk_filter_constructed;
  gobject_class->finalize = gpc_vk_filter_finalize;

  gpc_vk_context_install_properties (gobject_class, PROP_DEVICE_INDEX);
  gpc::FilterState::install_property (gobject_class, PROP_FRAMES_IN_FLIGHT, "Pictures",
      "picture");

  element_class->set_context = GST_DEBUG_FUNCPTR (gpc_vk_filter_set_context);
  element_class->change_state = GST_DEBUG_FUNCPTR (gpc_vk_filter_change_state);

  trans_class->start = GST_DEBUG_FUNCPTR (gpc_vk_filter_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gpc_vk_filter_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gpc_vk_filter_set_caps);
  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gpc_vk_filter_transform_caps);
  trans_class->propose_allocation = GST_DEBUG_FUNCPTR (gpc_vk_filter_propose_allocation);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gpc_vk_filter_decide_allocation);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gpc_vk_filter_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gpc_vk_filter_query);
  trans_class->submit_input_buffer = GST_DEBUG_FUNCPTR (gpc_vk_filter_submit_input_buffer);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gpc_vk_filter_generate_output);
  trans_class->transform = GST_DEBUG_FUNCPTR (gpc_vk_filter_transform);
  trans_class->passthrough_on_same_caps = FALSE;

  klass->kernel = "the kernel";
  klass->doing = "filtering";
  klass->unit = "picture";

  gst_type_mark_as_plugin_api (GPC_TYPE_VK_FILTER, (GstPluginAPIFlags) 0);
}
