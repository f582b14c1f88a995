/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkproresdelivery.h"

#include "compute/gpcvkbuffer.h"
#include "gpc-parallel-copy.h"

GST_DEBUG_CATEGORY_EXTERN (gst_vk_prores_dec_debug);
#define GST_CAT_DEFAULT gst_vk_prores_dec_debug

namespace gpc {

ProResDelivery::ProResDelivery (GstVulkanDevice *device, ParallelCopy *copier)
    : device_ (device), downloads_ (device), copier_ (copier)
{
  gst_video_info_init (&info_);
}

ProResDelivery::~ProResDelivery ()
{
  release_pool ();
}

bool ProResDelivery::peer_wants_vulkan (GstPad *src, ProResOutputMemory mode, GstCaps *vkcaps)
{
  if (mode == PRORES_OUTPUT_MEMORY_SYSTEM)
    return false;
  GstCaps *peer = gst_pad_peer_query_caps (src, NULL);
  bool want = false;
  if (!peer)
    return false;
  if (mode == PRORES_OUTPUT_MEMORY_VULKAN) {
    want = gst_caps_can_intersect (peer, vkcaps);
  } else if (!gst_caps_is_any (peer)) {
    for (guint i = 0; i < gst_caps_get_size (peer) && !want; i++) {
      GstCapsFeatures *f = gst_caps_get_features (peer, i);
      if (f && !gst_caps_features_is_any (f)
          && gst_caps_features_contains (f, GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER)) {
        GstCaps *one = gst_caps_copy_nth (peer, i);
        want = gst_caps_can_intersect (one, vkcaps);
        gst_caps_unref (one);
      }
    }
  }
  gst_caps_unref (peer);
  return want;
}

GstCaps *ProResDelivery::configure (const ProResOutConfig &c, const GstVideoInfo *info,
    GstPad *src, ProResOutputMemory mode, GstCaps *caps)
{
  GstCaps *vkcaps = gst_caps_copy (caps);
  gst_caps_set_features (vkcaps, 0,
      gst_caps_features_new (GST_CAPS_FEATURE_MEMORY_VULKAN_BUFFER, NULL));
  config_ = c;
  info_ = *info;
  vulkan_ = peer_wants_vulkan (src, mode, vkcaps);
  gst_caps_unref (vulkan_ ? caps : vkcaps);
  /* The decoder drops the old pool itself (deactivating it here could
   * break a downstream element still using it). */
  gst_clear_object (&vk_pool_);
  downloads_.trim ();
  return vulkan_ ? vkcaps : caps;
}

void ProResDelivery::set_flags (GstBuffer *out) const
{
  if (config_.interlace) {
    GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_INTERLACED);
    if (config_.interlace == 1)
      GST_BUFFER_FLAG_SET (out, GST_VIDEO_BUFFER_FLAG_TFF);
  }
}

void ProResDelivery::release_pool ()
{
  if (vk_pool_) {
    gst_buffer_pool_set_active (vk_pool_, FALSE);
    gst_clear_object (&vk_pool_);
  }
}

bool ProResDelivery::decide_vulkan (GstQuery *query, GstVulkanDevice *device, guint min_buffers)
{
  /* Storage buffers, one per plane, padded like the kernel writes them.
   * The layout follows from the size and format only. */
  GstCaps *caps;
  gst_query_parse_allocation (query, &caps, NULL);
  GstVideoInfo info;
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return false;
  const ProResOutConfig &c = config_;
  ProResGpuLayout l = prores_vk_output_layout (c);
  guint total = 0;
  for (guint32 p = 0; p < c.n_planes; p++)
    total += l.size[p];

  GstBufferPool *pool = prores_vk_pool_new (device, &info, l, c.n_planes);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, total, min_buffers, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return false;
  }
  while (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  gst_query_add_allocation_pool (query, pool, total, min_buffers, 0);
  if (vk_pool_)
    gst_object_unref (vk_pool_);
  vk_pool_ = pool;
  return true;
}

void ProResDelivery::decide_system (GstObject *element, GstQuery *query, bool offered)
{
  downstream_pool_ = offered;
  direct_ = Direct::kUnknown;
  video_meta_ = gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  GstBufferPool *pool = NULL;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  if (!pool)
    return;
  if (video_meta_ && gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META)) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config (pool, config))
      GST_DEBUG_OBJECT (element, "pool %" GST_PTR_FORMAT " refused VideoMeta", pool);
  }
  GST_DEBUG_OBJECT (element, "system memory into %" GST_PTR_FORMAT " (%s), VideoMeta %s", pool,
      offered ? "downstream's: frames go into its buffers" : "ours: downloads lent",
      video_meta_ ? "read" : "not read");
  gst_object_unref (pool);
}

bool ProResDelivery::gpu_writable (GstBuffer *buf, ProResDownload *d) const
{
  for (guint32 p = 0; p < config_.n_planes; p++) {
    GstMemory *m;
    gsize off;
    gint stride;
    if (!video_plane_location (buf, &info_, p, &m, &off, &stride) || stride <= 0
        || (gsize) stride < config_.row_bytes[p] || !gst_is_vulkan_buffer_memory (m))
      return false;
    GstVulkanBufferMemory *vm = (GstVulkanBufferMemory *) m;
    const gsize need = (gsize) stride * (config_.height - 1) + config_.row_bytes[p];
    /* Coherent: downstream maps it without invalidating the host's view. */
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if (vm->device->device != device_->device || (vm->vk_mem->properties & host) != host
        || !(vm->usage & VK_BUFFER_USAGE_TRANSFER_DST_BIT) || off + need > m->size)
      return false;
    d->mem[p] = vm;
    d->offset[p] = m->offset + off;
    d->stride[p] = (gsize) stride;
  }
  d->buffer = buf;
  return true;
}

GstFlowReturn ProResDelivery::prepare (GstVideoDecoder *dec, GstVideoCodecFrame *frame,
    GstBuffer **vk_out, ProResDownload *download, GError **error)
{
  *vk_out = NULL;
  *download = ProResDownload ();
  if (vulkan_) {
    GstFlowReturn ret = gst_video_decoder_allocate_output_frame (dec, frame);
    if (ret != GST_FLOW_OK)
      return ret;
    *vk_out = frame->output_buffer;
    set_flags (*vk_out);
    return GST_FLOW_OK;
  }
  GstBufferPool *pool = downstream_pool_ && direct_ != Direct::kNo ?
      gst_video_decoder_get_buffer_pool (dec) : NULL;
  if (pool) {
    GstBufferPoolAcquireParams params = {};
    params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
    GstBuffer *buf = NULL;
    if (gst_buffer_pool_is_active (pool)
        && gst_buffer_pool_acquire_buffer (pool, &buf, &params) == GST_FLOW_OK) {
      const bool direct = gpu_writable (buf, download);
      if (direct_ == Direct::kUnknown)
        GST_DEBUG_OBJECT (dec, "downstream's pool %" GST_PTR_FORMAT " %s", pool, direct ?
            "holds host-visible Vulkan memory of our device: the GPU writes into it" :
            "does not hold Vulkan memory that the GPU can write: frames copied into it");
      direct_ = direct ? Direct::kYes : Direct::kNo;
      if (!direct)
        gst_buffer_unref (buf);
    }
    gst_object_unref (pool);
    if (download->buffer)
      return GST_FLOW_OK;
  }
  GstBuffer *buf = downloads_.acquire (config_, error);
  if (!buf)
    return GST_FLOW_ERROR;
  *download = prores_host_download (buf, config_);
  return GST_FLOW_OK;
}

GstFlowReturn ProResDelivery::output (GstVideoDecoder *dec, GstVideoCodecFrame *frame,
    GstBuffer *download)
{
  if (download->pool) {
    /* Downstream's own buffer, which the GPU wrote. */
    gst_buffer_replace (&frame->output_buffer, download);
    set_flags (frame->output_buffer);
    return GST_FLOW_OK;
  }
  GstFlowReturn ret = GST_FLOW_OK;
  GstVideoCodecState *state = gst_video_decoder_get_output_state (dec);
  GstBuffer *lent = state && !downstream_pool_ ?
      downloads_.lend (download, config_, &state->info, video_meta_) : NULL;
  if (lent) {
    GST_LOG_OBJECT (dec, "download lent as the output buffer");
    gst_buffer_replace (&frame->output_buffer, NULL);
    frame->output_buffer = lent;
  } else {
    ret = gst_video_decoder_allocate_output_frame (dec, frame);
    if (ret == GST_FLOW_OK && !(state && ProResDownloads::copy (download, config_, &state->info,
                frame->output_buffer, copier_))) {
      GST_ELEMENT_ERROR (dec, RESOURCE, READ, ("Could not read back a frame"), (NULL));
      ret = GST_FLOW_ERROR;
    }
  }
  if (state)
    gst_video_codec_state_unref (state);
  if (ret == GST_FLOW_OK)
    set_flags (frame->output_buffer);
  return ret;
}

} // namespace gpc
