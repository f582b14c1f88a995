// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, the db2 wavelet step (vmaf_adm_db2.glsl) of scales
// 1..3, one picture's 32 x 15 tile by a workgroup of 256 invocations,
// bit-exact with gst/vmaf's CPU reference (libvmaf 3.2 scalar code): the
// vertical pass of its 15 x 66 entries (four nearly full rounds) goes to
// shared memory, then 16 invocations per row filter two neighbouring outputs
// each horizontally. vmaf_adm_masked.comp runs it beside the previous
// scale's masked sums; scale 0 has its own step (vmaf_adm_dwt.comp).
//
// The includer defines, before the include:
//   WAVELET_SCALE                  the scale, a constant (1..3)
//   WAVELET_LO (r, c), WAVELET_HI (r, c)
//                                  shared ints, [WAVELET_ROWS][WAVELET_SPAN] each
//   int wavelet_sample (bool dis, int y, int x)
//                                  the input sample (row y, column x)
//   void wavelet_store (bool dis, int i, int j, int a[2], int h[2], int v[2], int d[2])
//                                  outputs j, j + 1 of row i (j + 1 may be past the band)
// and needs vmaf_adm_common.glsl.

#include "vmaf_adm_db2.glsl"

#define WAVELET_TILE 32 // outputs per row
#define WAVELET_ROWS 15 // output rows
#define WAVELET_SPAN (2 * WAVELET_TILE + 2)
#define WAVELET_THREADS 256
#define WAVELET_ROUNDS 4 // of the vertical pass: ROWS * SPAN / THREADS, rounded up

// libvmaf's roundings: vertical none at scale 1, else 16 bits; horizontal
// 15 bits at scales 1 and 3, else 16. (Computed, not read from constant
// arrays: glslang folds those into invalid SPIR-V.)
const uint SHIFT_V = WAVELET_SCALE == 1u ? 0u : 16u;
const uint SHIFT_H = (WAVELET_SCALE & 1u) == 1u ? 15u : 16u;

int horizontal (int s0, int s1, int s2, int s3, const bool lowpass)
{
  const int c0 = lowpass ? LO[0] : HI[0], c1 = lowpass ? LO[1] : HI[1];
  const int c2 = lowpass ? LO[2] : HI[2], c3 = lowpass ? LO[3] : HI[3];
  uvec2 acc = add64 (add64 (smul64 (c0, s0), smul64 (c1, s1)),
      add64 (smul64 (c2, s2), smul64 (c3, s3)));
  acc = add64 (acc, uvec2 (half_of (SHIFT_H), 0u));
  return int (sar64 (acc, SHIFT_H).x);
}

// Invocation t's share of the tile whose first output is (i0, j0), from an
// in_w x in_h input to out_w x out_h bands. Contains a barrier.
void wavelet_tile (bool dis, uint t, int i0, int j0, int in_w, int in_h, int out_w, int out_h)
{
  // Every round's samples are loaded before any is filtered, so their
  // memory latencies overlap (the last round's surplus invocations load a
  // valid entry again).
  int s4[WAVELET_ROUNDS][4];
  for (uint rd = 0u; rd < WAVELET_ROUNDS; rd++) {
    const int e = min (int (t + rd * WAVELET_THREADS), WAVELET_ROWS * WAVELET_SPAN - 1);
    const int r = e / WAVELET_SPAN, c = e % WAVELET_SPAN;
    const int i = min (i0 + r, out_h - 1);
    const int x = mirror (2 * j0 - 1 + c, in_w);
    for (int k = 0; k < 4; k++)
      s4[rd][k] = wavelet_sample (dis, mirror (2 * i - 1 + k, in_h), x);
  }
  for (uint rd = 0u; rd < WAVELET_ROUNDS; rd++) {
    const int e = int (t + rd * WAVELET_THREADS);
    if (e >= WAVELET_ROWS * WAVELET_SPAN)
      break;
    const int r = e / WAVELET_SPAN, c = e % WAVELET_SPAN;
    int s[4] = s4[rd];
    uvec2 sl = add64 (add64 (smul64 (LO[0], s[0]), smul64 (LO[1], s[1])),
        add64 (smul64 (LO[2], s[2]), smul64 (LO[3], s[3])));
    uvec2 sh = add64 (add64 (smul64 (HI[0], s[0]), smul64 (HI[1], s[1])),
        add64 (smul64 (HI[2], s[2]), smul64 (HI[3], s[3])));
    const uvec2 add = uvec2 (half_of (SHIFT_V), 0u);
    WAVELET_LO (r, c) = int (sar64 (add64 (sl, add), SHIFT_V).x);
    WAVELET_HI (r, c) = int (sar64 (add64 (sh, add), SHIFT_V).x);
  }
  barrier ();

  // Outputs j and j + 1 of row i.
  const int r = int (t) / (WAVELET_TILE / 2), cc = 2 * (int (t) % (WAVELET_TILE / 2));
  const int i = i0 + r, j = j0 + cc;
  if (r >= WAVELET_ROWS || i >= out_h || j >= out_w)
    return;
  const int c = 2 * cc;
  int l[6], hs[6];
  for (int k = 0; k < 6; k++) {
    l[k] = WAVELET_LO (r, c + k);
    hs[k] = WAVELET_HI (r, c + k);
  }
  int a[2], h[2], v[2], d[2];
  for (int k = 0; k < 2; k++) {
    a[k] = horizontal (l[2 * k], l[2 * k + 1], l[2 * k + 2], l[2 * k + 3], true);
    v[k] = horizontal (l[2 * k], l[2 * k + 1], l[2 * k + 2], l[2 * k + 3], false);
    h[k] = horizontal (hs[2 * k], hs[2 * k + 1], hs[2 * k + 2], hs[2 * k + 3], true);
    d[k] = horizontal (hs[2 * k], hs[2 * k + 1], hs[2 * k + 2], hs[2 * k + 3], false);
  }
  wavelet_store (dis, i, j, a, h, v, d);
}
