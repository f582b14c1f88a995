/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gstvmafmotionmeta.h"

GType
gst_vmaf_motion_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    /* The plugin and an application may each link a copy of this file:
     * whichever runs second finds the type the first registered. */
    GType t = g_type_from_name ("GstVmafMotionMetaAPI");
    if (!t)
      t = gst_meta_api_type_register ("GstVmafMotionMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

static gboolean
vmaf_motion_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  GstVmafMotionMeta *m = (GstVmafMotionMeta *) meta;
  m->index = 0;
  m->sad = 0;
  m->has_sad = FALSE;
  m->motion = 0.0;
  return TRUE;
}

static gboolean
vmaf_motion_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * src,
    GQuark type, gpointer data)
{
  GstVmafMotionMeta *m = (GstVmafMotionMeta *) meta;
  /* The values describe the frame's content: keep them on copies only. */
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  return gst_buffer_add_vmaf_motion_meta (dest, m->index, m->sad, m->has_sad,
      m->motion) != NULL;
}

const GstMetaInfo *
gst_vmaf_motion_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_get_info ("GstVmafMotionMeta");
    if (!mi)
      mi = gst_meta_register (GST_VMAF_MOTION_META_API_TYPE,
        "GstVmafMotionMeta", sizeof (GstVmafMotionMeta),
        vmaf_motion_meta_init, NULL, vmaf_motion_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

GstVmafMotionMeta *
gst_buffer_add_vmaf_motion_meta (GstBuffer * buffer, guint64 index, guint64 sad,
    gboolean has_sad, gdouble motion)
{
  GstVmafMotionMeta *m = (GstVmafMotionMeta *) gst_buffer_add_meta (buffer,
      GST_VMAF_MOTION_META_INFO, NULL);
  if (!m)
    return NULL;
  m->index = index;
  m->sad = sad;
  m->has_sad = has_sad;
  m->motion = motion;
  return m;
}
