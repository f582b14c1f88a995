/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-vkvvcalf
 * @title: vkvvcalf
 *
 * Applies the H.266/VVC adaptive loop filter (luma ALF with 4x4
 * classification, chroma ALF and CC-ALF, virtual boundaries, slice / tile /
 * subpicture edges) to each picture on a Vulkan device, bit-exact with the
 * CPU reference of gst/vvcalf (and so with the JVET conformance pictures).
 *
 * Input pictures are the pre-ALF reconstruction; output pictures are new
 * buffers (the input is never modified). The ALF parameters of a picture
 * come from, per #GstVkVvcAlf:params-source:
 * - a #GstVvcAlfMeta on the input buffer (what a VVC decoder attaches),
 * - vvc-alf-params JSON files (#GstVkVvcAlf:params-location): either one
 *   file used for every picture, or a printf-style pattern with one integer
 *   conversion (e.g. `params-%05d.json`) expanded with the picture index
 *   (pictures counted from 0 since the element started, plus
 *   #GstVkVvcAlf:params-first-index),
 * - synthetic parameters (#GstVkVvcAlf:ctb-size,
 *   #GstVkVvcAlf:fixed-filter-set and the per-component switches): every CTB
 *   uses one fixed luma filter set and one built-in chroma / CC-ALF filter.
 *
 * 4:0:0 at 10 or 12 bits comes as GRAY16_LE, whose bit depth is the
 * parameters' (synthetic ones: #GstVkVvcAlf:gray16-depth).
 *
 * The picture size must be a multiple of 8 (as in H.266) and must match the
 * parameters, as must the chroma format and bit depth; invalid or
 * inconsistent parameters stop the stream with an error, nothing is filtered
 * with them.
 *
 * Input may be system memory (uploaded), Vulkan buffers (bound directly when
 * they have storage usage, else copied on the GPU) or, for 8-bit formats,
 * Vulkan images (copied on the GPU). Output is Vulkan buffers (one
 * storage-capable buffer per plane with a #GstVideoMeta; no readback) when
 * downstream accepts them, else system memory. Several pictures are kept in
 * flight (#GpcVkFilter:frames-in-flight).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=pre.yuv ! rawvideoparse format=i420-10le width=1280 height=720 ! \
 *     vkvvcalf params-location=params-%05d.json ! filesink location=post.yuv
 * gst-launch-1.0 videotestsrc num-buffers=100 ! video/x-raw,format=I420_10LE,width=1920,height=1080 ! \
 *     vkvvcalf fixed-filter-set=5 ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvkvvcalf.h"

#include <string>

#include "compute/gpcvkcopy.h"
#include "gstvkfilter.h"
#include "fieldprops.h"
#include "gstvvcalfmeta.h"
#include "vkalfkernel.h"
#include "vkalfparams.h"
#include "vvcalf-builder.h"
#include "vvcalf-derive.h"
#include "vvcalf-json.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_vvc_alf_debug);
#define GST_CAT_DEFAULT gst_vk_vvc_alf_debug

#define FORMATS "GRAY8, GRAY16_LE, I420, I420_10LE, I420_12LE, Y42B, I422_10LE, " \
    "I422_12LE, Y444, Y444_10LE, Y444_12LE"
#define FORMATS_8BIT "GRAY8, I420, Y42B, Y444"
#define SIZE_CAPS ", width = (int) [ 8, 16384 ], height = (int) [ 8, 16384 ], " \
    "framerate = (fraction) [ 0, max ]"

enum
{
  PROP_0,
  PROP_PARAMS_SOURCE,
  PROP_PARAMS_LOCATION,
  PROP_PARAMS_FIRST_INDEX,
  PROP_CTB_SIZE,
  PROP_FIXED_FILTER_SET,
  PROP_LUMA,
  PROP_CB,
  PROP_CR,
  PROP_CC_CB,
  PROP_CC_CR,
  PROP_GRAY16_DEPTH,
};

struct _GstVkVvcAlf
{
  GpcVkFilter parent;

  /* properties */
  GpcAlfParamsSource params_source;
  gchar *params_location;
  guint params_first_index;
  guint ctb_size;
  gint fixed_filter_set;
  gboolean enable[5];           /* luma, cb, cr, cc-cb, cc-cr */
  guint gray16_depth;

  gpc::VkAlfKernel * kernel;
  GstVvcAlfChromaFormat chroma_format;
  guint bit_depth;              /* 0: GRAY16_LE, the parameters say */

  gpc::VvcAlfParams * synth;    /* built at set_info, or NULL */
  gchar *synth_error;
  gpc::VvcAlfParams * last;     /* parameters in params_buf */
  GstBuffer *params_buf;
  guint64 picture_index;
};

#define gst_vk_vvc_alf_parent_class parent_class
G_DEFINE_TYPE (GstVkVvcAlf, gst_vk_vvc_alf, GPC_TYPE_VK_FILTER);
GST_ELEMENT_REGISTER_DEFINE (vkvvcalf, "vkvvcalf", GST_RANK_NONE, GST_TYPE_VK_VVC_ALF);

static const char *enable_names[5] = { "luma", "cb", "cr", "cc-cb", "cc-cr" };

/* ------------------------------------------------------------ parameters */

static gboolean
build_synthetic (GstVkVvcAlf * self, const GstVideoInfo * info)
{
  gpc::VvcAlfSyntheticConfig cfg;
  cfg.width = GST_VIDEO_INFO_WIDTH (info);
  cfg.height = GST_VIDEO_INFO_HEIGHT (info);
  cfg.chroma_format = self->chroma_format;
  /* Properties are set from other threads (READY only, but unordered
   * with this one without the lock). */
  GST_OBJECT_LOCK (self);
  cfg.bit_depth = self->bit_depth ? self->bit_depth : self->gray16_depth;
  cfg.ctb_size = self->ctb_size;
  cfg.y = self->enable[0] && self->fixed_filter_set >= 0;
  cfg.fixed_set = self->fixed_filter_set >= 0 ? self->fixed_filter_set : 0;
  cfg.cb = self->enable[1];
  cfg.cr = self->enable[2];
  cfg.cc_cb = self->enable[3];
  cfg.cc_cr = self->enable[4];
  GST_OBJECT_UNLOCK (self);
  std::string err;
  delete self->synth;
  self->synth = new gpc::VvcAlfParams ();
  g_clear_pointer (&self->synth_error, g_free);
  if (!gpc::vvc_alf_build_synthetic (cfg, *self->synth, err)) {
    delete self->synth;
    self->synth = nullptr;
    self->synth_error = g_strdup (err.c_str ());
    return FALSE;
  }
  return TRUE;
}

/* The parameters of picture @buf: points @params at them (@storage holds
 * parameters read for this picture). FALSE with an element error posted. */
static gboolean
resolve_params (GstVkVvcAlf * self, GstBuffer * buf, gpc::VvcAlfParams & storage,
    const gpc::VvcAlfParams ** params)
{
  std::string err, path;
  const char *what;
  GST_OBJECT_LOCK (self);
  gchar *location = g_strdup (self->params_location);
  gpc::AlfParamsRequest r = { self->params_source, location,
    self->params_first_index + self->picture_index, gst_buffer_get_vvc_alf_meta (buf),
    self->synth, self->synth_error };
  GST_OBJECT_UNLOCK (self);
  *params = gpc::alf_params_for (r, storage, &what, &path, err);
  g_free (location);
  if (*params) {
    err = gpc::alf_params_mismatch ((*params)->pic, &GPC_VK_FILTER (self)->in_info,
        self->chroma_format, self->bit_depth);
    if (!err.empty ())
      *params = nullptr;
  }
  if (!*params) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Invalid ALF parameters (%s) for picture %" G_GUINT64_FORMAT, what,
            self->picture_index), ("%s", err.c_str ()));
    return FALSE;
  }
  if (!path.empty ())
    GST_LOG_OBJECT (self, "picture %" G_GUINT64_FORMAT ": %s", self->picture_index, path.c_str ());
  return TRUE;
}


/* -------------------------------------------------------------- GPU side */

/* Output planes: one device-local storage buffer per plane with a
 * GstVideoMeta (Vulkan output), or the download target in the caps'
 * layout (system output). */
static gboolean
alloc_output (GstVkVvcAlf * self, gpc::PendingFrame * f, gpc::AlfPlane planes[3],
    GError ** error)
{
  GpcVkFilter *filter = GPC_VK_FILTER (self);
  const GstVideoInfo *info = &filter->in_info;
  const guint n = GST_VIDEO_INFO_N_PLANES (info);
  if (filter->output == GPC_VK_OUTPUT_SYSTEM) {
    GstVulkanBufferMemory *m = gpc_vk_filter_download_target (filter, f, error);
    if (!m)
      return FALSE;
    for (guint p = 0; p < n; p++)
      planes[p] = { m, (guint32) GST_VIDEO_INFO_PLANE_OFFSET (info, p),
        (guint32) GST_VIDEO_INFO_PLANE_STRIDE (info, p) };
    return TRUE;
  }
  f->out = gst_buffer_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = { 0 }, total = 0;
  gint stride[GST_VIDEO_MAX_PLANES] = { 0 };
  for (guint p = 0; p < n; p++) {
    stride[p] = GST_VIDEO_INFO_PLANE_STRIDE (info, p);
    gsize size = (gsize) stride[p] * GST_VIDEO_INFO_COMP_HEIGHT (info, p);
    GstMemory *mem = filter->io->outputs ().buffer (size, gpc::VkMemKind::Device, error);
    if (!mem)
      return FALSE;
    gst_buffer_append_memory (f->out, mem);
    planes[p] = { (GstVulkanBufferMemory *) mem, 0, (guint32) stride[p] };
    offset[p] = total;
    total += size;
  }
  gst_buffer_add_video_meta_full (f->out, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), n, offset, stride);
  return TRUE;
}

/* The picture's parameters (uploaded again only when they change), its
 * output and the filter. */
static gboolean
gst_vk_vvc_alf_record (GpcVkFilter * filter, GstBuffer * buf, gpc::StoragePlane * planes,
    gpc::PendingFrame * f, const char **stage, GError ** error)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (filter);
  gpc::VkExec * exec = filter->exec;
  gpc::VvcAlfParams storage;
  const gpc::VvcAlfParams * params = nullptr;
  gpc::AlfPlane in[3] = { }, out[3] = { };
  const guint n = GST_VIDEO_INFO_N_PLANES (&filter->in_info);

  if (!resolve_params (self, buf, storage, &params))
    return FALSE;
  self->picture_index++;

  if (!self->params_buf || !gpc::alf_same_params (*self->last, *params)) {
    /* Derived blocks are valid by construction; re-check what the GPU is
     * about to index with (cheap, and only when the parameters change). */
    std::string bad = gpc::vvc_alf_params_check (*params);
    if (!bad.empty ()) {
      GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Inconsistent ALF parameters"),
          ("%s", bad.c_str ()));
      return FALSE;
    }
    gst_clear_buffer (&self->params_buf);
    *stage = "parameter upload";
    self->params_buf = gpc::VkAlfKernel::upload_params (exec, *params,
        &filter->io->staging_cache (), &filter->io->device_cache (), error);
    if (!self->params_buf)
      return FALSE;
    *self->last = *params;
  } else {
    exec->keep (GST_MINI_OBJECT_CAST (self->params_buf));
  }

  for (guint p = 0; p < n; p++)
    in[p] = { planes[p].mem, planes[p].offset, planes[p].stride };
  *stage = "output allocation";
  if (!alloc_output (self, f, out, error))
    return FALSE;
  for (guint p = 0; p < n; p++) {
    if (p == 0 || out[p].mem != out[0].mem)
      exec->barrier (out[p].mem, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT);
  }
  *stage = "dispatch";
  if (!self->kernel->dispatch (exec, in, out, gpc::vk_buffer_memory (self->params_buf),
          params->pic, GST_VIDEO_INFO_COMP_DEPTH (&filter->in_info, 0) > 8, error))
    return FALSE;
  if (f->staging)
    gpc::vk_ready_for_host (exec, out[0].mem);
  return TRUE;
}

/* A parameter upload recorded with the picture may not have run. */
static void
gst_vk_vvc_alf_abandoned (GpcVkFilter * filter)
{
  gst_clear_buffer (&GST_VK_VVC_ALF (filter)->params_buf);
}

static gboolean
gst_vk_vvc_alf_set_info (GpcVkFilter * filter, const GstVideoInfo * info,
    const GstVideoInfo * out_info)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (filter);
  GstVvcAlfChromaFormat cf;
  guint depth;

  if (!gpc::alf_layout_of (info, &cf, &depth)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported format %s", GST_VIDEO_INFO_NAME (info)));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (info) % 8 || GST_VIDEO_INFO_HEIGHT (info) % 8) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("ALF needs a picture size that is a multiple of 8 (got %dx%d)",
            GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info)), (NULL));
    return FALSE;
  }
  self->chroma_format = cf;
  self->bit_depth = depth;
  if (!build_synthetic (self, info))
    GST_DEBUG_OBJECT (self, "no synthetic parameters for these caps: %s", self->synth_error);
  GST_INFO_OBJECT (self, "%s %dx%d, output in %s memory",
      GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info),
      filter->output == GPC_VK_OUTPUT_BUFFER ? "Vulkan buffer" : "system");
  return TRUE;
}

static gboolean
gst_vk_vvc_alf_open (GpcVkFilter * filter, GError ** error)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (filter);
  self->kernel = gpc::VkAlfKernel::create (filter->vk.device, error);
  self->last = new gpc::VvcAlfParams ();
  self->picture_index = 0;
  return self->kernel != nullptr;
}

static void
gst_vk_vvc_alf_close (GpcVkFilter * filter)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (filter);
  gst_clear_buffer (&self->params_buf);
  delete self->kernel;
  self->kernel = nullptr;
  delete self->synth;
  self->synth = nullptr;
  delete self->last;
  self->last = nullptr;
  g_clear_pointer (&self->synth_error, g_free);
}

/* ---------------------------------------------------------- GObject */

static void
gst_vk_vvc_alf_init (GstVkVvcAlf * self)
{
  gpc_field_props_reset (G_OBJECT (self));
}

static void
gst_vk_vvc_alf_class_init (GstVkVvcAlfClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GpcVkFilterClass *filter_class = GPC_VK_FILTER_CLASS (klass);
  const GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY);

  GST_DEBUG_CATEGORY_INIT (gst_vk_vvc_alf_debug, "vkvvcalf", 0,
      "VVC adaptive loop filter on Vulkan");

  GPC_FIELD_PROP (gobject_class, PROP_PARAMS_SOURCE, GstVkVvcAlf, params_source,
      g_param_spec_enum ("params-source", "Parameters source",
          "Where each picture's ALF parameters come from",
          GPC_TYPE_ALF_PARAMS_SOURCE, GPC_ALF_PARAMS_AUTO, rw));
  GPC_FIELD_PROP (gobject_class, PROP_PARAMS_LOCATION, GstVkVvcAlf, params_location,
      g_param_spec_string ("params-location", "Parameters location",
          "vvc-alf-params JSON file used for every picture, or a printf-style "
          "pattern with one integer conversion (e.g. params-%05d.json) expanded "
          "with the picture index (pictures since start + params-first-index)",
          NULL, rw));
  GPC_FIELD_PROP (gobject_class, PROP_PARAMS_FIRST_INDEX, GstVkVvcAlf,
      params_first_index,
      g_param_spec_uint ("params-first-index", "Parameters first index",
          "Index the params-location pattern gets for the first picture",
          0, G_MAXINT, 0, rw));
  GPC_FIELD_PROP (gobject_class, PROP_CTB_SIZE, GstVkVvcAlf, ctb_size,
      g_param_spec_uint ("ctb-size", "CTB size",
          "Synthetic parameters: CTB size in luma samples (32, 64 or 128)",
          32, 128, 128, rw));
  GPC_FIELD_PROP (gobject_class, PROP_FIXED_FILTER_SET, GstVkVvcAlf, fixed_filter_set,
      g_param_spec_int ("fixed-filter-set", "Fixed filter set",
          "Synthetic parameters: the fixed luma filter set every CTB uses "
          "(-1: luma ALF off)", -1, 15, 0, rw));
  static const char *blurbs[5] = {
    "Synthetic parameters: luma ALF in every CTB (with fixed-filter-set >= 0)",
    "Synthetic parameters: Cb ALF in every CTB",
    "Synthetic parameters: Cr ALF in every CTB",
    "Synthetic parameters: CC-ALF on Cb in every CTB",
    "Synthetic parameters: CC-ALF on Cr in every CTB",
  };
  for (int k = 0; k < 5; k++)
    gpc_field_prop_install (gobject_class, PROP_LUMA + k,
        g_param_spec_boolean (enable_names[k], enable_names[k], blurbs[k], TRUE, rw),
        offsetof (GstVkVvcAlf, enable) + k * sizeof (gboolean), sizeof (gboolean));
  GPC_FIELD_PROP (gobject_class, PROP_GRAY16_DEPTH, GstVkVvcAlf, gray16_depth,
      g_param_spec_uint ("gray16-depth", "GRAY16_LE bit depth",
          "Synthetic parameters: the bit depth of GRAY16_LE pictures (4:0:0 in "
          "16-bit words; parameters from metas and files give their own)", 9, 12, 10, rw));

  GstCaps *sink = gst_caps_from_string (
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER "), format = (string) { "
      FORMATS " }" SIZE_CAPS "; "
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "), format = (string) { "
      FORMATS_8BIT " }" SIZE_CAPS "; "
      "video/x-raw, format = (string) { " FORMATS " }" SIZE_CAPS);
  GstCaps *src = gst_caps_from_string (
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER "), format = (string) { "
      FORMATS " }" SIZE_CAPS "; "
      "video/x-raw, format = (string) { " FORMATS " }" SIZE_CAPS);
  gpc_vk_filter_class_add_pad_templates (filter_class, sink, src);

  gst_element_class_set_static_metadata (element_class,
      "Vulkan VVC adaptive loop filter", "Filter/Effect/Video/Hardware",
      "Applies the H.266/VVC adaptive loop filter (luma, chroma, CC-ALF) on a "
      "Vulkan device, bit-exact with the specification",
      "gst-gpucodecs developers");

  filter_class->kernel = "the ALF kernel";
  filter_class->doing = "filtering";
  filter_class->open = gst_vk_vvc_alf_open;
  filter_class->close = gst_vk_vvc_alf_close;
  filter_class->set_info = gst_vk_vvc_alf_set_info;
  filter_class->record = gst_vk_vvc_alf_record;
  filter_class->abandoned = gst_vk_vvc_alf_abandoned;

  gst_type_mark_as_plugin_api (GPC_TYPE_ALF_PARAMS_SOURCE, (GstPluginAPIFlags) 0);
}
