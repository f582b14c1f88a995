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
 * flight (#GstVkVvcAlf:frames-in-flight).
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

#include <gst/video/video.h>
#include "compute/gpcvk.h"

#include <string.h>

#include <string>
#include <vector>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkplane.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "vkalfkernel.h"
#include "gstvvcalfmeta.h"
#include "vvcalf-builder.h"
#include "vvcalf-derive.h"
#include "vvcalf-json.h"
#include "pendingframes.h"
#include "vkfilter.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_vvc_alf_debug);
#define GST_CAT_DEFAULT gst_vk_vvc_alf_debug


#define FORMATS "GRAY8, I420, I420_10LE, I420_12LE, Y42B, I422_10LE, I422_12LE, " \
    "Y444, Y444_10LE, Y444_12LE"
#define FORMATS_8BIT "GRAY8, I420, Y42B, Y444"
#define SIZE_CAPS ", width = (int) [ 8, 16384 ], height = (int) [ 8, 16384 ], " \
    "framerate = (fraction) [ 0, max ]"

enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
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
  PROP_FRAMES_IN_FLIGHT,
};

namespace {

typedef enum
{
  PARAMS_SOURCE_AUTO,
  PARAMS_SOURCE_META,
  PARAMS_SOURCE_FILE,
  PARAMS_SOURCE_SYNTHETIC,
} ParamsSource;

#define GST_TYPE_VK_VVC_ALF_PARAMS_SOURCE (params_source_get_type ())
static GType
params_source_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {PARAMS_SOURCE_AUTO, "The buffer's GstVvcAlfMeta if it has one, else "
          "params-location if set, else synthetic", "auto"},
    {PARAMS_SOURCE_META, "GstVvcAlfMeta on every buffer (error without)", "meta"},
    {PARAMS_SOURCE_FILE, "vvc-alf-params JSON file(s) at params-location", "file"},
    {PARAMS_SOURCE_SYNTHETIC, "Synthetic parameters from the ctb-size, "
          "fixed-filter-set and component properties", "synthetic"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkVvcAlfParamsSource", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

/* Device-local output planes, recycled once nobody holds them (memory
 * reference count: buffers downstream may be copied, their memory shared). */
class OutMemCache
{
public:
  explicit OutMemCache (GstVulkanDevice * d) : device_ ((GstVulkanDevice *) gst_object_ref (d)) {}
  ~OutMemCache () { trim (); gst_object_unref (device_); }
  GstMemory *acquire (gsize size, GError ** error)
  {
    for (GstMemory * m : all_) {
      if (GST_MINI_OBJECT_REFCOUNT_VALUE (m) == 1 && gst_memory_get_sizes (m, NULL, NULL) == size)
        return gst_memory_ref (m);
    }
    GstMemory *m = gpc::vk_storage_alloc (device_, size, false, error);
    if (!m)
      return NULL;
    all_.push_back (m);
    return gst_memory_ref (m);
  }
  void trim ()
  {
    std::vector < GstMemory * >keep;
    for (GstMemory * m : all_) {
      if (GST_MINI_OBJECT_REFCOUNT_VALUE (m) == 1)
        gst_memory_unref (m);
      else
        keep.push_back (m);
    }
    /* Memories still held elsewhere are dropped from the cache: their last
     * holder frees them. */
    for (GstMemory * m : keep)
      gst_memory_unref (m);
    all_.clear ();
  }
private:
  GstVulkanDevice *device_;
  std::vector < GstMemory * >all_;
};

} // namespace

struct _GstVkVvcAlf
{
  GstBaseTransform parent;

  /* properties */
  ParamsSource params_source;
  gchar *params_location;
  guint params_first_index;
  guint ctb_size;
  gint fixed_filter_set;
  gboolean enable[5];           /* luma, cb, cr, cc-cb, cc-cr */

  GpcVkContext vk;
  gpc::VkExec * exec;
  gpc::VkAlfKernel * kernel;
  gpc::VkBufferCache * device_cache;
  gpc::VkBufferCache * staging_cache;
  OutMemCache *out_cache;

  GstVideoInfo info;
  gboolean have_info;
  gpc::FilterState *state;      /* what other threads read: FilterState */
  gboolean vulkan_out;
  GstVvcAlfChromaFormat chroma_format;
  guint bit_depth;
  gboolean location_is_pattern;

  gpc::VvcAlfParams * synth;    /* built at set_caps, or NULL */
  gchar *synth_error;
  gpc::VvcAlfParams * last;     /* parameters in params_buf */
  GstBuffer *params_buf;
  guint64 picture_index;

  gpc::PendingFrames *pending;
};

#define gst_vk_vvc_alf_parent_class parent_class
G_DEFINE_TYPE (GstVkVvcAlf, gst_vk_vvc_alf, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (vkvvcalf, "vkvvcalf", GST_RANK_NONE, GST_TYPE_VK_VVC_ALF);

static const char *enable_names[5] = { "luma", "cb", "cr", "cc-cb", "cc-cr" };

/* ------------------------------------------------------------ parameters */

/* TRUE when @pattern has exactly one integer conversion (%d, %05u, ...)
 * and otherwise only "%%": then it names one file per picture. Any other
 * conversion is refused (FALSE, with @bad set). */
static gboolean
parse_location_pattern (const gchar * pattern, gboolean * bad)
{
  int conversions = 0;
  *bad = FALSE;
  for (const gchar * p = pattern; *p; p++) {
    if (*p != '%')
      continue;
    p++;
    if (*p == '%')
      continue;
    while (*p == '0' || *p == '-' || *p == ' ' || *p == '+')
      p++;
    while (g_ascii_isdigit (*p))
      p++;
    if (*p != 'd' && *p != 'u' && *p != 'i') {
      *bad = TRUE;
      return FALSE;
    }
    conversions++;
  }
  if (conversions > 1)
    *bad = TRUE;
  return conversions == 1;
}

/* Chroma format and bit depth a raw video format carries. */
static gboolean
format_alf_layout (const GstVideoInfo * info, GstVvcAlfChromaFormat * cf, guint * depth)
{
  const GstVideoFormatInfo *f = info->finfo;
  if (!GST_VIDEO_FORMAT_INFO_IS_YUV (f) && !GST_VIDEO_FORMAT_INFO_IS_GRAY (f))
    return FALSE;
  *depth = GST_VIDEO_FORMAT_INFO_DEPTH (f, 0);
  if (GST_VIDEO_FORMAT_INFO_N_COMPONENTS (f) == 1)
    *cf = GST_VVC_ALF_CHROMA_400;
  else if (f->w_sub[1] == 1 && f->h_sub[1] == 1)
    *cf = GST_VVC_ALF_CHROMA_420;
  else if (f->w_sub[1] == 1 && f->h_sub[1] == 0)
    *cf = GST_VVC_ALF_CHROMA_422;
  else if (f->w_sub[1] == 0 && f->h_sub[1] == 0)
    *cf = GST_VVC_ALF_CHROMA_444;
  else
    return FALSE;
  return *depth >= 8 && *depth <= 12;
}

static gboolean
build_synthetic (GstVkVvcAlf * self)
{
  gpc::VvcAlfSyntheticConfig cfg;
  cfg.width = GST_VIDEO_INFO_WIDTH (&self->info);
  cfg.height = GST_VIDEO_INFO_HEIGHT (&self->info);
  cfg.chroma_format = self->chroma_format;
  cfg.bit_depth = self->bit_depth;
  /* Properties are set from other threads (READY only, but unordered
   * with this one without the lock). */
  GST_OBJECT_LOCK (self);
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
  std::string err;
  GstVvcAlfMeta *meta = gst_buffer_get_vvc_alf_meta (buf);
  GST_OBJECT_LOCK (self);
  ParamsSource src = self->params_source;
  gchar *location = g_strdup (self->params_location);
  const guint first_index = self->params_first_index;
  GST_OBJECT_UNLOCK (self);
  if (src == PARAMS_SOURCE_AUTO)
    src = meta ? PARAMS_SOURCE_META : location ? PARAMS_SOURCE_FILE : PARAMS_SOURCE_SYNTHETIC;
  const char *what = "synthetic parameters";
  gchar *path = NULL;

  switch (src) {
    case PARAMS_SOURCE_META:
      what = "GstVvcAlfMeta";
      if (!meta) {
        err = "the buffer has no GstVvcAlfMeta";
        break;
      }
      if (gpc::vvc_alf_params_from_meta (*meta, storage, err))
        *params = &storage;
      break;
    case PARAMS_SOURCE_FILE:
      what = "vvc-alf-params file";
      if (!location) {
        err = "params-location is not set";
        break;
      }
      gboolean bad;
      self->location_is_pattern = parse_location_pattern (location, &bad);
      if (bad) {
        err = std::string ("params-location \"") + location +
            "\" must hold at most one integer conversion (like %05d); write %% for a literal %";
        break;
      }
      if (self->location_is_pattern)
        path = g_strdup_printf (location, (int) (first_index + self->picture_index));
      else
        path = g_strdup (location);
      if (gpc::vvc_alf_params_from_json_file (path, storage, err))
        *params = &storage;
      else
        err = std::string (path) + ": " + err;
      break;
    default:
      if (self->synth)
        *params = self->synth;
      else
        err = self->synth_error ? self->synth_error : "not built";
      break;
  }
  g_free (location);
  if (*params) {
    const gpc::VvcAlfPicParams & p = (*params)->pic;
    if (p.width != GST_VIDEO_INFO_WIDTH (&self->info)
        || p.height != GST_VIDEO_INFO_HEIGHT (&self->info)
        || p.chroma_format != (int) self->chroma_format
        || p.bit_depth != (int) self->bit_depth) {
      /* sps_chroma_format_idc, named as the caps would say it */
      static const char *const kChroma[] = { "4:0:0", "4:2:0", "4:2:2", "4:4:4" };
      const char *chroma = p.chroma_format >= 0 && p.chroma_format < 4 ? kChroma[p.chroma_format] : "?";
      err = "parameters for a " + std::to_string (p.width) + "x" +
          std::to_string (p.height) + " " + chroma + " " + std::to_string (p.bit_depth) +
          "-bit picture do not match the caps (" + std::to_string (GST_VIDEO_INFO_WIDTH (&self->info)) +
          "x" + std::to_string (GST_VIDEO_INFO_HEIGHT (&self->info)) + " " +
          gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&self->info)) + ")";
      *params = nullptr;
    }
  }
  if (!*params) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Invalid ALF parameters (%s) for picture %" G_GUINT64_FORMAT, what,
            self->picture_index), ("%s", err.c_str ()));
    g_free (path);
    return FALSE;
  }
  if (path)
    GST_LOG_OBJECT (self, "picture %" G_GUINT64_FORMAT ": %s", self->picture_index, path);
  g_free (path);
  return TRUE;
}

static bool
same_params (const gpc::VvcAlfParams & a, const gpc::VvcAlfParams & b)
{
  return a.ctbs.size () == b.ctbs.size ()
      && memcmp (&a.pic, &b.pic, sizeof (a.pic)) == 0
      && memcmp (a.ctbs.data (), b.ctbs.data (),
      a.ctbs.size () * sizeof (gpc::VvcAlfCtbParams)) == 0;
}

/* -------------------------------------------------------------- GPU side */

/* Records what makes plane @p of @buf readable as a storage buffer in @out:
 * bound directly when it is one, else copied on the GPU (Vulkan buffers and
 * images), through gpcvkplane. */
static gboolean
prepare_vulkan_plane (GstVkVvcAlf * self, GstBuffer * buf, guint p, gpc::AlfPlane * out,
    GError ** error)
{
  gpc::VkExec * exec = self->exec;
  const guint w = GST_VIDEO_INFO_COMP_WIDTH (&self->info, p);
  const guint h = GST_VIDEO_INFO_COMP_HEIGHT (&self->info, p);
  const guint pstride = GST_VIDEO_INFO_COMP_PSTRIDE (&self->info, p);
  const gsize row_bytes = (gsize) w * pstride;
  GstMemory *mem;
  gsize offset;
  gint stride;

  /* Images: one per plane, in plane order (vulkanupload's layout). */
  if (gst_is_vulkan_image_memory (gst_buffer_peek_memory (buf, 0))) {
    if (gst_buffer_n_memory (buf) != GST_VIDEO_INFO_N_PLANES (&self->info)) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "%u Vulkan images for %u planes", gst_buffer_n_memory (buf),
          GST_VIDEO_INFO_N_PLANES (&self->info));
      return FALSE;
    }
    mem = gst_buffer_peek_memory (buf, p);
    offset = 0;
    stride = 0;
  } else if (!gpc::video_plane_location (buf, &self->info, p, &mem, &offset, &stride)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the buffer has no plane %u", p);
    return FALSE;
  }

  /* Planes are read by this submission only: drop the holder once the
   * commands that keep it alive are recorded. */
  gpc::StoragePlane sp;
  if (!gpc::vk_plane_for_compute (exec, self->device_cache, buf, mem, offset, stride,
          row_bytes, h, pstride, &sp, error))
    return FALSE;
  *out = { sp.mem, sp.offset, sp.stride };
  sp.clear ();
  return TRUE;
}

/* System memory: every plane into one staging buffer, then one copy to
 * device memory (gpcvkplane). */
static gboolean
upload_system_frame (GstVkVvcAlf * self, GstBuffer * buf, gpc::AlfPlane planes[3],
    GError ** error)
{
  const GstVideoInfo *info = &self->info;
  GstVideoFrame frame;
  if (!gst_video_frame_map (&frame, info, buf, GST_MAP_READ)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "could not map the input picture");
    return FALSE;
  }
  const guint n = GST_VIDEO_INFO_N_PLANES (info);
  gpc::HostPlane hp[3];
  for (guint p = 0; p < n; p++)
    hp[p] = { (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p),
      (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p),
      (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, p) * GST_VIDEO_INFO_COMP_PSTRIDE (info, p),
      (guint) GST_VIDEO_INFO_COMP_HEIGHT (info, p) };
  gpc::StoragePlane sp[3];
  gboolean ok = gpc::vk_upload_planes (self->exec, self->staging_cache, self->device_cache,
      hp, n, sp, error);
  gst_video_frame_unmap (&frame);
  for (guint p = 0; ok && p < n; p++)
    planes[p] = { sp[p].mem, sp[p].offset, sp[p].stride };
  for (guint p = 0; p < n; p++)
    sp[p].clear ();
  return ok;
}

/* Output buffers: one device-local storage buffer per plane (Vulkan
 * output), or one host-visible buffer in the caps' layout (system output). */
static gboolean
alloc_output (GstVkVvcAlf * self, gpc::PendingFrame * f, gpc::AlfPlane planes[3], GError ** error)
{
  const GstVideoInfo *info = &self->info;
  const guint n = GST_VIDEO_INFO_N_PLANES (info);
  if (!self->vulkan_out) {
    f->staging = self->staging_cache->acquire (GST_VIDEO_INFO_SIZE (info), error);
    if (!f->staging)
      return FALSE;
    GstVulkanBufferMemory *m = gpc::vk_buffer_memory (f->staging);
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
    GstMemory *mem = self->out_cache->acquire (size, error);
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

/* Records and submits one picture. Takes @buf. */
static GstFlowReturn
submit_frame (GstVkVvcAlf * self, GstBuffer * buf)
{
  GError *error = NULL;
  gpc::VkExec * exec = self->exec;
  gpc::VvcAlfParams storage;
  const gpc::VvcAlfParams * params = nullptr;
  gpc::AlfPlane in[3] = { }, out[3] = { };
  gpc::PendingFrame f;
  const char *stage = "record";

  if (!resolve_params (self, buf, storage, &params)) {
    gst_buffer_unref (buf);
    return GST_FLOW_ERROR;
  }
  self->picture_index++;

  exec->collect ();
  if (!exec->begin (&error)) {
    stage = "begin";
    goto gpu_error;
  }

  if (!self->params_buf || !same_params (*self->last, *params)) {
    /* Derived blocks are valid by construction; re-check what the GPU is
     * about to index with (cheap, and only when the parameters change). */
    std::string bad = gpc::vvc_alf_params_check (*params);
    if (!bad.empty ()) {
      GstVulkanFence *fence = exec->submit (NULL);
      if (fence)
        gst_vulkan_fence_unref (fence);
      GST_ELEMENT_ERROR (self, STREAM, FAILED, ("Inconsistent ALF parameters"),
          ("%s", bad.c_str ()));
      gst_buffer_unref (buf);
      return GST_FLOW_ERROR;
    }
    gst_clear_buffer (&self->params_buf);
    self->params_buf = gpc::VkAlfKernel::upload_params (exec, *params,
        self->staging_cache, self->device_cache, &error);
    if (!self->params_buf) {
      stage = "parameter upload";
      goto record_error;
    }
    *self->last = *params;
  } else {
    exec->keep (GST_MINI_OBJECT_CAST (self->params_buf));
  }

  {
    GstMemory *m0 = gst_buffer_n_memory (buf) ? gst_buffer_peek_memory (buf, 0) : NULL;
    gboolean ok;
    if (m0 && (gst_is_vulkan_buffer_memory (m0) || gst_is_vulkan_image_memory (m0))) {
      ok = TRUE;
      for (guint p = 0; ok && p < GST_VIDEO_INFO_N_PLANES (&self->info); p++)
        ok = prepare_vulkan_plane (self, buf, p, &in[p], &error);
    } else {
      ok = upload_system_frame (self, buf, in, &error);
    }
    if (!ok) {
      GstVulkanFence *fence = exec->submit (NULL);
      if (fence)
        gst_vulkan_fence_unref (fence);
      else
        gst_clear_buffer (&self->params_buf);  /* its upload may not have run */
      GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot read this picture"),
          ("%s", error ? error->message : "unknown"));
      g_clear_error (&error);
      gst_buffer_unref (buf);
      return GST_FLOW_ERROR;
    }
  }
  exec->keep (GST_MINI_OBJECT_CAST (buf));

  if (!alloc_output (self, &f, out, &error)) {
    stage = "output allocation";
    goto record_error;
  }
  if (f.out)
    gst_buffer_copy_into (f.out, buf, (GstBufferCopyFlags) (GST_BUFFER_COPY_FLAGS |
            GST_BUFFER_COPY_TIMESTAMPS), 0, -1);
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES (&self->info); p++) {
    if (p == 0 || out[p].mem != out[0].mem)
      exec->barrier (out[p].mem, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
          VK_ACCESS_SHADER_WRITE_BIT);
  }
  if (!self->kernel->dispatch (exec, in, out,
          gpc::vk_buffer_memory (self->params_buf), params->pic,
          GST_VIDEO_INFO_COMP_DEPTH (&self->info, 0) > 8, &error)) {
    stage = "dispatch";
    goto record_error;
  }
  if (f.staging)
    exec->barrier (out[0].mem, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
  if (f.out)
    exec->keep (GST_MINI_OBJECT_CAST (f.out));
  if (f.staging)
    exec->keep (GST_MINI_OBJECT_CAST (f.staging));

  f.fence = exec->submit (&error);
  if (!f.fence) {
    stage = "submit";
    goto gpu_error;
  }
  if (f.out) {
    gst_buffer_unref (buf);
  } else {
    f.in = buf;
  }
  self->pending->push_back (f);
  return GST_FLOW_OK;

record_error:
  {
    GstVulkanFence *fence = exec->submit (NULL);
    if (fence)
      gst_vulkan_fence_unref (fence);
  }
gpu_error:
  /* A parameter upload recorded here may not have run. */
  gst_clear_buffer (&self->params_buf);
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Failed to run ALF on the Vulkan device (%s)", stage),
      ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  f.clear ();
  gst_buffer_unref (buf);
  return GST_FLOW_ERROR;
}

/* ------------------------------------------------------ GstBaseTransform */

static GstFlowReturn
gst_vk_vvc_alf_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont,
    GstBuffer * input)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (trans);
  if (!self->have_info) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  return submit_frame (self, input);
}

static GstFlowReturn
gst_vk_vvc_alf_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (trans);
  return self->pending->generate_output (*self->exec, self->state->frames_in_flight (),
      GST_VIDEO_INFO_SIZE (&self->info), outbuf);
}

static gboolean
gst_vk_vvc_alf_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (trans);

  self->pending->before_sink_event (self->exec, event, GST_VIDEO_INFO_SIZE (&self->info));
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static GstCaps *
caps_with_features (GstCaps * caps, const char *const *features, guint n)
{
  GstCaps *res = gst_caps_new_empty ();
  for (guint k = 0; k < n; k++) {
    GstCaps *c = gst_caps_copy (caps);
    for (guint i = 0; i < gst_caps_get_size (c); i++) {
      GstStructure *s = gst_caps_get_structure (c, i);
      gst_structure_remove_fields (s, "texture-target", NULL);
      gst_caps_set_features (c, i, features[k] ?
          gst_caps_features_new (features[k], NULL) : gst_caps_features_new_empty ());
    }
    res = gst_caps_merge (res, c);
  }
  return res;
}

static GstCaps *
gst_vk_vvc_alf_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  static const char *const to_src[] = { GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, NULL };
  static const char *const to_sink[] = { GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER,
    GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, NULL
  };
  GstCaps *res = direction == GST_PAD_SINK ? caps_with_features (caps, to_src, 2) :
      caps_with_features (caps, to_sink, 3);
  GstCaps *tmpl = gst_pad_get_pad_template_caps (direction == GST_PAD_SINK ?
      GST_BASE_TRANSFORM_SRC_PAD (trans) : GST_BASE_TRANSFORM_SINK_PAD (trans));
  GstCaps *t = gst_caps_intersect_full (res, tmpl, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref (res);
  gst_caps_unref (tmpl);
  res = t;
  if (filter) {
    t = gst_caps_intersect_full (filter, res, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (res);
    res = t;
  }
  return res;
}

static gboolean
gst_vk_vvc_alf_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (trans);
  GstVideoInfo info;
  GstVvcAlfChromaFormat cf;
  guint depth;

  if (!gst_video_info_from_caps (&info, incaps) || !format_alf_layout (&info, &cf, &depth)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported caps %" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  if (GST_VIDEO_INFO_WIDTH (&info) % 8 || GST_VIDEO_INFO_HEIGHT (&info) % 8) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("ALF needs a picture size that is a multiple of 8 (got %dx%d)",
            GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info)), (NULL));
    return FALSE;
  }
  /* Pending pictures were drained by the CAPS event. */
  if (self->have_info && !gst_video_info_is_equal (&info, &self->info)) {
    self->device_cache->trim ();
    self->staging_cache->trim ();
    self->out_cache->trim ();
  }
  GstCapsFeatures *feat = gst_caps_get_features (outcaps, 0);
  self->vulkan_out = feat && gst_caps_features_contains (feat,
      GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER);
  self->info = info;
  self->chroma_format = cf;
  self->bit_depth = depth;
  self->have_info = TRUE;
  self->state->set_caps (&info);
  if (!build_synthetic (self))
    GST_DEBUG_OBJECT (self, "no synthetic parameters for these caps: %s", self->synth_error);
  GST_INFO_OBJECT (self, "%s %dx%d, output in %s memory",
      GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info), self->vulkan_out ? "Vulkan buffer" : "system");
  return TRUE;
}

static gboolean
gst_vk_vvc_alf_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  /* Output buffers are our own (storage-capable Vulkan buffers or system
   * memory): no downstream pool is used. */
  return TRUE;
}

static gboolean
gst_vk_vvc_alf_query (GstBaseTransform * trans, GstPadDirection direction, GstQuery * query)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (trans);

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

static gboolean gst_vk_vvc_alf_stop (GstBaseTransform * trans);

static gboolean
gst_vk_vvc_alf_start (GstBaseTransform * trans)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (trans);
  GError *error = NULL;

  if (!gpc_vk_context_ensure (GST_ELEMENT (self), &self->vk))
    return FALSE;
  self->exec = gpc::VkExec::create (self->vk.queue, &error);
  if (self->exec && !gpc::start_fault_injected (GST_ELEMENT (self), &error))
    self->kernel = gpc::VkAlfKernel::create (self->vk.device, &error);
  if (!self->kernel) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Failed to set up the ALF kernel on the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    /* GstBaseTransform calls stop only after a start that succeeded. */
    gst_vk_vvc_alf_stop (trans);
    return FALSE;
  }
  self->device_cache = new gpc::VkBufferCache (self->vk.device, false);
  self->staging_cache = new gpc::VkBufferCache (self->vk.device, true);
  self->out_cache = new OutMemCache (self->vk.device);
  self->last = new gpc::VvcAlfParams ();
  self->picture_index = 0;
  return TRUE;
}

static gboolean
gst_vk_vvc_alf_stop (GstBaseTransform * trans)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (trans);

  if (self->exec) {
    self->pending->discard (*self->exec);
    gpc::wait_idle_or_error (GST_ELEMENT (self), *self->exec);
  }
  gst_clear_buffer (&self->params_buf);
  delete self->out_cache;
  self->out_cache = nullptr;
  delete self->device_cache;
  self->device_cache = nullptr;
  delete self->staging_cache;
  self->staging_cache = nullptr;
  delete self->exec;
  self->exec = nullptr;
  delete self->kernel;
  self->kernel = nullptr;
  delete self->synth;
  self->synth = nullptr;
  delete self->last;
  self->last = nullptr;
  g_clear_pointer (&self->synth_error, g_free);
  self->have_info = FALSE;
  self->state->set_caps (NULL);
  return TRUE;
}

/* ---------------------------------------------------------- GstElement */

static void
gst_vk_vvc_alf_set_context (GstElement * element, GstContext * context)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (element);
  gpc_vk_context_set_context (element, &self->vk, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static GstStateChangeReturn
gst_vk_vvc_alf_change_state (GstElement * element, GstStateChange transition)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (element);
  GstStateChangeReturn ret = GST_ELEMENT_CLASS (parent_class)->change_state (element,
      transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gpc_vk_context_clear (&self->vk);
  return ret;
}

static void
gst_vk_vvc_alf_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      self->vk.device_index = g_value_get_int (value);
      break;
    case PROP_PARAMS_SOURCE:
      self->params_source = (ParamsSource) g_value_get_enum (value);
      break;
    case PROP_PARAMS_LOCATION:
      g_free (self->params_location);
      self->params_location = g_value_dup_string (value);
      break;
    case PROP_PARAMS_FIRST_INDEX:
      self->params_first_index = g_value_get_uint (value);
      break;
    case PROP_CTB_SIZE:
      self->ctb_size = g_value_get_uint (value);
      break;
    case PROP_FIXED_FILTER_SET:
      self->fixed_filter_set = g_value_get_int (value);
      break;
    case PROP_LUMA:
    case PROP_CB:
    case PROP_CR:
    case PROP_CC_CB:
    case PROP_CC_CR:
      self->enable[prop_id - PROP_LUMA] = g_value_get_boolean (value);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->state->set_property (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_vvc_alf_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, self->vk.device_index);
      break;
    case PROP_PARAMS_SOURCE:
      g_value_set_enum (value, self->params_source);
      break;
    case PROP_PARAMS_LOCATION:
      g_value_set_string (value, self->params_location);
      break;
    case PROP_PARAMS_FIRST_INDEX:
      g_value_set_uint (value, self->params_first_index);
      break;
    case PROP_CTB_SIZE:
      g_value_set_uint (value, self->ctb_size);
      break;
    case PROP_FIXED_FILTER_SET:
      g_value_set_int (value, self->fixed_filter_set);
      break;
    case PROP_LUMA:
    case PROP_CB:
    case PROP_CR:
    case PROP_CC_CB:
    case PROP_CC_CR:
      g_value_set_boolean (value, self->enable[prop_id - PROP_LUMA]);
      break;
    case PROP_FRAMES_IN_FLIGHT:
      self->state->get_property (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_vk_vvc_alf_finalize (GObject * object)
{
  GstVkVvcAlf *self = GST_VK_VVC_ALF (object);
  g_free (self->params_location);
  delete self->pending;
  delete self->state;
  gpc_vk_context_clear (&self->vk);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_vk_vvc_alf_init (GstVkVvcAlf * self)
{
  gpc_vk_context_init (&self->vk);
  self->params_source = PARAMS_SOURCE_AUTO;
  self->ctb_size = 128;
  self->fixed_filter_set = 0;
  for (gboolean & e : self->enable)
    e = TRUE;
  self->state = new gpc::FilterState ();
  self->pending = new gpc::PendingFrames (GST_BASE_TRANSFORM (self), "filtering", "filtered");
}

static void
gst_vk_vvc_alf_class_init (GstVkVvcAlfClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = (GParamFlags) (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY);

  GST_DEBUG_CATEGORY_INIT (gst_vk_vvc_alf_debug, "vkvvcalf", 0,
      "VVC adaptive loop filter on Vulkan");

  gobject_class->set_property = gst_vk_vvc_alf_set_property;
  gobject_class->get_property = gst_vk_vvc_alf_get_property;
  gobject_class->finalize = gst_vk_vvc_alf_finalize;

  gpc_vk_context_install_properties (gobject_class, PROP_DEVICE_INDEX);
  g_object_class_install_property (gobject_class, PROP_PARAMS_SOURCE,
      g_param_spec_enum ("params-source", "Parameters source",
          "Where each picture's ALF parameters come from",
          GST_TYPE_VK_VVC_ALF_PARAMS_SOURCE, PARAMS_SOURCE_AUTO, rw));
  g_object_class_install_property (gobject_class, PROP_PARAMS_LOCATION,
      g_param_spec_string ("params-location", "Parameters location",
          "vvc-alf-params JSON file used for every picture, or a printf-style "
          "pattern with one integer conversion (e.g. params-%05d.json) expanded "
          "with the picture index (pictures since start + params-first-index)",
          NULL, rw));
  g_object_class_install_property (gobject_class, PROP_PARAMS_FIRST_INDEX,
      g_param_spec_uint ("params-first-index", "Parameters first index",
          "Index the params-location pattern gets for the first picture",
          0, G_MAXINT, 0, rw));
  g_object_class_install_property (gobject_class, PROP_CTB_SIZE,
      g_param_spec_uint ("ctb-size", "CTB size",
          "Synthetic parameters: CTB size in luma samples (32, 64 or 128)",
          32, 128, 128, rw));
  g_object_class_install_property (gobject_class, PROP_FIXED_FILTER_SET,
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
    g_object_class_install_property (gobject_class, PROP_LUMA + k,
        g_param_spec_boolean (enable_names[k], enable_names[k], blurbs[k], TRUE, rw));
  gpc::FilterState::install_property (gobject_class, PROP_FRAMES_IN_FLIGHT, "Pictures", "picture");

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
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, src));
  gst_caps_unref (sink);
  gst_caps_unref (src);

  gst_element_class_set_static_metadata (element_class,
      "Vulkan VVC adaptive loop filter", "Filter/Effect/Video/Hardware",
      "Applies the H.266/VVC adaptive loop filter (luma, chroma, CC-ALF) on a "
      "Vulkan device, bit-exact with the specification",
      "gst-gpucodecs developers");

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_set_context);
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_change_state);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_set_caps);
  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_transform_caps);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_decide_allocation);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_query);
  trans_class->submit_input_buffer = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_submit_input_buffer);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_vk_vvc_alf_generate_output);
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (GST_TYPE_VK_VVC_ALF_PARAMS_SOURCE, (GstPluginAPIFlags) 0);
}
