/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU reference ALF, written from H.266 clause 8.8.5 and the vvc-alf-params
 * README. Keep the structure in step with shaders (docs/vvcalf-reference.md).
 */
#include "vvcalf-ref.h"

#include "vvcalf-tables.h"

namespace gpc {

namespace {

inline int clip3 (int lo, int hi, int v)
{
  return v < lo ? lo : (v > hi ? hi : v);
}

inline int iabs (int v)
{
  return v < 0 ? -v : v;
}

/* Luma taps: (dx, level) of the first sample of each symmetric pair, level
 * 0..3 being the vertical distance before the line-buffer reduction. */
const int8_t kLumaTapDx[12] = { 0, 1, 0, -1, 2, 1, 0, -1, -2, 3, 2, 1 };
const int8_t kLumaTapLevel[12] = { 3, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0 };
const int8_t kChromaTapDx[6] = { 0, 1, 0, -1, 2, 1 };
const int8_t kChromaTapLevel[6] = { 2, 1, 1, 1, 0, 0 };

const VvcAlfCtbParams &ctb_at (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    int col, int row)
{
  return ctbs[row * p.ctbs_x + col];
}

} // namespace

int vvc_alf_plane_width (const VvcAlfPicParams &p, int plane)
{
  if (plane == 0)
    return p.width;
  return p.chroma_format == 0 ? 0 : p.width >> p.shift_x;
}

int vvc_alf_plane_height (const VvcAlfPicParams &p, int plane)
{
  if (plane == 0)
    return p.height;
  return p.chroma_format == 0 ? 0 : p.height >> p.shift_y;
}

bool vvc_alf_line_buffer_active (const VvcAlfPicParams &p, int ctb_row)
{
  if (p.vb_last_row)
    return true;
  /* H.266 8.8.5.2: off when the CTB is the last row and the boundary would
   * lie at or below the picture bottom. */
  int y_ctb = ctb_row << p.ctb_log2;
  return !(ctb_row == p.ctbs_y - 1 && p.height - y_ctb <= p.ctb_size - 4);
}

VvcAlfWindow vvc_alf_window (const VvcAlfPicParams &p, const VvcAlfCtbParams &ctb,
    int ctb_col, int ctb_row, int sx, int sy, int cx, int cy)
{
  VvcAlfWindow w;
  w.w = p.ctb_size >> sx;
  w.h = p.ctb_size >> sy;
  w.x0 = ctb_col * w.w;
  w.y0 = ctb_row * w.h;
  w.xmin = 0;
  w.ymin = 0;
  w.xmax = (p.width >> sx) - 1;
  w.ymax = (p.height >> sy) - 1;
  if (ctb.flags & kVvcAlfEdgeLeft)
    w.xmin = w.x0;
  if (ctb.flags & kVvcAlfEdgeRight)
    w.xmax = w.xmax < w.x0 + w.w - 1 ? w.xmax : w.x0 + w.w - 1;
  if (ctb.flags & kVvcAlfEdgeTop)
    w.ymin = w.y0;
  if (ctb.flags & kVvcAlfEdgeBottom)
    w.ymax = w.ymax < w.y0 + w.h - 1 ? w.ymax : w.y0 + w.h - 1;
  /* Virtual boundaries: the side of the current sample is allowed. */
  for (int i = 0; i < p.num_vb_x; i++) {
    int v = p.vb_x[i] >> sx;
    if (v <= cx)
      w.xmin = w.xmin > v ? w.xmin : v;
    else
      w.xmax = w.xmax < v - 1 ? w.xmax : v - 1;
  }
  for (int i = 0; i < p.num_vb_y; i++) {
    int v = p.vb_y[i] >> sy;
    if (v <= cy)
      w.ymin = w.ymin > v ? w.ymin : v;
    else
      w.ymax = w.ymax < v - 1 ? w.ymax : v - 1;
  }
  w.corner = ctb.flags & (kVvcAlfCornerTopLeft | kVvcAlfCornerBottomRight);
  return w;
}

VvcAlfClass vvc_alf_classify_block (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    const VvcAlfPlane &luma, int bx, int by)
{
  const int col = bx >> p.ctb_log2, row = by >> p.ctb_log2;
  const VvcAlfWindow win = vvc_alf_window (p, ctb_at (p, ctbs, col, row), col, row, 0, 0, bx, by);
  const int y_ctb = row << p.ctb_log2;
  const int s = p.ctb_size;
  const bool lb = vvc_alf_line_buffer_active (p, row);

  /* Rows of the 8x8 window; near the line-buffer boundary it shrinks to the
   * 6 rows on the block's side and the activity is scaled by 96 not 64. */
  int j0 = -2, j1 = 5, ac = 64;
  if (lb && by - y_ctb == s - 8) {
    j1 = 3;
    ac = 96;
  } else if (lb && by - y_ctb == s - 4) {
    j0 = 0;
    ac = 96;
  }

  int64_t sv = 0, sh = 0, sd0 = 0, sd1 = 0;
  for (int j = j0; j <= j1; j++) {
    const int y = by + j;
    int up = y - 1, dn = y + 1;
    if (lb && y - y_ctb == s - 4)
      up = y;
    if (lb && y - y_ctb == s - 5)
      dn = y;
    for (int i = -2; i <= 5; i++) {
      if ((i + j) & 1)
        continue;
      const int x = bx + i;
      const int c2 = 2 * vvc_alf_fetch (luma, win, x, y);
      sv += iabs (c2 - vvc_alf_fetch (luma, win, x, up) - vvc_alf_fetch (luma, win, x, dn));
      sh += iabs (c2 - vvc_alf_fetch (luma, win, x - 1, y) - vvc_alf_fetch (luma, win, x + 1, y));
      sd0 += iabs (c2 - vvc_alf_fetch (luma, win, x - 1, up) - vvc_alf_fetch (luma, win, x + 1, dn));
      sd1 += iabs (c2 - vvc_alf_fetch (luma, win, x + 1, up) - vvc_alf_fetch (luma, win, x - 1, dn));
    }
  }

  int64_t act = ((sv + sh) * ac) >> (p.bit_depth + 4);
  const int avg_var = kVvcAlfActivityToVar[act > 15 ? 15 : act];

  int64_t hv1, hv0, d1, d0;
  int dir_hv, dir_d;
  if (sv > sh) {
    hv1 = sv; hv0 = sh; dir_hv = 1;
  } else {
    hv1 = sh; hv0 = sv; dir_hv = 3;
  }
  if (sd0 > sd1) {
    d1 = sd0; d0 = sd1; dir_d = 0;
  } else {
    d1 = sd1; d0 = sd0; dir_d = 2;
  }
  /* The products need 37 bits at 12-bit depth (the shader uses umulExtended). */
  int dir1, dir2;
  int64_t hvd1, hvd0;
  if (d1 * hv0 > hv1 * d0) {
    dir1 = dir_d; dir2 = dir_hv; hvd1 = d1; hvd0 = d0;
  } else {
    dir1 = dir_hv; dir2 = dir_d; hvd1 = hv1; hvd0 = hv0;
  }
  int dir_s = 0;
  if (2 * hvd1 > 9 * hvd0)
    dir_s = 2;
  else if (hvd1 > 2 * hvd0)
    dir_s = 1;

  VvcAlfClass cls;
  cls.filt_idx = avg_var + (dir_s ? ((((dir1 & 1) << 1) + dir_s) * 5) : 0);
  cls.transpose_idx = kVvcAlfDirToTranspose[dir1 * 2 + (dir2 >> 1)];
  return cls;
}

int vvc_alf_filter_luma_sample (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    const VvcAlfPlane &luma, int x, int y, VvcAlfClass cls)
{
  const int col = x >> p.ctb_log2, row = y >> p.ctb_log2;
  const VvcAlfCtbParams &ctb = ctb_at (p, ctbs, col, row);
  const VvcAlfWindow win = vvc_alf_window (p, ctb, col, row, 0, 0, x, y);
  const int r = y - (row << p.ctb_log2);
  const int vb = p.ctb_size - 4;

  /* Vertical distance per level, reduced symmetrically around the boundary. */
  int dist[4] = { 0, 1, 2, 3 };
  int shift = 7;
  if (vvc_alf_line_buffer_active (p, row)) {
    if (r == vb - 1 || r == vb) {
      dist[1] = dist[2] = dist[3] = 0;
      shift = 10;
    } else if (r == vb - 2 || r == vb + 1) {
      dist[2] = dist[3] = 1;
    } else if (r == vb - 3 || r == vb + 2) {
      dist[3] = 2;
    }
  }

  const int32_t *f = p.luma_coeff[ctb.luma_set][cls.filt_idx];
  const int32_t *c = p.luma_clip[ctb.luma_set][cls.filt_idx];
  const uint8_t *t = kVvcAlfTranspose[cls.transpose_idx];
  const int cur = vvc_alf_fetch (luma, win, x, y);
  int sum = 0;
  for (int k = 0; k < 12; k++) {
    const int dx = kLumaTapDx[k], dy = dist[kLumaTapLevel[k]];
    const int cv = c[t[k]];
    const int a = vvc_alf_fetch (luma, win, x + dx, y + dy) - cur;
    const int b = vvc_alf_fetch (luma, win, x - dx, y - dy) - cur;
    sum += f[t[k]] * (clip3 (-cv, cv, a) + clip3 (-cv, cv, b));
  }
  return clip3 (0, (1 << p.bit_depth) - 1, cur + ((sum + (1 << (shift - 1))) >> shift));
}

int vvc_alf_filter_chroma_sample (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    int c, const VvcAlfPlane &chroma, int x, int y)
{
  const int sx = p.shift_x, sy = p.shift_y;
  const int col = (x << sx) >> p.ctb_log2, row = (y << sy) >> p.ctb_log2;
  const VvcAlfCtbParams &ctb = ctb_at (p, ctbs, col, row);
  const VvcAlfWindow win = vvc_alf_window (p, ctb, col, row, sx, sy, x, y);
  const int cur = vvc_alf_fetch (chroma, win, x, y);
  if (!(ctb.flags & (kVvcAlfCtbCb << c)))
    return cur;

  const int r = y - win.y0;
  const int vb = (p.ctb_size >> sy) - 2;
  int dist[3] = { 0, 1, 2 };
  int shift = 7;
  if (vvc_alf_line_buffer_active (p, row)) {
    if (r == vb - 1 || r == vb) {
      dist[1] = dist[2] = 0;
      shift = 10;
    } else if (r == vb - 2 || r == vb + 1) {
      dist[2] = 1;
    }
  }

  const int32_t *f = p.chroma_coeff[ctb.chroma_filter[c]];
  const int32_t *cl = p.chroma_clip[ctb.chroma_filter[c]];
  int sum = 0;
  for (int k = 0; k < 6; k++) {
    const int dx = kChromaTapDx[k], dy = dist[kChromaTapLevel[k]];
    const int a = vvc_alf_fetch (chroma, win, x + dx, y + dy) - cur;
    const int b = vvc_alf_fetch (chroma, win, x - dx, y - dy) - cur;
    sum += f[k] * (clip3 (-cl[k], cl[k], a) + clip3 (-cl[k], cl[k], b));
  }
  return clip3 (0, (1 << p.bit_depth) - 1, cur + ((sum + (1 << (shift - 1))) >> shift));
}

int vvc_alf_cc_delta (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    int c, const VvcAlfPlane &luma, int x, int y)
{
  const int xl = x << p.shift_x, yl = y << p.shift_y;
  const int col = xl >> p.ctb_log2, row = yl >> p.ctb_log2;
  const VvcAlfCtbParams &ctb = ctb_at (p, ctbs, col, row);
  if (ctb.cc_filter[c] < 0)
    return 0;
  const VvcAlfWindow win = vvc_alf_window (p, ctb, col, row, 0, 0, xl, yl);
  const int r = yl - (row << p.ctb_log2);
  const int s = p.ctb_size;

  int ym1 = -1, yp1 = 1, yp2 = 2;
  if (vvc_alf_line_buffer_active (p, row)) {
    /* Without vertical subsampling two rows next to the boundary get no
     * correction at all. */
    if (p.shift_y == 0 && (r == s - 4 || r == s - 3))
      return 0;
    if (r == s - 6 || r == s - 3)
      yp2 = 1;
    else if (r == s - 5 || r == s - 4)
      ym1 = yp1 = yp2 = 0;
  }

  const int32_t *f = p.cc_coeff[c][ctb.cc_filter[c]];
  const int cur = vvc_alf_fetch (luma, win, xl, yl);
  int sum = f[0] * (vvc_alf_fetch (luma, win, xl, yl + ym1) - cur)
      + f[1] * (vvc_alf_fetch (luma, win, xl - 1, yl) - cur)
      + f[2] * (vvc_alf_fetch (luma, win, xl + 1, yl) - cur)
      + f[3] * (vvc_alf_fetch (luma, win, xl - 1, yl + yp1) - cur)
      + f[4] * (vvc_alf_fetch (luma, win, xl, yl + yp1) - cur)
      + f[5] * (vvc_alf_fetch (luma, win, xl + 1, yl + yp1) - cur)
      + f[6] * (vvc_alf_fetch (luma, win, xl, yl + yp2) - cur);
  const int half = 1 << (p.bit_depth - 1);
  return clip3 (-half, half - 1, (sum + 64) >> 7);
}

int vvc_alf_chroma_output (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    int c, const VvcAlfPlane &luma, const VvcAlfPlane &chroma, int x, int y)
{
  const int v = vvc_alf_filter_chroma_sample (p, ctbs, c, chroma, x, y);
  const int d = vvc_alf_cc_delta (p, ctbs, c, luma, x, y);
  return clip3 (0, (1 << p.bit_depth) - 1, v + d);
}

void vvc_alf_apply (const VvcAlfParams &params, const VvcAlfPlane in[3],
    const VvcAlfOutPlane out[3])
{
  const VvcAlfPicParams &p = params.pic;
  const VvcAlfCtbParams *ctbs = params.ctbs.data ();

  /* Luma, one CTB at a time so the class is computed once per 4x4 block. */
  for (int row = 0; row < p.ctbs_y; row++) {
    for (int col = 0; col < p.ctbs_x; col++) {
      const VvcAlfCtbParams &ctb = ctbs[row * p.ctbs_x + col];
      const int x0 = col << p.ctb_log2, y0 = row << p.ctb_log2;
      const int x1 = x0 + p.ctb_size < p.width ? x0 + p.ctb_size : p.width;
      const int y1 = y0 + p.ctb_size < p.height ? y0 + p.ctb_size : p.height;
      for (int by = y0; by < y1; by += 4) {
        for (int bx = x0; bx < x1; bx += 4) {
          VvcAlfClass cls = { 0, 0 };
          const bool on = (ctb.flags & kVvcAlfCtbY) != 0;
          if (on)
            cls = vvc_alf_classify_block (p, ctbs, in[0], bx, by);
          for (int y = by; y < by + 4 && y < y1; y++) {
            for (int x = bx; x < bx + 4 && x < x1; x++) {
              out[0].data[(ptrdiff_t) y * out[0].stride + x] = (uint16_t) (on
                  ? vvc_alf_filter_luma_sample (p, ctbs, in[0], x, y, cls)
                  : in[0].data[(ptrdiff_t) y * in[0].stride + x]);
            }
          }
        }
      }
    }
  }

  if (p.chroma_format == 0)
    return;
  const int wc = vvc_alf_plane_width (p, 1), hc = vvc_alf_plane_height (p, 1);
  for (int c = 0; c < 2; c++) {
    for (int y = 0; y < hc; y++) {
      for (int x = 0; x < wc; x++) {
        out[1 + c].data[(ptrdiff_t) y * out[1 + c].stride + x] =
            (uint16_t) vvc_alf_chroma_output (p, ctbs, c, in[0], in[1 + c], x, y);
      }
    }
  }
}

} // namespace gpc
