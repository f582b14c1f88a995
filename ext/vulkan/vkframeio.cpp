/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkframeio.h"

#include <string>

#include "compute/gpcvkcompat.h"
#include "vkfilter.h"

GST_DEBUG_CATEGORY_STATIC (gpc_vk_frameio_debug);
#define GST_CAT_DEFAULT gpc_vk_frameio_debug

namespace gpc {

VkOutputCache::VkOutputCache (GstVulkanDevice *device)
    : device_ ((GstVulkanDevice *) gst_object_ref (device))
{
  static gsize once = 0;
  if (g_once_init_enter (&once)) {
    GST_DEBUG_CATEGORY_INIT (gpc_vk_frameio_debug, "gpcvkframeio", 0,
        "Vulkan filters' input and output memory");
    g_once_init_leave (&once, 1);
  }
}

VkOutputCache::~VkOutputCache ()
{
  trim ();
  gst_object_unref (device_);
}

GstMemory *VkOutputCache::buffer (gsize size, VkMemKind kind, GError **error)
{
  std::lock_guard<std::mutex> g (lock_);
  for (const Entry &e : all_) {
    if (GST_MINI_OBJECT_REFCOUNT_VALUE (e.mem) == 1 && gst_is_vulkan_buffer_memory (e.mem)
        && e.kind == kind && gst_memory_get_sizes (e.mem, NULL, NULL) == size)
      return gst_memory_ref (e.mem);
  }
  GstMemory *m = vk_storage_alloc (device_, size, kind, error);
  if (!m)
    return NULL;
  all_.push_back ({ m, kind });
  return gst_memory_ref (m);
}

GstMemory *VkOutputCache::image (VkFormat format, VkImageUsageFlags usage, uint32_t width,
    uint32_t height, GError **error)
{
  std::lock_guard<std::mutex> g (lock_);
  for (const Entry &e : all_) {
    if (GST_MINI_OBJECT_REFCOUNT_VALUE (e.mem) != 1 || !gst_is_vulkan_image_memory (e.mem))
      continue;
    const VkImageCreateInfo &ci = ((GstVulkanImageMemory *) e.mem)->create_info;
    if (ci.format == format && ci.usage == usage && ci.extent.width == width
        && ci.extent.height == height)
      return gst_memory_ref (e.mem);
  }
  GstMemory *m = gst_vulkan_image_memory_alloc (device_, format, width, height,
      VK_IMAGE_TILING_OPTIMAL, usage, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!m) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_NO_SPACE_LEFT,
        "could not allocate a %ux%u Vulkan image (format %d)", width, height, format);
    return NULL;
  }
  all_.push_back ({ m, VkMemKind::Device });
  GST_DEBUG ("%zu output memories, a new %ux%u image (format %d)", all_.size (), width,
      height, format);
  return gst_memory_ref (m);
}

guint VkOutputCache::in_use (VkMemKind kind)
{
  std::lock_guard<std::mutex> g (lock_);
  guint n = 0;
  for (const Entry &e : all_)
    n += gst_is_vulkan_buffer_memory (e.mem) && e.kind == kind
        && GST_MINI_OBJECT_REFCOUNT_VALUE (e.mem) > 1;
  return n;
}

void VkOutputCache::trim ()
{
  std::lock_guard<std::mutex> g (lock_);
  for (const Entry &e : all_) {
    if (gst_is_vulkan_image_memory (e.mem)) {
      GstVulkanImageMemory *img = (GstVulkanImageMemory *) e.mem;
      const guint64 limit = hang_limit_ns (img->device);
      if (!image_wait_unused (img, limit))
        GST_WARNING ("an image was still in use downstream after %" G_GUINT64_FORMAT " s",
            limit / GST_SECOND);
    }
    gst_memory_unref (e.mem);
  }
  all_.clear ();
}

PlaneSpec luma_plane_spec (const LumaLayout &layout, const GstVideoInfo *info)
{
  return { layout.plane, luma_row_bytes (layout, GST_VIDEO_INFO_WIDTH (info)),
    (guint) GST_VIDEO_INFO_HEIGHT (info),
    layout.packing == LUMA_U8 ? 1u : layout.packing == LUMA_U16LE ? 2u : 0u };
}

GstCaps *luma_template_caps (const char *size_fields)
{
  std::string all, eight;
  for (const std::string &f : luma_supported_formats ()) {
    LumaLayout l;
    luma_layout_for_format (gst_video_format_from_string (f.c_str ()), &l);
    all += (all.empty () ? "" : ", ") + f;
    /* GStreamer 1.22's Vulkan image format table knows 8-bit formats only. */
    if (l.packing == LUMA_U8)
      eight += (eight.empty () ? "" : ", ") + f;
  }
  const std::string tail = std::string (" }, ") + size_fields
      + ", framerate = (fraction) [ 0, max ]";
  const std::string s = "video/x-raw(" GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER
      "), format = (string) { " + all + tail + "; video/x-raw("
      GST_CAPS_FEATURE_MEMORY_VULKAN_IMAGE "), format = (string) { " + eight + tail
      + "; video/x-raw, format = (string) { " + all + tail;
  return gst_caps_from_string (s.c_str ());
}

guint plane_specs_of (const GstVideoInfo *info, PlaneSpec specs[GST_VIDEO_MAX_PLANES])
{
  const guint n = GST_VIDEO_INFO_N_PLANES (info);
  for (guint p = 0; p < n; p++) {
    specs[p] = { p, 0, 0, 0 };
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS (info); c++) {
      if (GST_VIDEO_INFO_COMP_PLANE (info, c) != p)
        continue;
      const guint pstride = GST_VIDEO_INFO_COMP_PSTRIDE (info, c);
      specs[p] = { p, (gsize) GST_VIDEO_INFO_COMP_WIDTH (info, c) * pstride,
        (guint) GST_VIDEO_INFO_COMP_HEIGHT (info, c), pstride };
      break;
    }
  }
  return n;
}

VkFrameIO::VkFrameIO (GstVulkanDevice *device)
    : device_ (device, VkMemKind::Device), staging_ (device, VkMemKind::HostWrite),
      outputs_ (device)
{
}

void VkFrameIO::trim ()
{
  device_.trim ();
  staging_.trim ();
  outputs_.trim ();
}

bool VkFrameIO::import_vulkan (VkExec *exec, GstBuffer *buf, const GstVideoInfo *info,
    const PlaneSpec &spec, StoragePlane *out, GError **error)
{
  GstMemory *mem;
  gsize offset;
  gint stride;

  /* Images: one per plane, in plane order (vulkanupload's layout). */
  if (gst_is_vulkan_image_memory (gst_buffer_peek_memory (buf, 0))) {
    if (gst_buffer_n_memory (buf) != GST_VIDEO_INFO_N_PLANES (info)) {
      g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
          "%u Vulkan images for %u planes", gst_buffer_n_memory (buf),
          GST_VIDEO_INFO_N_PLANES (info));
      return false;
    }
    mem = gst_buffer_peek_memory (buf, spec.plane);
    offset = 0;
    stride = 0;
  } else if (!video_plane_location (buf, info, spec.plane, &mem, &offset, &stride)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the buffer has no plane %u", spec.plane);
    return false;
  }
  /* Caps negotiation keeps another device's memory away
   * (gpc_vk_context_restrict_sink_caps); an upstream element that ignores
   * them must not make us bind it. */
  GstVulkanDevice *owner = gst_is_vulkan_image_memory (mem) ? ((GstVulkanImageMemory *) mem)->device
                                                             : ((GstVulkanBufferMemory *) mem)->device;
  if (owner != exec->device ()) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
        "the input is in memory of Vulkan device %u (%s), the element runs on device %u: "
        "give both the same device-index, or put vulkandownload between them",
        owner->physical_device->device_index, owner->physical_device->properties.deviceName,
        exec->device ()->physical_device->device_index);
    return false;
  }
  return vk_plane_for_compute (exec, &device_, buf, mem, offset, stride, spec.row_bytes,
      spec.rows, spec.texel_bytes, out, error);
}

/* System memory: every plane into one staging buffer, then one copy to
 * device memory (gpcvkplane). */
bool VkFrameIO::upload (VkExec *exec, GstBuffer *buf, const GstVideoInfo *info,
    const PlaneSpec *specs, guint n, StoragePlane *out, GError **error)
{
  GstVideoFrame frame;
  if (!gst_video_frame_map (&frame, info, buf, GST_MAP_READ)) {
    g_set_error (error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT, "could not map the input");
    return false;
  }
  HostPlane hp[GST_VIDEO_MAX_PLANES];
  for (guint i = 0; i < n; i++)
    hp[i] = { (const uint8_t *) GST_VIDEO_FRAME_PLANE_DATA (&frame, specs[i].plane),
      (gsize) GST_VIDEO_FRAME_PLANE_STRIDE (&frame, specs[i].plane), specs[i].row_bytes,
      specs[i].rows };
  bool ok = vk_upload_planes (exec, &staging_, &device_, hp, n, out, error);
  gst_video_frame_unmap (&frame);
  return ok;
}

bool VkFrameIO::import (VkExec *exec, GstBuffer *buf, const GstVideoInfo *info,
    const PlaneSpec *specs, guint n, StoragePlane *out, GError **error)
{
  g_return_val_if_fail (n <= GST_VIDEO_MAX_PLANES, false);
  GstMemory *m0 = gst_buffer_n_memory (buf) ? gst_buffer_peek_memory (buf, 0) : NULL;
  if (!m0 || !(gst_is_vulkan_buffer_memory (m0) || gst_is_vulkan_image_memory (m0)))
    return upload (exec, buf, info, specs, n, out, error);
  for (guint i = 0; i < n; i++) {
    if (!import_vulkan (exec, buf, info, specs[i], &out[i], error)) {
      for (guint k = 0; k < i; k++)
        out[k].clear ();
      return false;
    }
  }
  return true;
}

} // namespace gpc
