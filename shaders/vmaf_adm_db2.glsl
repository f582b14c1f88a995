// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM's db2 wavelet filters and its mirrored borders, shared by
// scale 0's step (vmaf_adm_dwt.comp) and the coarser scales'
// (vmaf_adm_wavelet.glsl). Output i of a step reads input rows and columns
// 2i - 1 .. 2i + 2, which mirror as -1 -> 1 and n -> n - 1.

const int LO[4] = int[4] (15826, 27411, 7345, -4240);
const int HI[4] = int[4] (-4240, -7345, 27411, -15826);
const int LO_SUM = 46342;

// Index of virtual position x in 0 .. n - 1. Positions past a tile's last
// real output clamp into the input (their results are unused).
int mirror (int x, int n)
{
  x = x < 0 ? -x : x;
  x = x >= n ? 2 * n - x - 1 : x;
  return clamp (x, 0, n - 1);
}
