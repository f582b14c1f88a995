/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vvcalf-builder.h"

#include <string.h>

#include "vvcalf-derive.h"

namespace gpc {

void vvc_alf_synthetic_aps (GstVvcAlfAps &aps)
{
  /* Arbitrary but plausible: a mild chroma low-pass and a luma high-pass for
   * CC-ALF, with some clipping so both code paths run. */
  static const gint16 chroma[6] = { 3, 5, 12, 5, -2, 18 };
  static const guint8 chroma_clip[6] = { 0, 1, 0, 1, 2, 0 };
  static const gint16 cc[2][7] = { { -4, 2, 2, -1, 2, -1, 0 }, { 2, -1, -1, 1, -2, 1, 0 } };
  memset (&aps, 0, sizeof (aps));
  aps.chroma_num_alts = 1;
  memcpy (aps.chroma_coeff[0], chroma, sizeof (chroma));
  memcpy (aps.chroma_clip_idx[0], chroma_clip, sizeof (chroma_clip));
  for (int c = 0; c < 2; c++) {
    aps.cc_num_filters[c] = 1;
    memcpy (aps.cc_coeff[c][0], cc[c], sizeof (cc[c]));
  }
}

bool vvc_alf_build_synthetic_info (const VvcAlfSyntheticConfig &cfg, GstVvcAlfInfo &info,
    std::string &error)
{
  if (!gst_vvc_alf_info_init (&info, cfg.width, cfg.height, cfg.chroma_format, cfg.bit_depth,
          cfg.ctb_size)) {
    error = "unusable picture geometry";
    return false;
  }
  if (cfg.fixed_set > 15) {
    gst_vvc_alf_info_clear (&info);
    error = "fixed filter set index must be 0..15";
    return false;
  }
  const bool chroma = cfg.chroma_format != GST_VVC_ALF_CHROMA_400;
  vvc_alf_synthetic_aps (info.aps[0]);
  info.aps_present = 1;

  const unsigned cols = (cfg.width + cfg.ctb_size - 1) / cfg.ctb_size;
  const unsigned rows = (cfg.height + cfg.ctb_size - 1) / cfg.ctb_size;
  for (unsigned i = 0; i < info.n_ctbs; i++) {
    GstVvcAlfCtb &t = info.ctbs[i];
    const unsigned col = i % cols, row = i / cols;
    if (cfg.y) {
      t.flags |= GST_VVC_ALF_CTB_Y;
      t.luma_set = (guint8) cfg.fixed_set;
    }
    if (chroma && (cfg.cb || cfg.cr)) {
      t.flags |= (cfg.cb ? GST_VVC_ALF_CTB_CB : 0) | (cfg.cr ? GST_VVC_ALF_CTB_CR : 0);
      t.chroma_aps = 0;
    }
    if (chroma && cfg.cc_cb) {
      t.cc_aps[0] = 0;
      t.cc_idc[0] = 1;
    }
    if (chroma && cfg.cc_cr) {
      t.cc_aps[1] = 0;
      t.cc_idc[1] = 1;
    }
    if (col == 0)
      t.flags |= GST_VVC_ALF_CTB_EDGE_LEFT;
    if (col == cols - 1)
      t.flags |= GST_VVC_ALF_CTB_EDGE_RIGHT;
    if (row == 0)
      t.flags |= GST_VVC_ALF_CTB_EDGE_TOP;
    if (row == rows - 1)
      t.flags |= GST_VVC_ALF_CTB_EDGE_BOTTOM;
  }
  error = vvc_alf_info_check (info);
  if (!error.empty ()) {
    gst_vvc_alf_info_clear (&info);
    return false;
  }
  return true;
}

bool vvc_alf_build_synthetic (const VvcAlfSyntheticConfig &cfg, VvcAlfParams &out,
    std::string &error)
{
  GstVvcAlfInfo info;
  if (!vvc_alf_build_synthetic_info (cfg, info, error))
    return false;
  bool ok = vvc_alf_params_from_info (info, out, error);
  gst_vvc_alf_info_clear (&info);
  return ok;
}

} // namespace gpc
