// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer ADM, one scale's db2 wavelet step of the reference and the
// distorted picture (workgroup z = 0 / 1), bit-exact with gst/vmaf's CPU
// reference (libvmaf 3.2 scalar code). Scale 0 reads luma samples; scales
// 1..3 the previous scale's approximation band in the scratch buffer.
//
// A workgroup of 256 invocations makes a 32 x 15 tile of the four bands:
// the vertical pass of its 15 x 66 entries (four nearly full rounds) goes to
// shared memory, then 16 invocations per row filter two neighbouring outputs
// each horizontally. Input rows and columns 2i - 1 .. 2i + 2 mirror as
// -1 -> 1 and n -> n - 1.
//
// Scale 0's bands are 16-bit (libvmaf stores them as int16): two samples
// per word, rows padded to whole words, which halves the bytes this pass
// writes and the masked sums and scale 1 read. Scales 1..3 keep a word per
// sample.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (constant_id = 0) const uint PACKING = 0u; // LUMA_* (scale 0)
layout (constant_id = 1) const uint SHIFT = 0u;   // right shift of 16-bit containers

#include "motion_luma_fetch.glsl"
#include "vmaf_adm_common.glsl"

#define TILE 32   // outputs per row
#define ROWS 15   // output rows
#define SPAN (2 * TILE + 2)
#define THREADS 256
#define VROUNDS 4 // rounds of the vertical pass: ROWS * SPAN / THREADS, rounded up

layout (local_size_x = THREADS) in;

layout (std430, binding = 0) readonly buffer RefBuf { uint ref_words[]; };
layout (std430, binding = 1) readonly buffer DisBuf { uint dis_words[]; };
layout (std430, binding = 2) buffer Scratch { int scratch[]; };
layout (std430, binding = 3) buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint in_w, in_h;     // input picture or band
  uint out_w, out_h;   // output bands
  uint scale;
  uint bpc;
  uint ref_in, dis_in; // scale 0: byte offsets in the planes; else word offsets in scratch
  uint ref_stride, dis_stride; // scale 0: bytes; else words
  uint ref_out, dis_out;       // word offsets of bands a, h, v, d (adm_band_words each)
  uint slot;           // result slot that scale 0 zeroes
  uint result_words;   // words per result slot
} pc;

LUMA_FETCH_FUNCTIONS (ref, ref_words)
LUMA_FETCH_FUNCTIONS (dis, dis_words)

const int LO[4] = int[4] (15826, 27411, 7345, -4240);
const int HI[4] = int[4] (-4240, -7345, 27411, -15826);
const int LO_SUM = 46342;

shared int lo_s[ROWS][SPAN];
shared int hi_s[ROWS][SPAN];

// Index of virtual position x (2i - 1 + k) in 0 .. n - 1. Positions past a
// tile's last real output clamp into the band (their results are unused).
int mirror (int x, int n)
{
  x = x < 0 ? -x : x;
  x = x >= n ? 2 * n - x - 1 : x;
  return clamp (x, 0, n - 1);
}

int sample_at (bool dis, int y, int x)
{
  if (pc.scale == 0u) {
    if (dis)
      return dis_fetch (pc.dis_in + uint (y) * pc.dis_stride, uint (x));
    return ref_fetch (pc.ref_in + uint (y) * pc.ref_stride, uint (x));
  }
  uint base = dis ? pc.dis_in : pc.ref_in;
  uint stride = dis ? pc.dis_stride : pc.ref_stride;
  if (pc.scale == 1u) // scale 0's band a: 16-bit pairs
    return bitfieldExtract (scratch[base + uint (y) * stride + uint (x) / 2u], (x & 1) * 16, 16);
  return scratch[base + uint (y) * stride + uint (x)];
}

// Vertical rounding of scales 1..3 (index scale - 1).
const uint ADD_V[3] = uint[3] (0u, 32768u, 32768u);
const uint SHIFT_V[3] = uint[3] (0u, 16u, 16u);
const uint ADD_H[4] = uint[4] (32768u, 16384u, 32768u, 16384u);
const uint SHIFT_H[4] = uint[4] (16u, 15u, 16u, 15u);

int horizontal (int s0, int s1, int s2, int s3, const bool lowpass)
{
  const int c0 = lowpass ? LO[0] : HI[0], c1 = lowpass ? LO[1] : HI[1];
  const int c2 = lowpass ? LO[2] : HI[2], c3 = lowpass ? LO[3] : HI[3];
  if (pc.scale == 0u) {
    // int16 inputs: the sum fits 32 bits.
    return sext16 ((c0 * s0 + c1 * s1 + c2 * s2 + c3 * s3 + 32768) >> 16);
  }
  uvec2 acc = add64 (add64 (smul64 (c0, s0), smul64 (c1, s1)),
      add64 (smul64 (c2, s2), smul64 (c3, s3)));
  acc = add64 (acc, uvec2 (ADD_H[pc.scale], 0u));
  return int (sar64 (acc, SHIFT_H[pc.scale]).x);
}

void main ()
{
  const bool dis = gl_WorkGroupID.z == 1u;
  const int n_w = int (pc.in_w), n_h = int (pc.in_h);
  const int j0 = int (gl_WorkGroupID.x) * TILE, i0 = int (gl_WorkGroupID.y) * ROWS;
  const uint t = gl_LocalInvocationIndex;

  if (pc.scale == 0u && gl_WorkGroupID == uvec3 (0u) && t < pc.result_words)
    result[pc.slot * pc.result_words + t] = 0u;

  // Vertical pass: ROWS output rows x SPAN input columns. Every round's
  // samples are loaded before any is filtered, so their memory latencies
  // overlap (the last round's surplus invocations load a valid entry again).
  int s4[VROUNDS][4];
  for (uint rd = 0u; rd < VROUNDS; rd++) {
    const int e = min (int (t + rd * THREADS), ROWS * SPAN - 1);
    const int r = e / SPAN, c = e % SPAN;
    const int i = min (i0 + r, int (pc.out_h) - 1);
    const int x = mirror (2 * j0 - 1 + c, n_w);
    for (int k = 0; k < 4; k++)
      s4[rd][k] = sample_at (dis, mirror (2 * i - 1 + k, n_h), x);
  }
  for (uint rd = 0u; rd < VROUNDS; rd++) {
    const int e = int (t + rd * THREADS);
    if (e >= ROWS * SPAN)
      break;
    const int r = e / SPAN, c = e % SPAN;
    int s[4] = s4[rd];
    if (pc.scale == 0u) {
      // Samples centred on zero: minus half the range times the low-pass
      // sum (the high-pass sum is zero). 16-bit input wraps 32 bits on the
      // way; the result fits.
      const int mid = 1 << (pc.bpc - 1u);
      const int sl = LO[0] * s[0] + LO[1] * s[1] + LO[2] * s[2] + LO[3] * s[3];
      const int sh = HI[0] * s[0] + HI[1] * s[1] + HI[2] * s[2] + HI[3] * s[3];
      lo_s[r][c] = sext16 ((sl - LO_SUM * mid + mid) >> pc.bpc);
      hi_s[r][c] = sext16 ((sh + mid) >> pc.bpc);
    } else {
      uvec2 sl = add64 (add64 (smul64 (LO[0], s[0]), smul64 (LO[1], s[1])),
          add64 (smul64 (LO[2], s[2]), smul64 (LO[3], s[3])));
      uvec2 sh = add64 (add64 (smul64 (HI[0], s[0]), smul64 (HI[1], s[1])),
          add64 (smul64 (HI[2], s[2]), smul64 (HI[3], s[3])));
      const uint add = ADD_V[pc.scale - 1u], shift = SHIFT_V[pc.scale - 1u];
      lo_s[r][c] = int (sar64 (add64 (sl, uvec2 (add, 0u)), shift).x);
      hi_s[r][c] = int (sar64 (add64 (sh, uvec2 (add, 0u)), shift).x);
    }
  }
  barrier ();

  // Outputs j and j + 1 of row i.
  const int r = int (t) / (TILE / 2), cc = 2 * (int (t) % (TILE / 2));
  const int i = i0 + r, j = j0 + cc;
  if (r >= ROWS || i >= int (pc.out_h) || j >= int (pc.out_w))
    return;
  const int c = 2 * cc;
  int l[6], hs[6];
  for (int k = 0; k < 6; k++) {
    l[k] = lo_s[r][c + k];
    hs[k] = hi_s[r][c + k];
  }
  const int a0 = horizontal (l[0], l[1], l[2], l[3], true);
  const int v0 = horizontal (l[0], l[1], l[2], l[3], false);
  const int h0 = horizontal (hs[0], hs[1], hs[2], hs[3], true);
  const int d0 = horizontal (hs[0], hs[1], hs[2], hs[3], false);
  const int a1 = horizontal (l[2], l[3], l[4], l[5], true);
  const int v1 = horizontal (l[2], l[3], l[4], l[5], false);
  const int h1 = horizontal (hs[2], hs[3], hs[4], hs[5], true);
  const int d1 = horizontal (hs[2], hs[3], hs[4], hs[5], false);
  const uint base = dis ? pc.dis_out : pc.ref_out;
  if (pc.scale == 0u) {
    // j is even: one word; past an odd width the high half is padding.
    const uint stride = (pc.out_w + 1u) / 2u, n = stride * pc.out_h;
    const uint o = base + uint (i) * stride + uint (j) / 2u;
    scratch[o] = int (bitfieldInsert (uint (a0), uint (a1), 16, 16));
    scratch[o + n] = int (bitfieldInsert (uint (h0), uint (h1), 16, 16));
    scratch[o + 2u * n] = int (bitfieldInsert (uint (v0), uint (v1), 16, 16));
    scratch[o + 3u * n] = int (bitfieldInsert (uint (d0), uint (d1), 16, 16));
    return;
  }
  const uint n = pc.out_w * pc.out_h;
  const uint o = base + uint (i) * pc.out_w + uint (j);
  scratch[o] = a0;
  scratch[o + n] = h0;
  scratch[o + 2u * n] = v0;
  scratch[o + 3u * n] = d0;
  if (j + 1 < int (pc.out_w)) {
    scratch[o + 1u] = a1;
    scratch[o + 1u + n] = h1;
    scratch[o + 1u + 2u * n] = v1;
    scratch[o + 1u + 3u * n] = d1;
  }
}
