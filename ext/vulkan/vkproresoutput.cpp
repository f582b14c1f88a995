/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproresoutput.h"

#include "compute/gpcvkbuffer.h"
#include "gpc-parallel-copy.h"

namespace gpc {

uint32_t prores_caps_depth (const GstStructure *s)
{
  /* qtdemux says "variant", matroskademux "format" (same names); the
   * latter writes "standard" for FourCCs it does not know (4444 XQ among
   * them): there, let the chroma format decide as for unknown streams. */
  const gchar *variant = gst_structure_get_string (s, "variant");
  if (variant)
    return prores::bit_depth_for_variant (variant);
  const gchar *format = gst_structure_get_string (s, "format");
  if (format && g_strcmp0 (format, "standard") != 0)
    return prores::bit_depth_for_variant (format);
  return prores::bit_depth_for_variant (NULL);
}

ProResOutConfig prores_out_config (const prores::FrameHeader &h, uint32_t variant_depth,
    bool skip_alpha, bool *alpha_dropped)
{
  ProResOutConfig c;
  c.width = h.width;
  c.height = h.height;
  c.chroma_444 = h.is_444 ();
  c.depth = variant_depth ? variant_depth : (c.chroma_444 ? 12 : 10);
  c.interlace = h.interlace_code == 0 ? 0 : h.interlace_code == 1 ? 1 : 2;
  c.alpha = h.alpha_bits () != 0 && !skip_alpha;
  *alpha_dropped = false;
  if (c.alpha && c.depth == 12 && !c.chroma_444) {
    c.alpha = false;
    *alpha_dropped = true;
  }
  c.pack_ayuv64 = c.alpha && c.depth == 12;
  if (c.pack_ayuv64)
    c.format = GST_VIDEO_FORMAT_AYUV64;
  else if (c.alpha)
    c.format = c.chroma_444 ? GST_VIDEO_FORMAT_A444_10LE : GST_VIDEO_FORMAT_A422_10LE;
  else if (c.depth == 12)
    c.format = c.chroma_444 ? GST_VIDEO_FORMAT_Y444_12LE : GST_VIDEO_FORMAT_I422_12LE;
  else
    c.format = c.chroma_444 ? GST_VIDEO_FORMAT_Y444_10LE : GST_VIDEO_FORMAT_I422_10LE;
  c.decode_planes = c.alpha ? 4 : 3;
  c.n_planes = c.pack_ayuv64 ? 1 : c.decode_planes;
  for (uint32_t p = 0; p < c.n_planes; p++)
    c.row_bytes[p] = c.pack_ayuv64 ? c.width * 8 :
        ((p == 1 || p == 2) && !c.chroma_444 ? (c.width + 1) / 2 : c.width) * 2;
  return c;
}

void prores_output_info (GstVideoInfo *info, const ProResOutConfig &c,
    const prores::ProbeInfo &p)
{
  if (c.interlace) {
    GST_VIDEO_INFO_INTERLACE_MODE (info) = GST_VIDEO_INTERLACE_MODE_INTERLEAVED;
    GST_VIDEO_INFO_FIELD_ORDER (info) = c.interlace == 1 ?
        GST_VIDEO_FIELD_ORDER_TOP_FIELD_FIRST : GST_VIDEO_FIELD_ORDER_BOTTOM_FIELD_FIRST;
  }
  if (GST_VIDEO_INFO_FPS_N (info) == 0 && p.fps_n) {
    GST_VIDEO_INFO_FPS_N (info) = (gint) p.fps_n;
    GST_VIDEO_INFO_FPS_D (info) = (gint) p.fps_d;
  }
  /* 0 and 2 mean "unspecified": keep GStreamer's default for the size. */
  if (p.matrix_coefficients && p.matrix_coefficients != 2)
    info->colorimetry.matrix = gst_video_color_matrix_from_iso (p.matrix_coefficients);
  if (p.color_primaries && p.color_primaries != 2)
    info->colorimetry.primaries = gst_video_color_primaries_from_iso (p.color_primaries);
  if (p.transfer_characteristic && p.transfer_characteristic != 2)
    info->colorimetry.transfer = gst_video_transfer_function_from_iso (p.transfer_characteristic);
  /* ProRes codes limited-range Y'CbCr (RDD 36; an alpha plane is full
   * range, but the colorimetry describes Y'CbCr), as FFmpeg and so
   * avdec_prores report it; a container's explicit range is kept. */
  if (info->colorimetry.range == GST_VIDEO_COLOR_RANGE_UNKNOWN)
    info->colorimetry.range = GST_VIDEO_COLOR_RANGE_16_235;
}

ProResHostLayout prores_host_layout (const ProResOutConfig &c)
{
  ProResHostLayout l = {};
  size_t off = 0;
  for (uint32_t p = 0; p < c.n_planes; p++) {
    l.offset[p] = (uint32_t) off;
    l.stride[p] = (c.row_bytes[p] + 3) & ~3u;
    off += (size_t) l.stride[p] * c.height;
  }
  l.size = off;
  return l;
}

ProResGpuLayout prores_gpu_layout (const prores::GpuFrameParams &fp, uint32_t n_planes)
{
  ProResGpuLayout l = {};
  l.rows = fp.padded_height;
  for (uint32_t p = 0; p < n_planes; p++) {
    /* Alpha shares the luma geometry even when the params skip it. */
    const uint32_t samples = p == 3 ? fp.plane_stride[0] : fp.plane_stride[p];
    l.stride[p] = samples * 2;
    l.size[p] = l.stride[p] * l.rows;
  }
  return l;
}

ProResGpuLayout prores_vk_output_layout (const ProResOutConfig &c)
{
  if (c.pack_ayuv64) {
    ProResGpuLayout l = {};
    l.rows = c.height;
    l.stride[0] = c.width * 8;
    l.size[0] = l.stride[0] * c.height;
    return l;
  }
  prores::GpuFrameParams fp = {};
  fp.mb_width = (c.width + 15) / 16;
  fp.chroma_444 = c.chroma_444;
  fp.picture_mb_height = c.interlace ? (c.height + 31) / 32 : (c.height + 15) / 16;
  fp.padded_height = fp.picture_mb_height * 16 * (c.interlace ? 2 : 1);
  fp.plane_stride[0] = fp.mb_width * 16;
  fp.plane_stride[1] = fp.plane_stride[2] = c.chroma_444 ? fp.mb_width * 16 : fp.mb_width * 8;
  fp.plane_stride[3] = fp.mb_width * 16;
  return prores_gpu_layout (fp, c.decode_planes);
}

/* ----------------------------------------------------------- buffer pool */

namespace {

struct ProResVkPool {
  GstBufferPool parent;
  GstVulkanDevice *device;
  GstVideoInfo info;
  ProResGpuLayout layout;
  uint32_t n_planes;
};
struct ProResVkPoolClass {
  GstBufferPoolClass parent_class;
};

GType prores_vk_pool_get_type (void);
G_DEFINE_TYPE (ProResVkPool, prores_vk_pool, GST_TYPE_BUFFER_POOL);

static GstFlowReturn
prores_vk_pool_alloc (GstBufferPool *pool, GstBuffer **buffer, GstBufferPoolAcquireParams *)
{
  ProResVkPool *self = (ProResVkPool *) pool;
  GstBuffer *buf = gst_buffer_new ();
  gsize offset[GST_VIDEO_MAX_PLANES] = {};
  gint stride[GST_VIDEO_MAX_PLANES] = {};
  gsize at = 0;
  for (uint32_t p = 0; p < self->n_planes; p++) {
    GError *error = nullptr;
    GstMemory *mem = vk_storage_alloc (self->device, self->layout.size[p], false, &error);
    if (!mem) {
      GST_ERROR_OBJECT (pool, "%s", error->message);
      g_clear_error (&error);
      gst_buffer_unref (buf);
      return GST_FLOW_ERROR;
    }
    gst_buffer_append_memory (buf, mem);
    offset[p] = at;
    stride[p] = (gint) self->layout.stride[p];
    at += self->layout.size[p];
  }
  GstVideoMeta *meta = gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (&self->info), GST_VIDEO_INFO_WIDTH (&self->info),
      GST_VIDEO_INFO_HEIGHT (&self->info), self->n_planes, offset, stride);
  meta->meta.flags = (GstMetaFlags) (meta->meta.flags | GST_META_FLAG_POOLED);
  *buffer = buf;
  return GST_FLOW_OK;
}

static void
prores_vk_pool_finalize (GObject *object)
{
  ProResVkPool *self = (ProResVkPool *) object;
  gst_clear_object (&self->device);
  G_OBJECT_CLASS (prores_vk_pool_parent_class)->finalize (object);
}

static void
prores_vk_pool_class_init (ProResVkPoolClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = prores_vk_pool_finalize;
  GST_BUFFER_POOL_CLASS (klass)->alloc_buffer = prores_vk_pool_alloc;
}

static void
prores_vk_pool_init (ProResVkPool *)
{
}

} // namespace

GstBufferPool *prores_vk_pool_new (GstVulkanDevice *device, const GstVideoInfo *info,
    const ProResGpuLayout &layout, uint32_t n_planes)
{
  ProResVkPool *self = (ProResVkPool *) g_object_new (prores_vk_pool_get_type (), nullptr);
  gst_object_ref_sink (self);
  self->device = (GstVulkanDevice *) gst_object_ref (device);
  self->info = *info;
  self->layout = layout;
  self->n_planes = n_planes;
  return GST_BUFFER_POOL_CAST (self);
}

/* ------------------------------------------------------------ downloads */

ProResDownloads::ProResDownloads (GstVulkanDevice *device)
    : cache_ (new VkBufferCache (device, VkMemKind::HostRead)),
      lent_ (std::make_shared<std::atomic<int>> (0))
{
}

ProResDownloads::~ProResDownloads ()
{
  delete cache_;
}

GstBuffer *ProResDownloads::acquire (const ProResOutConfig &c, GError **error)
{
  return cache_->acquire (prores_host_layout (c).size, error);
}

void ProResDownloads::trim ()
{
  cache_->trim ();
}

namespace {

struct LentDownload {
  GstBuffer *host;
  GstMapInfo map;
  std::shared_ptr<std::atomic<int>> lent;
};

} // namespace

static void
lent_download_free (gpointer data)
{
  LentDownload *w = (LentDownload *) data;
  gst_memory_unmap (gst_buffer_peek_memory (w->host, 0), &w->map);
  gst_buffer_unref (w->host);   /* back to the download cache */
  (*w->lent)--;
  delete w;
}

GstBuffer *ProResDownloads::lend (GstBuffer *download, const ProResOutConfig &c,
    const GstVideoInfo *info, bool video_meta)
{
  if (*lent_ >= kMaxLent)
    return NULL;
  const ProResHostLayout l = prores_host_layout (c);
  bool same = GST_VIDEO_INFO_N_PLANES (info) == c.n_planes && GST_VIDEO_INFO_SIZE (info) == l.size;
  for (guint32 p = 0; same && p < c.n_planes; p++)
    same = GST_VIDEO_INFO_PLANE_OFFSET (info, p) == l.offset[p]
        && (gsize) GST_VIDEO_INFO_PLANE_STRIDE (info, p) == l.stride[p];
  if (!same && !video_meta)
    return NULL;
  LentDownload *w = new LentDownload { gst_buffer_ref (download), GstMapInfo (), lent_ };
  if (!gst_memory_map (gst_buffer_peek_memory (download, 0), &w->map, GST_MAP_READ)) {
    gst_buffer_unref (w->host);
    delete w;
    return NULL;
  }
  (*lent_)++;
  GstBuffer *out = gst_buffer_new ();
  gst_buffer_append_memory (out, gst_memory_new_wrapped (GST_MEMORY_FLAG_READONLY,
          w->map.data, w->map.size, 0, l.size, w, lent_download_free));
  if (video_meta) {
    gsize offset[GST_VIDEO_MAX_PLANES] = { };
    gint stride[GST_VIDEO_MAX_PLANES] = { };
    for (guint32 p = 0; p < c.n_planes; p++) {
      offset[p] = l.offset[p];
      stride[p] = (gint) l.stride[p];
    }
    gst_buffer_add_video_meta_full (out, GST_VIDEO_FRAME_FLAG_NONE, c.format, c.width, c.height,
        c.n_planes, offset, stride);
  }
  return out;
}

bool ProResDownloads::copy (GstBuffer *download, const ProResOutConfig &c,
    const GstVideoInfo *info, GstBuffer *out, ParallelCopy *copier)
{
  GstVideoFrame vf;
  bool ok = false;
  GstMemory *hmem = gst_buffer_peek_memory (download, 0);
  GstMapInfo map;
  if (gst_video_frame_map (&vf, info, out, GST_MAP_WRITE)) {
    if (gst_memory_map (hmem, &map, GST_MAP_READ)) {
      const ProResHostLayout l = prores_host_layout (c);
      for (guint32 p = 0; p < c.n_planes; p++) {
        guint8 *dst = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&vf, p);
        const gint ds = GST_VIDEO_FRAME_PLANE_STRIDE (&vf, p);
        const guint8 *src = map.data + l.offset[p];
        copier->copy_rows (dst, ds, src, l.stride[p],
            (gsize) ds == l.stride[p] ? l.stride[p] : c.row_bytes[p], c.height);
      }
      gst_memory_unmap (hmem, &map);
      ok = true;
    }
    gst_video_frame_unmap (&vf);
  }
  return ok;
}

} // namespace gpc
