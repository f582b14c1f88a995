/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Constant tables of the H.266 adaptive loop filter (clause 7.4.3.18 and
 * 8.8.5), plus the tap geometry as the reference and the shader use it.
 */
#pragma once

#include <stdint.h>

namespace gpc {

/* AlfFixFiltCoeff[64][12]: the fixed luma filters. */
extern const int8_t kVvcAlfFixFiltCoeff[64][12];
/* AlfClassToFiltMap[16][25]: fixed set, class -> fixed filter. */
extern const uint8_t kVvcAlfClassToFiltMap[16][25];
/* Tap k of the luma filter uses coefficient kVvcAlfTranspose[transposeIdx][k]. */
extern const uint8_t kVvcAlfTranspose[4][12];
/* avgVar from the clipped activity 0..15. */
extern const uint8_t kVvcAlfActivityToVar[16];
/* transposeIdx from dir1 * 2 + (dir2 >> 1). */
extern const uint8_t kVvcAlfDirToTranspose[8];

/* Clip value for clip_idx 0..3 at bit depth B: 2^B, 2^(B-3), 2^(B-5), 2^(B-7). */
inline int32_t vvc_alf_clip_value (int bit_depth, int clip_idx)
{
  static const int8_t shift[4] = { 0, 3, 5, 7 };
  return (int32_t) 1 << (bit_depth - shift[clip_idx & 3]);
}

} // namespace gpc
