/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-vkrgbaconvert
 * @title: vkrgbaconvert
 *
 * Converts the pictures of our decoders and filters (8- to 16-bit planar
 * Y'CbCr 4:2:0 / 4:2:2 / 4:4:4, with or without alpha, AYUV64, GRAY8) to
 * 8-bit RGBA (or BGRA) Vulkan images on the GPU, so that a chain of Vulkan
 * buffers can end in GStreamer 1.22's vulkansink (which takes 8-bit RGB(A)
 * images only, in the formats of its swapchain: BGRA on X11) without the
 * pictures ever leaving GPU memory.
 *
 * The matrix (BT.601, BT.709, BT.2020; also FCC and SMPTE 240M) and the
 * range (limited or full) come from the input caps' colorimetry, with
 * GStreamer 1.22's defaults where the caps leave them unknown (BT.709 above
 * 576 lines, else BT.601; limited range for Y'CbCr, full for grey). Chroma is upsampled by repetition (nearest sample), not
 * interpolated. Alpha (A422_10LE, A444_10LE, AYUV64) is scaled to 8 bits
 * with rounding; other formats give opaque pixels. The arithmetic is integer
 * fixed point, bit-exact with the CPU reference in gst/rgbaconvert.
 *
 * Input may be Vulkan buffers (bound in place when they have storage usage,
 * as our elements' outputs do, else copied on the GPU), Vulkan images for
 * 8-bit formats (copied on the GPU) or system memory (uploaded). Output is
 * R8G8B8A8_UNORM Vulkan images with storage, sampled and transfer usage
 * written by the shader, recycled once downstream drops them (BGRA: a
 * B8G8R8A8_UNORM image the shader's output is copied into, Vulkan making
 * storage support for that format optional); or, where downstream takes
 * only system memory, RGBA / BGRA downloaded by the element. Several pictures are kept
 * in flight (#GstVkRgbaConvert:frames-in-flight).
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 filesrc location=clip.mov ! qtdemux ! vkproresdec ! vkrgbaconvert ! vulkansink
 * gst-launch-1.0 filesrc location=pre.yuv ! rawvideoparse format=i420-10le width=1280 height=720 ! \
 *     vkvvcalf ! vkvmafmotion ! vkrgbaconvert ! vulkansink
 * gst-launch-1.0 videotestsrc ! video/x-raw,format=Y444_10LE ! vkrgbaconvert ! vulkandownload ! \
 *     videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstvkrgbaconvert.h"

#include <gst/video/video.h>
#include "compute/gpcvk.h"

#include <vector>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkcompat.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkplane.h"
#include "pendingframes.h"
#include "vkfilter.h"
#include "rgba-convert-video.h"
#include "vkrgbakernel.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_rgba_convert_debug);
#define GST_CAT_DEFAULT gst_vk_rgba_convert_debug

#define SIZE_CAPS ", width = (int) [ 1, 16384 ], height = (int) [ 1, 16384 ], " \
    "framerate = (fraction) [ 0, max ]"

enum
{
  PROP_0,
  PROP_DEVICE_INDEX,
  PROP_FRAMES_IN_FLIGHT,
};

/* Output images, recycled once nobody else holds them. 1.22's image pool
 * makes images without STORAGE usage, so these are our own. A memory is
 * free when the cache's is its only reference (buffers downstream may be
 * copied, their memory shared); views made on it are released with the
 * submission that used them. */
/* BGRA images: the shader writes an RGBA storage image with R and B swapped
 * and it is copied raw (same texel size) into a B8G8R8A8 image, since
 * storage support for B8G8R8A8 is optional in Vulkan. */
static const VkImageUsageFlags kCopyImageUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
    VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;

namespace {

class ImageCache
{
public:
  explicit ImageCache (GstVulkanDevice * d) : device_ ((GstVulkanDevice *) gst_object_ref (d)) {}
  ~ImageCache () { trim (); gst_object_unref (device_); }
  GstMemory *acquire (VkFormat format, VkImageUsageFlags usage, guint width, guint height,
      GError ** error)
  {
    for (GstMemory * m : all_) {
      GstVulkanImageMemory *img = (GstVulkanImageMemory *) m;
      if (GST_MINI_OBJECT_REFCOUNT_VALUE (m) == 1 && img->create_info.format == format
          && img->create_info.extent.width == width
          && img->create_info.extent.height == height)
        return gst_memory_ref (m);
    }
    GstMemory *m = gst_vulkan_image_memory_alloc (device_, format, width, height,
        VK_IMAGE_TILING_OPTIMAL, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (!m) {
      g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
          "could not allocate a %ux%u Vulkan image (format %d)", width, height, format);
      return NULL;
    }
    all_.push_back (m);
    GST_DEBUG ("%zu images, a new one of %ux%u (format %d)", all_.size (), width, height,
        format);
    return gst_memory_ref (m);
  }
  void trim ()
  {
    /* Memories still held elsewhere leave the cache: their last holder
     * frees them. Downstream's last use of each must be over first
     * (gpcvkcompat.h). */
    for (GstMemory * m : all_) {
      if (!gpc::image_wait_unused ((GstVulkanImageMemory *) m, gpc::kGpuTimeoutNs))
        GST_WARNING ("an image was still in use downstream after %" G_GUINT64_FORMAT " s",
            gpc::kGpuTimeoutNs / GST_SECOND);
      gst_memory_unref (m);
    }
    all_.clear ();
  }
  size_t size () const { return all_.size (); }
private:
  GstVulkanDevice *device_;
  std::vector < GstMemory * >all_;
};

} // namespace

struct _GstVkRgbaConvert
{
  GstBaseTransform parent;


  GpcVkContext vk;
  gpc::VkExec * exec;
  gpc::VkRgbaKernel * kernel;
  gpc::VkBufferCache * device_cache;
  gpc::VkBufferCache * staging_cache;
  gpc::VkBufferCache * download_cache;
  ImageCache *images;

  GstVideoInfo info;            /* input */
  GstVideoInfo out_info;
  gboolean have_info;
  gpc::FilterState *state;      /* what other threads read: FilterState */
  gboolean vulkan_out;
  gboolean bgra;                /* output BGRA (else RGBA) */
  gpc::RgbaFormat format;
  gpc::RgbaCoeffs coeffs;

  gpc::PendingFrames *pending;
};

#define gst_vk_rgba_convert_parent_class parent_class
G_DEFINE_TYPE (GstVkRgbaConvert, gst_vk_rgba_convert, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (vkrgbaconvert, "vkrgbaconvert", GST_RANK_NONE,
    GST_TYPE_VK_RGBA_CONVERT);

/* -------------------------------------------------------------- GPU side */

/* Bytes of a row and rows of plane @p (its first component's). */
static void
plane_extent (const GstVideoInfo * info, guint p, gsize * row_bytes, guint * rows)
{
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
    if (GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
      continue;
    *row_bytes = (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) * GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
    *rows = GST_VIDEO_INFO_COMP_HEIGHT (info, c);
    return;
  }
  *row_bytes = 0;
  *rows = 0;
}

/* Records what makes plane @p of @buf readable as a storage buffer: bound
 * in place when it is one, else copied on the GPU (gpcvkplane). */
static gboolean
prepare_vulkan_plane (GstVkRgbaConvert * self, GstBuffer * buf, guint p, gpc::RgbaPlane * out,
    GError ** error)
{
  gsize row_bytes;
  guint rows;
  GstMemory *mem;
  gsize offset;
  gint stride;

  plane_extent (&self->info, p, &row_bytes, &rows);
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
  if (!gpc::vk_plane_for_compute (self->exec, self->device_cache, buf, mem, offset, stride,
          row_bytes, rows, self->format.bytes, &sp, error))
    return FALSE;
  *out = { sp.mem, sp.offset, sp.stride };
  sp.clear ();
  return TRUE;
}

/* System memory: every plane into one staging buffer, then one copy to
 * device memory (gpcvkplane). */
static gboolean
upload_system_frame (GstVkRgbaConvert * self, GstBuffer * buf, gpc::RgbaPlane planes[4],
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
  gpc::HostPlane hp[4];
  for (guint p = 0; p < n; p++) {
    gsize row_bytes;
    guint rows;
    plane_extent (info, p, &row_bytes, &rows);
    hp[p] = { (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&frame, p),
      (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p), row_bytes, rows };
  }
  gpc::StoragePlane sp[4];
  gboolean ok = gpc::vk_upload_planes (self->exec, self->staging_cache, self->device_cache,
      hp, n, sp, error);
  gst_video_frame_unmap (&frame);
  for (guint p = 0; ok && p < n; p++)
    planes[p] = { sp[p].mem, sp[p].offset, sp[p].stride };
  for (guint p = 0; p < n; p++)
    sp[p].clear ();
  return ok;
}

/* Submits what was recorded so far and forgets it (after an error). */
static void
abandon_recording (GstVkRgbaConvert * self)
{
  GstVulkanFence *fence = self->exec->submit (NULL);
  if (fence)
    gst_vulkan_fence_unref (fence);
}

/* Records and submits one picture. Takes @buf. */
static GstFlowReturn
submit_frame (GstVkRgbaConvert * self, GstBuffer * buf)
{
  GError *error = NULL;
  gpc::VkExec * exec = self->exec;
  gpc::RgbaPlane in[4] = { };
  gpc::PendingFrame f;
  GstMemory *image = NULL;
  GstVulkanImageView *view = NULL;
  const guint w = GST_VIDEO_INFO_WIDTH (&self->info), h = GST_VIDEO_INFO_HEIGHT (&self->info);
  const char *stage = "record";

  exec->collect ();
  if (!exec->begin (&error)) {
    stage = "begin";
    goto gpu_error;
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
      abandon_recording (self);
      GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Cannot read this picture"),
          ("%s", error ? error->message : "unknown"));
      g_clear_error (&error);
      gst_buffer_unref (buf);
      return GST_FLOW_ERROR;
    }
  }
  exec->keep (GST_MINI_OBJECT_CAST (buf));
  /* Planes a layout does not read still need a valid binding. */
  for (guint p = GST_VIDEO_INFO_N_PLANES (&self->info); p < 4; p++)
    in[p] = in[0];

  image = self->images->acquire (VK_FORMAT_R8G8B8A8_UNORM, gpc::VkRgbaKernel::kImageUsage, w, h,
      &error);
  if (!image) {
    stage = "output allocation";
    goto record_error;
  }
  view = gst_vulkan_get_or_create_image_view ((GstVulkanImageMemory *) image);
  if (!view) {
    g_set_error (&error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "could not create a view of the output image");
    stage = "output allocation";
    goto record_error;
  }
  if (!self->kernel->record (exec, in, view, self->format, self->coeffs, w, h, self->bgra,
          &error)) {
    stage = "dispatch";
    goto record_error;
  }
  gst_vulkan_image_view_unref (view);
  view = NULL;

  if (self->vulkan_out && self->bgra) {
    /* The swapped texels, copied raw into a B8G8R8A8 image. */
    GstMemory *bgra = self->images->acquire (VK_FORMAT_B8G8R8A8_UNORM, kCopyImageUsage, w, h,
        &error);
    if (!bgra) {
      stage = "output allocation";
      goto record_error;
    }
    GstVulkanImageMemory *src = (GstVulkanImageMemory *) image;
    GstVulkanImageMemory *dst = (GstVulkanImageMemory *) bgra;
    exec->barrier (src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkImageCopy region = {};
    region.srcSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.srcSubresource.layerCount = 1;
    region.dstSubresource = region.srcSubresource;
    region.extent = { w, h, 1 };
    vkCmdCopyImage (exec->cmd (), src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst->image,
        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    exec->keep (GST_MINI_OBJECT_CAST (image));
    gst_memory_unref (image);
    image = bgra;
  }
  if (self->vulkan_out) {
    f.out = gst_buffer_new ();
    gst_buffer_append_memory (f.out, image);
    image = NULL;
    gst_buffer_copy_into (f.out, buf, (GstBufferCopyFlags) (GST_BUFFER_COPY_FLAGS |
            GST_BUFFER_COPY_TIMESTAMPS), 0, -1);
    exec->keep (GST_MINI_OBJECT_CAST (f.out));
  } else {
    /* Our own download: the image into a host-visible buffer, rows tight. */
    f.staging = self->download_cache->acquire ((gsize) w * h * 4, &error);
    if (!f.staging) {
      stage = "download allocation";
      goto record_error;
    }
    GstVulkanImageMemory *img = (GstVulkanImageMemory *) image;
    GstVulkanBufferMemory *dst = gpc::vk_buffer_memory (f.staging);
    exec->barrier (img, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT,
        VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    exec->barrier (dst, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region = {};
    region.bufferRowLength = w;
    region.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    region.imageSubresource.layerCount = 1;
    region.imageExtent = { w, h, 1 };
    vkCmdCopyImageToBuffer (exec->cmd (), img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        dst->buffer, 1, &region);
    exec->barrier (dst, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    exec->keep (GST_MINI_OBJECT_CAST (f.staging));
    exec->keep (GST_MINI_OBJECT_CAST (image));
    gst_memory_unref (image);
    image = NULL;
  }

  f.fence = exec->submit (&error);
  if (!f.fence) {
    stage = "submit";
    goto gpu_error;
  }
  if (f.out)
    gst_buffer_unref (buf);
  else
    f.in = buf;
  self->pending->push_back (f);
  return GST_FLOW_OK;

record_error:
  abandon_recording (self);
gpu_error:
  GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
      ("Failed to convert to RGBA on the Vulkan device (%s)", stage),
      ("%s", error ? error->message : "unknown"));
  g_clear_error (&error);
  if (view)
    gst_vulkan_image_view_unref (view);
  if (image)
    gst_memory_unref (image);
  f.clear ();
  gst_buffer_unref (buf);
  return GST_FLOW_ERROR;
}

/* ------------------------------------------------------ GstBaseTransform */

static GstFlowReturn
gst_vk_rgba_convert_submit_input_buffer (GstBaseTransform * trans, gboolean is_discont,
    GstBuffer * input)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (trans);
  if (!self->have_info) {
    gst_buffer_unref (input);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL), ("received a buffer before caps"));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  return submit_frame (self, input);
}

static GstFlowReturn
gst_vk_rgba_convert_generate_output (GstBaseTransform * trans, GstBuffer ** outbuf)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (trans);
  return self->pending->generate_output (*self->exec, self->state->frames_in_flight (),
      GST_VIDEO_INFO_SIZE (&self->out_info), outbuf);
}

static gboolean
gst_vk_rgba_convert_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (trans);

  self->pending->before_sink_event (self->exec, event, GST_VIDEO_INFO_SIZE (&self->out_info));
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* @caps with the format (list) @format, without the fields that describe
 * the other side's samples, in each memory of @features (NULL: system). */
static GstCaps *
caps_converted (GstCaps * caps, const char *format, const char *const *features, guint n)
{
  GstCaps *res = gst_caps_new_empty ();
  GstStructure *fmt = gst_structure_from_string (format, NULL);
  for (guint k = 0; k < n; k++) {
    GstCaps *c = gst_caps_copy (caps);
    for (guint i = 0; i < gst_caps_get_size (c); i++) {
      GstStructure *s = gst_caps_get_structure (c, i);
      gst_structure_remove_fields (s, "format", "colorimetry", "chroma-site", "texture-target",
          NULL);
      gst_structure_set_value (s, "format", gst_structure_get_value (fmt, "format"));
      gst_caps_set_features (c, i, features[k] ?
          gst_caps_features_new (features[k], NULL) : gst_caps_features_new_empty ());
    }
    res = gst_caps_merge (res, c);
  }
  gst_structure_free (fmt);
  return res;
}

static GstCaps *
gst_vk_rgba_convert_transform_caps (GstBaseTransform * trans, GstPadDirection direction,
    GstCaps * caps, GstCaps * filter)
{
  static const char *const to_src[] = { GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, NULL };
  static const char *const to_sink[] = { GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER,
    GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE, NULL
  };
  GstCaps *res = direction == GST_PAD_SINK ?
      caps_converted (caps, "x, format = (string) { RGBA, BGRA }", to_src, 2) :
      caps_converted (caps, "x, format = (string) { " GPC_RGBA_INPUT_FORMATS " }", to_sink, 3);
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
  GST_DEBUG_OBJECT (trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
      direction == GST_PAD_SINK ? "sink" : "src", caps, res);
  return res;
}

static gboolean
gst_vk_rgba_convert_set_caps (GstBaseTransform * trans, GstCaps * incaps, GstCaps * outcaps)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (trans);
  GstVideoInfo info, out_info;
  gpc::RgbaFormat format;

  if (!gst_video_info_from_caps (&info, incaps)
      || !gpc::rgba_format_of (GST_VIDEO_INFO_FORMAT (&info), &format)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported input caps %" GST_PTR_FORMAT, incaps));
    return FALSE;
  }
  if (!gst_video_info_from_caps (&out_info, outcaps)
      || (GST_VIDEO_INFO_FORMAT (&out_info) != GST_VIDEO_FORMAT_RGBA
          && GST_VIDEO_INFO_FORMAT (&out_info) != GST_VIDEO_FORMAT_BGRA)
      || GST_VIDEO_INFO_WIDTH (&out_info) != GST_VIDEO_INFO_WIDTH (&info)
      || GST_VIDEO_INFO_HEIGHT (&out_info) != GST_VIDEO_INFO_HEIGHT (&info)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported output caps %" GST_PTR_FORMAT " for %" GST_PTR_FORMAT, outcaps,
            incaps));
    return FALSE;
  }
  /* Pending pictures were drained by the CAPS event. */
  if (self->have_info && !gst_video_info_is_equal (&info, &self->info)) {
    self->device_cache->trim ();
    self->staging_cache->trim ();
    self->download_cache->trim ();
    self->images->trim ();
  }
  GstCapsFeatures *feat = gst_caps_get_features (outcaps, 0);
  self->vulkan_out = feat && gst_caps_features_contains (feat,
      GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE);
  self->info = info;
  self->out_info = out_info;
  self->bgra = GST_VIDEO_INFO_FORMAT (&out_info) == GST_VIDEO_FORMAT_BGRA;
  self->format = format;
  self->coeffs = gpc::rgba_coeffs_of (&info);
  self->have_info = TRUE;
  self->state->set_caps (&info);
  gchar *colorimetry = gst_video_colorimetry_to_string (&info.colorimetry);
  const gpc::RgbaMatrix m = gpc::rgba_matrix_of (&info);
  GST_INFO_OBJECT (self, "%s %dx%d (colorimetry %s: Kr %.4f Kb %.4f, %s range) to %s in %s "
      "memory", GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info), GST_STR_NULL (colorimetry), m.kr, m.kb,
      gpc::rgba_full_range_of (&info) ? "full" : "limited", GST_VIDEO_INFO_NAME (&out_info),
      self->vulkan_out ? "Vulkan image" : "system");
  g_free (colorimetry);
  return TRUE;
}

static gboolean
gst_vk_rgba_convert_decide_allocation (GstBaseTransform * trans, GstQuery * query)
{
  /* Output images are our own (1.22's image pool has no STORAGE usage),
   * system output our own download: no downstream pool is used. */
  return TRUE;
}

static gboolean
gst_vk_rgba_convert_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (trans);

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

static gboolean gst_vk_rgba_convert_stop (GstBaseTransform * trans);

static gboolean
gst_vk_rgba_convert_start (GstBaseTransform * trans)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (trans);
  GError *error = NULL;

  if (!gpc_vk_context_ensure (GST_ELEMENT (self), &self->vk))
    return FALSE;
  self->exec = gpc::VkExec::create (self->vk.queue, &error);
  if (self->exec && !gpc::start_fault_injected (GST_ELEMENT (self), &error))
    self->kernel = gpc::VkRgbaKernel::create (self->vk.device, &error);
  if (!self->kernel) {
    GST_ELEMENT_ERROR (self, RESOURCE, FAILED,
        ("Failed to set up the RGBA conversion kernel on the Vulkan device"),
        ("%s", error ? error->message : "unknown"));
    g_clear_error (&error);
    /* GstBaseTransform calls stop only after a start that succeeded. */
    gst_vk_rgba_convert_stop (trans);
    return FALSE;
  }
  self->device_cache = new gpc::VkBufferCache (self->vk.device, gpc::VkMemKind::Device);
  self->staging_cache = new gpc::VkBufferCache (self->vk.device, gpc::VkMemKind::HostWrite);
  self->download_cache = new gpc::VkBufferCache (self->vk.device, gpc::VkMemKind::HostRead);
  self->images = new ImageCache (self->vk.device);
  return TRUE;
}

static gboolean
gst_vk_rgba_convert_stop (GstBaseTransform * trans)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (trans);

  if (self->exec) {
    self->pending->discard (*self->exec);
    gpc::wait_idle_or_error (GST_ELEMENT (self), *self->exec);
  }
  delete self->images;
  self->images = nullptr;
  delete self->device_cache;
  self->device_cache = nullptr;
  delete self->staging_cache;
  self->staging_cache = nullptr;
  delete self->download_cache;
  self->download_cache = nullptr;
  delete self->exec;
  self->exec = nullptr;
  delete self->kernel;
  self->kernel = nullptr;
  self->have_info = FALSE;
  self->state->set_caps (NULL);
  return TRUE;
}

/* ---------------------------------------------------------- GstElement */

static void
gst_vk_rgba_convert_set_context (GstElement * element, GstContext * context)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (element);
  gpc_vk_context_set_context (element, &self->vk, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

static GstStateChangeReturn
gst_vk_rgba_convert_change_state (GstElement * element, GstStateChange transition)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (element);
  GstStateChangeReturn ret = GST_ELEMENT_CLASS (parent_class)->change_state (element,
      transition);
  if (transition == GST_STATE_CHANGE_READY_TO_NULL)
    gpc_vk_context_clear (&self->vk);
  return ret;
}

static void
gst_vk_rgba_convert_set_property (GObject * object, guint prop_id, const GValue * value,
    GParamSpec * pspec)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      self->vk.device_index = g_value_get_int (value);
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
gst_vk_rgba_convert_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_DEVICE_INDEX:
      g_value_set_int (value, self->vk.device_index);
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
gst_vk_rgba_convert_finalize (GObject * object)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (object);
  delete self->pending;
  delete self->state;
  gpc_vk_context_clear (&self->vk);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_vk_rgba_convert_init (GstVkRgbaConvert * self)
{
  gpc_vk_context_init (&self->vk);
  self->state = new gpc::FilterState ();
  self->pending = new gpc::PendingFrames (GST_BASE_TRANSFORM (self), "converting", "converted");
}

static void
gst_vk_rgba_convert_class_init (GstVkRgbaConvertClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_vk_rgba_convert_debug, "vkrgbaconvert", 0,
      "Y'CbCr to RGBA Vulkan images");

  gobject_class->set_property = gst_vk_rgba_convert_set_property;
  gobject_class->get_property = gst_vk_rgba_convert_get_property;
  gobject_class->finalize = gst_vk_rgba_convert_finalize;

  gpc_vk_context_install_properties (gobject_class, PROP_DEVICE_INDEX);
  gpc::FilterState::install_property (gobject_class, PROP_FRAMES_IN_FLIGHT, "Pictures", "picture");

  GstCaps *sink = gst_caps_from_string (
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER "), format = (string) { "
      GPC_RGBA_INPUT_FORMATS " }" SIZE_CAPS "; "
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "), format = (string) { "
      GPC_RGBA_INPUT_FORMATS_8BIT " }" SIZE_CAPS "; "
      "video/x-raw, format = (string) { " GPC_RGBA_INPUT_FORMATS " }" SIZE_CAPS);
  GstCaps *src = gst_caps_from_string (
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "), format = (string) { RGBA, BGRA }"
      SIZE_CAPS "; video/x-raw, format = (string) { RGBA, BGRA }" SIZE_CAPS);
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, sink));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, src));
  gst_caps_unref (sink);
  gst_caps_unref (src);

  gst_element_class_set_static_metadata (element_class,
      "Vulkan Y'CbCr to RGBA converter", "Filter/Converter/Video/Hardware",
      "Converts 8- to 16-bit Y'CbCr and grey pictures to 8-bit RGBA Vulkan images on a "
      "Vulkan device (for vulkansink), bit-exact with a CPU reference",
      "gst-gpucodecs developers");

  element_class->set_context = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_set_context);
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_change_state);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_set_caps);
  trans_class->transform_caps = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_transform_caps);
  trans_class->decide_allocation = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_decide_allocation);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_sink_event);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_query);
  trans_class->submit_input_buffer =
      GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_submit_input_buffer);
  trans_class->generate_output = GST_DEBUG_FUNCPTR (gst_vk_rgba_convert_generate_output);
  trans_class->passthrough_on_same_caps = FALSE;
}
