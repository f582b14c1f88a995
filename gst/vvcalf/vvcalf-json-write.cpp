/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vvc-alf-params (version 1) writer, in the layout of the conformance
 * vectors: one CTB per line.
 */
#include <stdio.h>

#include "vvcalf-json.h"

namespace gpc {

namespace {

void add (std::string &s, const char *f, long v)
{
  char buf[160];
  snprintf (buf, sizeof (buf), f, v);
  s += buf;
}

void add_id (std::string &s, gint8 id)
{
  if (id < 0)
    s += "null";
  else
    add (s, "%ld", id);
}

template <typename T>
void add_matrix (std::string &s, const T *m, int rows, int cols)
{
  s += "[";
  for (int r = 0; r < rows; r++) {
    s += r ? ",[" : "[";
    for (int c = 0; c < cols; c++)
      add (s, c ? ",%ld" : "%ld", (long) m[r * cols + c]);
    s += "]";
  }
  s += "]";
}

const char *tf (bool b)
{
  return b ? "true" : "false";
}

} // namespace

std::string vvc_alf_info_to_json (const GstVvcAlfInfo &info)
{
  static const char *formats[4] = { "400", "420", "422", "444" };
  std::string s = "{\n \"format\":\"vvc-alf-params\",\"version\":1,\n \"poc\":0";
  add (s, ", \"width\":%ld", info.width);
  add (s, ", \"height\":%ld", info.height);
  s += ", \"chroma_format\":\"";
  s += formats[(unsigned) info.chroma_format & 3];
  s += "\"";
  add (s, ", \"bit_depth_luma\":%ld", info.bit_depth);
  add (s, ", \"bit_depth_chroma\":%ld", info.bit_depth);
  add (s, ",\n \"ctb_size_y\":%ld,\n", info.ctb_size);

  bool en[5] = { false, false, false, false, false };
  for (guint i = 0; i < info.n_ctbs && info.ctbs; i++) {
    const GstVvcAlfCtb &t = info.ctbs[i];
    en[0] |= (t.flags & GST_VVC_ALF_CTB_Y) != 0;
    en[1] |= (t.flags & GST_VVC_ALF_CTB_CB) != 0;
    en[2] |= (t.flags & GST_VVC_ALF_CTB_CR) != 0;
    en[3] |= t.cc_idc[0] != 0;
    en[4] |= t.cc_idc[1] != 0;
  }
  s += " \"alf_enabled\":{\"y\":";
  s += tf (en[0]);
  s += ",\"cb\":";
  s += tf (en[1]);
  s += ",\"cr\":";
  s += tf (en[2]);
  s += ",\"cc_cb\":";
  s += tf (en[3]);
  s += ",\"cc_cr\":";
  s += tf (en[4]);
  s += "},\n \"aps\":[";

  bool first = true;
  for (int id = 0; id < GST_VVC_ALF_MAX_APS; id++) {
    if (!((info.aps_present >> id) & 1))
      continue;
    const GstVvcAlfAps &a = info.aps[id];
    s += first ? "\n  {" : ",\n  {";
    first = false;
    add (s, "\"id\":%ld,\n   \"luma\":", id);
    if (a.luma_present) {
      s += "{\"coeff\":";
      add_matrix (s, &a.luma_coeff[0][0], 25, 12);
      s += ",\n    \"clip_idx\":";
      add_matrix (s, &a.luma_clip_idx[0][0], 25, 12);
      s += "}";
    } else {
      s += "null";
    }
    s += ",\n   \"chroma\":";
    if (a.chroma_num_alts) {
      s += "{\"coeff\":";
      add_matrix (s, &a.chroma_coeff[0][0], a.chroma_num_alts, 6);
      s += ", \"clip_idx\":";
      add_matrix (s, &a.chroma_clip_idx[0][0], a.chroma_num_alts, 6);
      s += "}";
    } else {
      s += "null";
    }
    for (int c = 0; c < 2; c++) {
      s += c ? ", \"cc_cr\":" : ",\n   \"cc_cb\":";
      if (a.cc_num_filters[c])
        add_matrix (s, &a.cc_coeff[c][0][0], a.cc_num_filters[c], 7);
      else
        s += "null";
    }
    s += "}";
  }
  s += "],\n \"ctbs\":[";
  for (guint i = 0; i < info.n_ctbs && info.ctbs; i++) {
    const GstVvcAlfCtb &t = info.ctbs[i];
    s += i ? ",\n  {" : "\n  {";
    add (s, "\"y\":%ld", (t.flags & GST_VVC_ALF_CTB_Y) ? 1 : 0);
    add (s, ",\"cb\":%ld", (t.flags & GST_VVC_ALF_CTB_CB) ? 1 : 0);
    add (s, ",\"cr\":%ld", (t.flags & GST_VVC_ALF_CTB_CR) ? 1 : 0);
    add (s, ",\"luma_set\":%ld,\"luma_aps\":", t.luma_set);
    add_id (s, t.luma_aps);
    s += ",\"chroma_aps\":";
    add_id (s, t.chroma_aps);
    add (s, ",\"chroma_alt\":[%ld", t.chroma_alt[0]);
    add (s, ",%ld],\"cc_cb_aps\":", t.chroma_alt[1]);
    add_id (s, t.cc_aps[0]);
    add (s, ",\"cc_cb_idc\":%ld,\"cc_cr_aps\":", t.cc_idc[0]);
    add_id (s, t.cc_aps[1]);
    add (s, ",\"cc_cr_idc\":%ld,\"edges\":{\"left\":", t.cc_idc[1]);
    s += tf (t.flags & GST_VVC_ALF_CTB_EDGE_LEFT);
    s += ",\"right\":";
    s += tf (t.flags & GST_VVC_ALF_CTB_EDGE_RIGHT);
    s += ",\"top\":";
    s += tf (t.flags & GST_VVC_ALF_CTB_EDGE_TOP);
    s += ",\"bottom\":";
    s += tf (t.flags & GST_VVC_ALF_CTB_EDGE_BOTTOM);
    s += "}}";
  }
  s += "],\n \"virtual_boundaries\":{\"x\":[";
  for (guint k = 0; k < info.num_vb_x && k < 3; k++)
    add (s, k ? ",%ld" : "%ld", info.vb_x[k]);
  s += "],\"y\":[";
  for (guint k = 0; k < info.num_vb_y && k < 3; k++)
    add (s, k ? ",%ld" : "%ld", info.vb_y[k]);
  s += "]},\n \"raster_slice_corners\":[";
  first = true;
  for (guint i = 0; i < info.n_ctbs && info.ctbs; i++) {
    const GstVvcAlfCtb &t = info.ctbs[i];
    if (!(t.flags & (GST_VVC_ALF_CTB_CORNER_TOP_LEFT | GST_VVC_ALF_CTB_CORNER_BOTTOM_RIGHT)))
      continue;
    add (s, first ? "{\"ctb\":%ld" : ",{\"ctb\":%ld", i);
    first = false;
    s += ",\"top_left\":";
    s += tf (t.flags & GST_VVC_ALF_CTB_CORNER_TOP_LEFT);
    s += ",\"bottom_right\":";
    s += tf (t.flags & GST_VVC_ALF_CTB_CORNER_BOTTOM_RIGHT);
    s += "}";
  }
  s += "]\n}\n";
  return s;
}

} // namespace gpc
