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
 * only system memory, RGBA / BGRA downloaded by the element (into
 * downstream's pool where it offers one). Several pictures are kept in
 * flight (#GpcVkFilter:frames-in-flight); late ones are dropped (QoS).
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

#include "compute/gpcvkcopy.h"
#include "gstvkfilter.h"
#include "rgba-convert-video.h"
#include "vkrgbakernel.h"

GST_DEBUG_CATEGORY_STATIC (gst_vk_rgba_convert_debug);
#define GST_CAT_DEFAULT gst_vk_rgba_convert_debug

#define SIZE_CAPS ", width = (int) [ 1, 16384 ], height = (int) [ 1, 16384 ], " \
    "framerate = (fraction) [ 0, max ]"

/* BGRA images: the shader writes an RGBA storage image with R and B swapped
 * and it is copied raw (same texel size) into a B8G8R8A8 image, since
 * storage support for B8G8R8A8 is optional in Vulkan. */
static const VkImageUsageFlags kCopyImageUsage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
    VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;

struct _GstVkRgbaConvert
{
  GpcVkFilter parent;

  gpc::VkRgbaKernel * kernel;
  gboolean bgra;                /* output BGRA (else RGBA) */
  gpc::RgbaFormat format;
  gpc::RgbaCoeffs coeffs;
};

#define gst_vk_rgba_convert_parent_class parent_class
G_DEFINE_TYPE (GstVkRgbaConvert, gst_vk_rgba_convert, GPC_TYPE_VK_FILTER);
GST_ELEMENT_REGISTER_DEFINE (vkrgbaconvert, "vkrgbaconvert", GST_RANK_NONE,
    GST_TYPE_VK_RGBA_CONVERT);

static gboolean
gst_vk_rgba_convert_open (GpcVkFilter * filter, GError ** error)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (filter);
  self->kernel = gpc::VkRgbaKernel::create (filter->vk.device, error);
  return self->kernel != nullptr;
}

static void
gst_vk_rgba_convert_close (GpcVkFilter * filter)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (filter);
  delete self->kernel;
  self->kernel = nullptr;
}

static gboolean
gst_vk_rgba_convert_set_info (GpcVkFilter * filter, const GstVideoInfo * info,
    const GstVideoInfo * out_info)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (filter);
  gpc::RgbaFormat format;

  if (!gpc::rgba_format_of (GST_VIDEO_INFO_FORMAT (info), &format)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported input format %s", GST_VIDEO_INFO_NAME (info)));
    return FALSE;
  }
  if ((GST_VIDEO_INFO_FORMAT (out_info) != GST_VIDEO_FORMAT_RGBA
          && GST_VIDEO_INFO_FORMAT (out_info) != GST_VIDEO_FORMAT_BGRA)
      || GST_VIDEO_INFO_WIDTH (out_info) != GST_VIDEO_INFO_WIDTH (info)
      || GST_VIDEO_INFO_HEIGHT (out_info) != GST_VIDEO_INFO_HEIGHT (info)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, (NULL),
        ("unsupported output %s %dx%d for %s %dx%d", GST_VIDEO_INFO_NAME (out_info),
            GST_VIDEO_INFO_WIDTH (out_info), GST_VIDEO_INFO_HEIGHT (out_info),
            GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
            GST_VIDEO_INFO_HEIGHT (info)));
    return FALSE;
  }
  /* Vulkan images of every plane hold texels of the format's sample size. */
  for (guint p = 0; p < filter->n_planes; p++)
    filter->planes[p].texel_bytes = format.bytes;
  self->bgra = GST_VIDEO_INFO_FORMAT (out_info) == GST_VIDEO_FORMAT_BGRA;
  self->format = format;
  self->coeffs = gpc::rgba_coeffs_of (info);
  gchar *colorimetry = gst_video_colorimetry_to_string (&info->colorimetry);
  const gpc::RgbaMatrix m = gpc::rgba_matrix_of (info);
  GST_INFO_OBJECT (self, "%s %dx%d (colorimetry %s: Kr %.4f Kb %.4f, %s range) to %s in %s "
      "memory", GST_VIDEO_INFO_NAME (info), GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_STR_NULL (colorimetry), m.kr, m.kb,
      gpc::rgba_full_range_of (info) ? "full" : "limited", GST_VIDEO_INFO_NAME (out_info),
      filter->output == GPC_VK_OUTPUT_IMAGE ? "Vulkan image" : "system");
  g_free (colorimetry);
  return TRUE;
}

/* The conversion into an image of ours, then a BGRA copy, or the download
 * of system-memory output. */
static gboolean
gst_vk_rgba_convert_record (GpcVkFilter * filter, GstBuffer * buf, gpc::StoragePlane * planes,
    gpc::PendingFrame * f, const char **stage, GError ** error)
{
  GstVkRgbaConvert *self = GST_VK_RGBA_CONVERT (filter);
  gpc::VkExec * exec = filter->exec;
  gpc::VkOutputCache & outputs = filter->io->outputs ();
  const guint w = GST_VIDEO_INFO_WIDTH (&filter->in_info);
  const guint h = GST_VIDEO_INFO_HEIGHT (&filter->in_info);
  gpc::RgbaPlane in[4];
  /* Planes a layout does not read still need a valid binding. */
  for (guint p = 0; p < 4; p++) {
    const gpc::StoragePlane & sp = planes[p < filter->n_planes ? p : 0];
    in[p] = { sp.mem, sp.offset, sp.stride };
  }

  *stage = "output allocation";
  GstMemory *image = outputs.image (VK_FORMAT_R8G8B8A8_UNORM, gpc::VkRgbaKernel::kImageUsage,
      w, h, error);
  if (!image)
    return FALSE;
  exec->keep (GST_MINI_OBJECT_CAST (image));
  GstVulkanImageView *view = gst_vulkan_get_or_create_image_view ((GstVulkanImageMemory *) image);
  if (!view) {
    gst_memory_unref (image);
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "could not create a view of the output image");
    return FALSE;
  }
  *stage = "dispatch";
  gboolean ok = self->kernel->record (exec, in, view, self->format, self->coeffs, w, h,
      self->bgra, error);
  gst_vulkan_image_view_unref (view);
  if (ok && filter->output == GPC_VK_OUTPUT_IMAGE && self->bgra) {
    /* The swapped texels, copied raw into a B8G8R8A8 image. */
    *stage = "output allocation";
    GstMemory *bgra = outputs.image (VK_FORMAT_B8G8R8A8_UNORM, kCopyImageUsage, w, h, error);
    if (bgra)
      gpc::vk_copy_image (exec, (GstVulkanImageMemory *) image, (GstVulkanImageMemory *) bgra,
          w, h);
    gst_memory_unref (image);
    image = bgra;
    ok = image != NULL;
  }
  if (ok && filter->output == GPC_VK_OUTPUT_IMAGE) {
    f->out = gst_buffer_new ();
    gst_buffer_append_memory (f->out, image);
    return TRUE;
  }
  if (ok) {
    /* Our own download: the image into a host-visible buffer, rows tight. */
    *stage = "download allocation";
    GstVulkanBufferMemory *target = gpc_vk_filter_download_target (filter, f, error);
    if (target)
      gpc::vk_download_image (exec, (GstVulkanImageMemory *) image, target, 0, w, h);
    ok = target != NULL;
  }
  if (image)
    gst_memory_unref (image);
  return ok;
}

static void
gst_vk_rgba_convert_init (GstVkRgbaConvert * self)
{
}

static void
gst_vk_rgba_convert_class_init (GstVkRgbaConvertClass * klass)
{
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GpcVkFilterClass *filter_class = GPC_VK_FILTER_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_vk_rgba_convert_debug, "vkrgbaconvert", 0,
      "Y'CbCr to RGBA Vulkan images");

  GstCaps *sink = gst_caps_from_string (
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER "), format = (string) { "
      GPC_RGBA_INPUT_FORMATS " }" SIZE_CAPS "; "
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "), format = (string) { "
      GPC_RGBA_INPUT_FORMATS_8BIT " }" SIZE_CAPS "; "
      "video/x-raw, format = (string) { " GPC_RGBA_INPUT_FORMATS " }" SIZE_CAPS);
  GstCaps *src = gst_caps_from_string (
      "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "), format = (string) { RGBA, BGRA }"
      SIZE_CAPS "; video/x-raw, format = (string) { RGBA, BGRA }" SIZE_CAPS);
  gpc_vk_filter_class_add_pad_templates (filter_class, sink, src);

  gst_element_class_set_static_metadata (element_class,
      "Vulkan Y'CbCr to RGBA converter", "Filter/Converter/Video/Hardware",
      "Converts 8- to 16-bit Y'CbCr and grey pictures to 8-bit RGBA Vulkan images on a "
      "Vulkan device (for vulkansink), bit-exact with a CPU reference",
      "gst-gpucodecs developers");

  filter_class->kernel = "the RGBA conversion kernel";
  filter_class->doing = "converting";
  filter_class->src_formats = "{ RGBA, BGRA }";
  filter_class->sink_formats = "{ " GPC_RGBA_INPUT_FORMATS " }";
  filter_class->open = gst_vk_rgba_convert_open;
  filter_class->close = gst_vk_rgba_convert_close;
  filter_class->set_info = gst_vk_rgba_convert_set_info;
  filter_class->record = gst_vk_rgba_convert_record;
}
