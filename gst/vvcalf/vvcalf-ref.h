/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU reference of the H.266 adaptive loop filter (clause 8.8.5): luma ALF
 * with 4x4 classification, chroma ALF and CC-ALF, bit-exact.
 *
 * It is organised as the GPU runs it: one function classifies one 4x4 luma
 * block, one filters one sample. Each takes the picture parameters and reads
 * only the pre-ALF planes, so every call is independent of every other one
 * (the shader runs them in parallel). vvc_alf_apply() is the plain loop over
 * the picture that the tests compare with the conformance vectors.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "vvcalf-params.h"

namespace gpc {

/* A read-only sample plane: stride in samples (not bytes). */
struct VvcAlfPlane {
  const uint16_t *data;
  ptrdiff_t stride;
};

struct VvcAlfOutPlane {
  uint16_t *data;
  ptrdiff_t stride;
};

/* The window of allowed read positions for one current sample (clamping
 * rule of docs/vvcalf-reference.md), plus the CTB rectangle for the raster
 * slice corner rule. All in the coordinates of one plane. */
struct VvcAlfWindow {
  int xmin, xmax, ymin, ymax;
  int x0, y0, w, h;     /* nominal CTB rectangle in this plane */
  int corner;           /* kVvcAlfCornerTopLeft / kVvcAlfCornerBottomRight bits */
};

struct VvcAlfClass {
  int filt_idx;         /* 0..24 */
  int transpose_idx;    /* 0..3 */
};

/* Plane sizes of a picture: plane 0 luma, 1 Cb, 2 Cr. 0 for absent planes. */
int vvc_alf_plane_width (const VvcAlfPicParams &p, int plane);
int vvc_alf_plane_height (const VvcAlfPicParams &p, int plane);

/* Whether the ALF line-buffer boundary applies in CTB row @ctb_row. */
bool vvc_alf_line_buffer_active (const VvcAlfPicParams &p, int ctb_row);

/* Clamp window of CTB (@ctb_col, @ctb_row) in a plane subsampled by
 * (@sx, @sy), for the current sample (@cx, @cy) of that plane. */
VvcAlfWindow vvc_alf_window (const VvcAlfPicParams &p, const VvcAlfCtbParams &ctb,
    int ctb_col, int ctb_row, int sx, int sy, int cx, int cy);

/* Read (@x, @y) of @plane through the window. */
inline int vvc_alf_fetch (const VvcAlfPlane &plane, const VvcAlfWindow &w, int x, int y)
{
  x = x < w.xmin ? w.xmin : (x > w.xmax ? w.xmax : x);
  y = y < w.ymin ? w.ymin : (y > w.ymax ? w.ymax : y);
  if ((w.corner & kVvcAlfCornerTopLeft) && x < w.x0 && y < w.y0)
    x = w.x0;
  if ((w.corner & kVvcAlfCornerBottomRight) && x >= w.x0 + w.w && y >= w.y0 + w.h)
    x = w.x0 + w.w - 1;
  return plane.data[(ptrdiff_t) y * plane.stride + x];
}

/* Class of the 4x4 luma block whose top-left sample is (@bx, @by) (multiples of 4). */
VvcAlfClass vvc_alf_classify_block (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    const VvcAlfPlane &luma, int bx, int by);

/* ALF output of luma sample (@x, @y), whose CTB has luma ALF on and whose
 * 4x4 block has class @cls. */
int vvc_alf_filter_luma_sample (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    const VvcAlfPlane &luma, int x, int y, VvcAlfClass cls);

/* Chroma ALF output of sample (@x, @y) of component @c (0 = Cb, 1 = Cr):
 * the filtered value if the CTB filters that component, else the input. */
int vvc_alf_filter_chroma_sample (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    int c, const VvcAlfPlane &chroma, int x, int y);

/* CC-ALF correction for chroma sample (@x, @y) of component @c, already
 * clipped to [-2^(B-1), 2^(B-1)-1]; 0 where CC-ALF is off. */
int vvc_alf_cc_delta (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    int c, const VvcAlfPlane &luma, int x, int y);

/* Final value of chroma sample (@x, @y) of component @c: chroma ALF plus CC-ALF. */
int vvc_alf_chroma_output (const VvcAlfPicParams &p, const VvcAlfCtbParams *ctbs,
    int c, const VvcAlfPlane &luma, const VvcAlfPlane &chroma, int x, int y);

/* Whole picture: reads @in (1 plane for 4:0:0, else 3), writes every sample
 * of @out (copies where ALF is off). @in and @out must not overlap. @params
 * must have passed vvc_alf_params_check(). */
void vvc_alf_apply (const VvcAlfParams &params, const VvcAlfPlane in[3],
    const VvcAlfOutPlane out[3]);

} // namespace gpc
