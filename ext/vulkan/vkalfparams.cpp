/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vkalfparams.h"

#include <string.h>

namespace gpc {

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
  if (p.width == GST_VIDEO_INFO_WIDTH (info) && p.height == GST_VIDEO_INFO_HEIGHT (info)
      && p.chroma_format == (int) cf && p.bit_depth == (int) depth)
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
