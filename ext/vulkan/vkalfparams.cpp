/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkalfparams.h"

#include <string.h>

#include "vvcalf-json.h"

GType
gpc_alf_params_source_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GPC_ALF_PARAMS_AUTO, "The buffer's GstVvcAlfMeta if it has one, else "
          "params-location if set, else synthetic", "auto"},
    {GPC_ALF_PARAMS_META, "GstVvcAlfMeta on every buffer (error without)", "meta"},
    {GPC_ALF_PARAMS_FILE, "vvc-alf-params JSON file(s) at params-location", "file"},
    {GPC_ALF_PARAMS_SYNTHETIC, "Synthetic parameters from the ctb-size, "
          "fixed-filter-set and component properties", "synthetic"},
    {0, NULL, NULL},
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstVkVvcAlfParamsSource", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

namespace gpc {

const VvcAlfParams *alf_params_for (const AlfParamsRequest &r, VvcAlfParams &storage,
    const char **what, std::string *path, std::string &err)
{
  GpcAlfParamsSource src = r.source;
  if (src == GPC_ALF_PARAMS_AUTO)
    src = r.meta ? GPC_ALF_PARAMS_META : r.location ? GPC_ALF_PARAMS_FILE :
        GPC_ALF_PARAMS_SYNTHETIC;
  gboolean bad, pattern;
  switch (src) {
    case GPC_ALF_PARAMS_META:
      *what = "GstVvcAlfMeta";
      if (!r.meta)
        err = "the buffer has no GstVvcAlfMeta";
      else if (vvc_alf_params_from_meta (*r.meta, storage, err))
        return &storage;
      return nullptr;
    case GPC_ALF_PARAMS_FILE:
      *what = "vvc-alf-params file";
      if (!r.location) {
        err = "params-location is not set";
        return nullptr;
      }
      pattern = alf_location_is_pattern (r.location, &bad);
      if (bad) {
        err = std::string ("params-location \"") + r.location +
            "\" must hold at most one integer conversion (like %05d); write %% for a literal %";
        return nullptr;
      }
      if (pattern) {
        gchar *p = g_strdup_printf (r.location, (int) r.index);
        *path = p;
        g_free (p);
      } else {
        *path = r.location;
      }
      if (vvc_alf_params_from_json_file (path->c_str (), storage, err))
        return &storage;
      err = *path + ": " + err;
      return nullptr;
    default:
      *what = "synthetic parameters";
      if (!r.synth)
        err = r.synth_error ? r.synth_error : "not built";
      return r.synth;
  }
}

gboolean alf_location_is_pattern (const gchar *pattern, gboolean *bad)
{
  int conversions = 0;
  *bad = FALSE;
  for (const gchar *p = pattern; *p; p++) {
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

gboolean alf_layout_of (const GstVideoInfo *info, GstVvcAlfChromaFormat *cf, guint *depth)
{
  const GstVideoFormatInfo *f = info->finfo;
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_GRAY16_LE) {
    *cf = GST_VVC_ALF_CHROMA_400;
    *depth = 0;
    return TRUE;
  }
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

bool alf_same_params (const VvcAlfParams &a, const VvcAlfParams &b)
{
  return a.ctbs.size () == b.ctbs.size () && memcmp (&a.pic, &b.pic, sizeof (a.pic)) == 0
      && memcmp (a.ctbs.data (), b.ctbs.data (), a.ctbs.size () * sizeof (VvcAlfCtbParams)) == 0;
}

std::string alf_params_mismatch (const VvcAlfPicParams &p, const GstVideoInfo *info,
    GstVvcAlfChromaFormat cf, guint depth)
{
  const bool depth_ok = depth ? p.bit_depth == (int) depth : p.bit_depth > 8 && p.bit_depth <= 12;
  if (p.width == GST_VIDEO_INFO_WIDTH (info) && p.height == GST_VIDEO_INFO_HEIGHT (info)
      && p.chroma_format == (int) cf && depth_ok)
    return std::string ();
  /* sps_chroma_format_idc, named as the caps would say it */
  static const char *const kChroma[] = { "4:0:0", "4:2:0", "4:2:2", "4:4:4" };
  const char *chroma = p.chroma_format >= 0 && p.chroma_format < 4 ? kChroma[p.chroma_format] : "?";
  return "parameters for a " + std::to_string (p.width) + "x" + std::to_string (p.height) + " " +
      chroma + " " + std::to_string (p.bit_depth) + "-bit picture do not match the caps (" +
      std::to_string (GST_VIDEO_INFO_WIDTH (info)) + "x" +
      std::to_string (GST_VIDEO_INFO_HEIGHT (info)) + " " +
      gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)) + ")";
}

} // namespace gpc
