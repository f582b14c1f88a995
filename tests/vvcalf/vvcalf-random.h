/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Random but valid ALF parameters and random picture content for the
 * vvcalf tests. Biased towards extremes: coefficients -128 / 127, CC-ALF
 * +-64, all clip indices, all chroma alternatives and CC-ALF filters, CTB
 * sizes 32 / 64 / 128 and picture sizes that are not CTB multiples.
 */
#pragma once

#include <string.h>

#include "gpc-test.h"
#include "gstvvcalfmeta.h"
#include "vvcalf-test-util.h"

namespace vvcalf_test {

struct RandomLimits {
  unsigned max_width = 320, max_height = 288;
};

inline int pick_coeff (gpc_test::Rng &r)
{
  switch (r.range (0, 5)) {
    case 0: return -128;
    case 1: return 127;
    case 2: return (int) r.range (-128, 127);
    default: return (int) r.range (-16, 16);
  }
}

inline int pick_cc (gpc_test::Rng &r)
{
  int m = (int) r.range (0, 7);  /* mapped abs: 0 -> 0, k -> 2^(k-1) */
  int v = m ? 1 << (m - 1) : 0;
  return r.chance (50) ? -v : v;
}

inline void random_aps (gpc_test::Rng &r, GstVvcAlfAps &a)
{
  memset (&a, 0, sizeof (a));
  a.luma_present = r.chance (80);
  if (a.luma_present) {
    bool clip = r.chance (70);
    for (int k = 0; k < 25; k++)
      for (int j = 0; j < 12; j++) {
        a.luma_coeff[k][j] = (gint16) pick_coeff (r);
        a.luma_clip_idx[k][j] = clip ? (guint8) r.range (0, 3) : 0;
      }
  }
  a.chroma_num_alts = r.chance (80) ? (guint8) r.range (1, 8) : 0;
  for (int k = 0; k < a.chroma_num_alts; k++)
    for (int j = 0; j < 6; j++) {
      a.chroma_coeff[k][j] = (gint16) pick_coeff (r);
      a.chroma_clip_idx[k][j] = (guint8) r.range (0, 3);
    }
  for (int c = 0; c < 2; c++) {
    a.cc_num_filters[c] = r.chance (70) ? (guint8) r.range (1, 4) : 0;
    for (int k = 0; k < a.cc_num_filters[c]; k++)
      for (int j = 0; j < 7; j++)
        a.cc_coeff[c][k][j] = (gint16) pick_cc (r);
  }
}

/* A valid random GstVvcAlfInfo (free with gst_vvc_alf_info_clear). */
inline void random_info (gpc_test::Rng &r, GstVvcAlfInfo &info, const RandomLimits &lim = RandomLimits ())
{
  static const guint ctb_sizes[3] = { 32, 64, 128 };
  static const guint depths[3] = { 8, 10, 12 };
  guint ctb = ctb_sizes[r.range (0, 2)];
  guint w = 8 * (guint) r.range (1, lim.max_width / 8);
  guint h = 8 * (guint) r.range (1, lim.max_height / 8);
  auto cf = (GstVvcAlfChromaFormat) r.range (0, 3);
  gst_vvc_alf_info_init (&info, w, h, cf, depths[r.range (0, 2)], ctb);
  info.line_buffer_boundary_in_last_row = r.chance (80);

  for (int id = 0; id < 8; id++) {
    if (r.chance (50)) {
      random_aps (r, info.aps[id]);
      info.aps_present |= (guint8) (1u << id);
    }
  }
  int luma_ids[8], n_luma = 0, chroma_ids[8], n_chroma = 0, cc_ids[2][8], n_cc[2] = { 0, 0 };
  for (int id = 0; id < 8; id++) {
    if (!((info.aps_present >> id) & 1))
      continue;
    if (info.aps[id].luma_present)
      luma_ids[n_luma++] = id;
    if (info.aps[id].chroma_num_alts)
      chroma_ids[n_chroma++] = id;
    for (int c = 0; c < 2; c++)
      if (info.aps[id].cc_num_filters[c])
        cc_ids[c][n_cc[c]++] = id;
  }

  for (int d = 0; d < 2; d++) {
    guint lim_d = d ? h : w;
    guint n = lim_d > 8 && r.chance (30) ? (guint) r.range (1, 3) : 0;
    for (guint k = 0; k < n; k++)
      (d ? info.vb_y : info.vb_x)[k] = 8 * (guint) r.range (1, (lim_d - 1) / 8);
    (d ? info.num_vb_y : info.num_vb_x) = n;
  }

  const bool chroma = cf != GST_VVC_ALF_CHROMA_400;
  for (guint i = 0; i < info.n_ctbs; i++) {
    GstVvcAlfCtb &t = info.ctbs[i];
    if (r.chance (85)) {
      t.flags |= GST_VVC_ALF_CTB_Y;
      if (n_luma && r.chance (50)) {
        t.luma_set = (guint8) (16 + r.range (0, 6));
        t.luma_aps = (gint8) luma_ids[r.range (0, n_luma - 1)];
      } else {
        t.luma_set = (guint8) r.range (0, 15);
      }
    }
    if (chroma && n_chroma) {
      int id = chroma_ids[r.range (0, n_chroma - 1)];
      for (int c = 0; c < 2; c++) {
        if (r.chance (75)) {
          t.flags |= (guint16) (GST_VVC_ALF_CTB_CB << c);
          t.chroma_alt[c] = (guint8) r.range (0, info.aps[id].chroma_num_alts - 1);
          t.chroma_aps = (gint8) id;
        }
      }
    }
    for (int c = 0; c < 2 && chroma; c++) {
      if (n_cc[c] && r.chance (60)) {
        int id = cc_ids[c][r.range (0, n_cc[c] - 1)];
        t.cc_aps[c] = (gint8) id;
        t.cc_idc[c] = (guint8) r.range (1, info.aps[id].cc_num_filters[c]);
      }
    }
    t.flags |= (guint16) (r.bits (4) & (r.chance (50) ? 0xf : 0)) * GST_VVC_ALF_CTB_EDGE_LEFT;
    if (r.chance (10))
      t.flags |= GST_VVC_ALF_CTB_CORNER_TOP_LEFT;
    if (r.chance (10))
      t.flags |= GST_VVC_ALF_CTB_CORNER_BOTTOM_RIGHT;
  }
}

/* Random content with structure, so that every class and transposition
 * occurs: per 16x16 area one of flat, noise, horizontal / vertical / diagonal
 * stripes of random period and amplitude, or full-range extremes. */
inline void random_content (gpc_test::Rng &r, Picture &pic, int bit_depth)
{
  const int maxv = (1 << bit_depth) - 1;
  for (int i = 0; i < pic.planes (); i++) {
    for (int by = 0; by < pic.height[i]; by += 16) {
      for (int bx = 0; bx < pic.width[i]; bx += 16) {
        int kind = (int) r.range (0, 9);
        int base = (int) r.range (0, maxv);
        int amp = (int) r.range (0, maxv >> r.range (0, bit_depth - 1));
        int period = (int) r.range (1, 4);
        for (int y = by; y < by + 16 && y < pic.height[i]; y++) {
          for (int x = bx; x < bx + 16 && x < pic.width[i]; x++) {
            int v;
            switch (kind) {
              case 0: v = base; break;
              case 1: v = (int) r.range (0, maxv); break;
              case 2: v = base + ((y / period) & 1) * amp; break;
              case 3: v = base + ((x / period) & 1) * amp; break;
              case 4: v = base + (((x + y) / period) & 1) * amp; break;
              case 5: v = base + (((x - y + 64) / period) & 1) * amp; break;
              case 6: v = r.chance (50) ? 0 : maxv; break;
              /* thin diagonal lines: strong diagonal classes at any activity */
              case 8: v = base + (((x - y) & 3) == 0) * amp; break;
              case 9: v = base + (((x + y) & 3) == 0) * amp; break;
              default: v = base + (int) r.range (-3, 3) + ((x * 3 + y) % 7) * amp / 16; break;
            }
            pic.plane[i][(size_t) y * pic.stride[i] + x] = (uint16_t) (v < 0 ? 0 : v > maxv ? maxv : v);
          }
        }
      }
    }
  }
}

} // namespace vvcalf_test
