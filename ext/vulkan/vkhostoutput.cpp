/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkhostoutput.h"

namespace gpc {

void HostOutput::propose (GstQuery *query, guint min_buffers)
{
  GstCaps *caps;
  gboolean need_pool;
  GstVideoInfo info;

  gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!need_pool || !caps || !gst_video_info_from_caps (&info, caps))
    return;
  GstBufferPool *pool = gst_video_buffer_pool_new ();
  GstStructure *config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info), min_buffers, 0);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (gst_buffer_pool_set_config (pool, config))
    gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), min_buffers, 0);
  gst_object_unref (pool);
}

bool HostOutput::decide (GstQuery *query)
{
  GstCaps *caps;
  GstBufferPool *pool = NULL;
  GstVideoInfo info;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&info, caps))
    return false;
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, &pool, NULL, NULL, NULL);
  lend_ = pool == NULL;
  if (!pool) {
    pool = gst_video_buffer_pool_new ();
    gst_query_add_allocation_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), 0, 0);
  }
  if (gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL)
      && gst_buffer_pool_has_option (pool, GST_BUFFER_POOL_OPTION_VIDEO_META)) {
    GstStructure *config = gst_buffer_pool_get_config (pool);
    gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    gst_buffer_pool_set_config (pool, config);
  }
  gst_object_unref (pool);
  return true;
}

/* `picture` (one memory laid out as `info`) copied into `out`, laid out as
 * its GstVideoMeta says (or as `info`). */
static bool
copy_picture (GstMemory *picture, const GstVideoInfo *info, GstBuffer *out)
{
  GstBuffer *src = gst_buffer_new ();
  gst_buffer_append_memory (src, gst_memory_ref (picture));
  GstVideoFrame s, d;
  bool ok = false;
  if (gst_video_frame_map (&s, info, src, GST_MAP_READ)) {
    if (gst_video_frame_map (&d, info, out, GST_MAP_WRITE)) {
      ok = gst_video_frame_copy (&d, &s);
      gst_video_frame_unmap (&d);
    }
    gst_video_frame_unmap (&s);
  }
  gst_buffer_unref (src);
  return ok;
}

GstFlowReturn HostOutput::output (GstMemory *picture, const GstVideoInfo *info,
    GstBufferPool *pool, guint lent, guint in_flight, GstBuffer **out) const
{
  *out = NULL;
  if (lend_ && lent <= kMaxLent + in_flight) {
    *out = gst_buffer_new ();
    gst_buffer_append_memory (*out, gst_memory_ref (picture));
    return GST_FLOW_OK;
  }
  GstFlowReturn ret = GST_FLOW_ERROR;
  if (pool && (gst_buffer_pool_is_active (pool) || gst_buffer_pool_set_active (pool, TRUE)))
    ret = gst_buffer_pool_acquire_buffer (pool, out, NULL);
  if (ret == GST_FLOW_OK && !copy_picture (picture, info, *out)) {
    gst_clear_buffer (out);
    ret = GST_FLOW_ERROR;
  }
  return ret;
}

} // namespace gpc
