/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Small helpers shared by the vvcalf tests: picture buffers filled from the
 * .yuv.zst conformance files (read with gpc_test::read_zstd).
 */
#pragma once

#include <stdint.h>
#include <stdio.h>

#include <string>
#include <vector>

#include "gpc-test.h"
#include "vvcalf-params.h"
#include "vvcalf-ref.h"

namespace vvcalf_test {

/* One picture as three planes with explicit strides (stride >= width, so
 * tests also cover padded layouts). */
struct Picture {
  int width[3] = { 0, 0, 0 }, height[3] = { 0, 0, 0 };
  ptrdiff_t stride[3] = { 0, 0, 0 };
  std::vector<uint16_t> plane[3];

  void alloc (const gpc::VvcAlfPicParams &p, int pad = 0)
  {
    for (int i = 0; i < 3; i++) {
      width[i] = gpc::vvc_alf_plane_width (p, i);
      height[i] = gpc::vvc_alf_plane_height (p, i);
      stride[i] = width[i] + pad;
      plane[i].assign ((size_t) stride[i] * height[i] + 1, 0);
    }
  }
  int planes () const { return width[1] ? 3 : 1; }
  gpc::VvcAlfPlane in (int i) const { return { plane[i].data (), stride[i] }; }
  gpc::VvcAlfOutPlane out (int i) { return { plane[i].data (), stride[i] }; }
  uint16_t at (int i, int x, int y) const { return plane[i][(size_t) y * stride[i] + x]; }
};

using gpc_test::have_zstd;
using gpc_test::read_zstd;

/* Fills @pic (allocated for @p) from raw little-endian 16-bit planar data. */
inline bool load_raw (const std::vector<uint8_t> &raw, const gpc::VvcAlfPicParams &p, Picture &pic)
{
  pic.alloc (p);
  size_t need = 0;
  for (int i = 0; i < pic.planes (); i++)
    need += (size_t) pic.width[i] * pic.height[i] * 2;
  if (raw.size () != need)
    return false;
  size_t o = 0;
  for (int i = 0; i < pic.planes (); i++)
    for (int y = 0; y < pic.height[i]; y++)
      for (int x = 0; x < pic.width[i]; x++, o += 2)
        pic.plane[i][(size_t) y * pic.stride[i] + x] = (uint16_t) (raw[o] | (raw[o + 1] << 8));
  return true;
}

inline void apply (const gpc::VvcAlfParams &params, const Picture &in, Picture &out)
{
  gpc::VvcAlfPlane ip[3] = { in.in (0), in.in (1), in.in (2) };
  gpc::VvcAlfOutPlane op[3] = { out.out (0), out.out (1), out.out (2) };
  gpc::vvc_alf_apply (params, ip, op);
}

} // namespace vvcalf_test
