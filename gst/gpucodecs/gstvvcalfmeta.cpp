/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstVvcAlfMeta: registration, deep copy on buffer copies, and the C entry
 * point to the shared validation (vvcalf-derive.cpp).
 */
#include "gstvvcalfmeta.h"

#include <string.h>

#include "vvcalf-derive.h"

static void
gst_vvc_alf_info_reset_ctbs (GstVvcAlfInfo * info)
{
  for (guint i = 0; i < info->n_ctbs; i++) {
    GstVvcAlfCtb *t = &info->ctbs[i];
    memset (t, 0, sizeof (*t));
    t->luma_aps = t->chroma_aps = t->cc_aps[0] = t->cc_aps[1] = -1;
  }
}

gboolean
gst_vvc_alf_info_init (GstVvcAlfInfo * info, guint width, guint height,
    GstVvcAlfChromaFormat chroma_format, guint bit_depth, guint ctb_size)
{
  g_return_val_if_fail (info != NULL, FALSE);
  memset (info, 0, sizeof (*info));
  if (width == 0 || height == 0 || width > 65535 || height > 65535
      || (ctb_size != 32 && ctb_size != 64 && ctb_size != 128))
    return FALSE;
  info->width = width;
  info->height = height;
  info->chroma_format = chroma_format;
  info->bit_depth = bit_depth;
  info->ctb_size = ctb_size;
  info->line_buffer_boundary_in_last_row = TRUE;
  info->n_ctbs = ((width + ctb_size - 1) / ctb_size) * ((height + ctb_size - 1) / ctb_size);
  info->ctbs = g_new0 (GstVvcAlfCtb, info->n_ctbs);
  gst_vvc_alf_info_reset_ctbs (info);
  return TRUE;
}

void
gst_vvc_alf_info_clear (GstVvcAlfInfo * info)
{
  g_return_if_fail (info != NULL);
  g_free (info->ctbs);
  memset (info, 0, sizeof (*info));
}

void
gst_vvc_alf_info_copy (GstVvcAlfInfo * dest, const GstVvcAlfInfo * src)
{
  g_return_if_fail (dest != NULL && src != NULL);
  *dest = *src;
  dest->ctbs = src->n_ctbs && src->ctbs
      ? (GstVvcAlfCtb *) g_memdup2 (src->ctbs, sizeof (GstVvcAlfCtb) * src->n_ctbs) : NULL;
  if (!dest->ctbs)
    dest->n_ctbs = 0;
}

gboolean
gst_vvc_alf_info_validate (const GstVvcAlfInfo * info, gchar ** error)
{
  g_return_val_if_fail (info != NULL, FALSE);
  std::string e = gpc::vvc_alf_info_check (*info);
  if (e.empty ())
    return TRUE;
  if (error)
    *error = g_strdup (e.c_str ());
  return FALSE;
}

static gboolean
gst_vvc_alf_meta_init (GstMeta * meta, gpointer params, GstBuffer * buffer)
{
  (void) params;
  (void) buffer;
  memset (&((GstVvcAlfMeta *) meta)->info, 0, sizeof (GstVvcAlfInfo));
  return TRUE;
}

static void
gst_vvc_alf_meta_free (GstMeta * meta, GstBuffer * buffer)
{
  (void) buffer;
  gst_vvc_alf_info_clear (&((GstVvcAlfMeta *) meta)->info);
}

static gboolean
gst_vvc_alf_meta_transform (GstBuffer * dest, GstMeta * meta, GstBuffer * buffer,
    GQuark type, gpointer data)
{
  (void) buffer;
  (void) data;
  /* The parameters describe the whole picture: only whole copies keep them. */
  if (!GST_META_TRANSFORM_IS_COPY (type))
    return FALSE;
  GstMetaTransformCopy *copy = (GstMetaTransformCopy *) data;
  if (copy && copy->region)
    return FALSE;
  return gst_buffer_add_vvc_alf_meta (dest, &((GstVvcAlfMeta *) meta)->info) != NULL;
}

GType
gst_vvc_alf_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };
  if (g_once_init_enter (&type)) {
    /* The plugin and an application may each link a copy of this file:
     * whichever runs second finds the type the first registered. */
    GType t = g_type_from_name ("GstVvcAlfMetaAPI");
    if (!t)
      t = gst_meta_api_type_register ("GstVvcAlfMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

const GstMetaInfo *
gst_vvc_alf_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;
  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_get_info ("GstVvcAlfMeta");
    if (!mi)
      mi = gst_meta_register (GST_VVC_ALF_META_API_TYPE, "GstVvcAlfMeta",
          sizeof (GstVvcAlfMeta), gst_vvc_alf_meta_init, gst_vvc_alf_meta_free,
          gst_vvc_alf_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

GstVvcAlfMeta *
gst_buffer_add_vvc_alf_meta (GstBuffer * buffer, const GstVvcAlfInfo * info)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  g_return_val_if_fail (info != NULL, NULL);
  GstVvcAlfMeta *meta = (GstVvcAlfMeta *) gst_buffer_add_meta (buffer, GST_VVC_ALF_META_INFO, NULL);
  if (!meta)
    return NULL;
  gst_vvc_alf_info_copy (&meta->info, info);
  return meta;
}

GstVvcAlfMeta *
gst_buffer_get_vvc_alf_meta (GstBuffer * buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  return (GstVvcAlfMeta *) gst_buffer_get_meta (buffer, GST_VVC_ALF_META_API_TYPE);
}
