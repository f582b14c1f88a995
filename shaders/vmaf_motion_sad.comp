// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer motion: exact SAD of the 5-tap filtered difference prev - cur
// (vertical pass, then horizontal), bit-exact with gst/vmafmotion's CPU
// reference (libvmaf 3.2 scalar code).
//
// One workgroup of NTHREADS invocations covers NTHREADS - 4 output columns
// and TILE_H rows. Each invocation owns one input column (2 halo columns
// each side), loads its TILE_H + 4 differences into registers, and writes
// the vertical results to shared memory; then it filters one output column
// horizontally. The taps are symmetric: 3 products per pass instead of 5.
//
// Needs no optional device feature (GStreamer 1.22 enables none): no 64-bit
// or 16-bit types. Sums that need 33 bits are rounded exactly in 32 bits by
// splitting each term x = 256 * (x >> 8) + (x & 255):
//   floor((256 A + B + 2^(s-1)) / 2^s) = (A + ((B + 2^(s-1)) >> 8)) >> (s - 8)
// with A = sum c * (x >> 8) and B = sum c * (x & 255), both far below 2^31.
#version 450
#extension GL_GOOGLE_include_directive : require
// An invocation's rows, loaded and filtered in registers.
#extension GL_EXT_control_flow_attributes : require

#define HALO 2

// Chosen when the pipeline is made (gpc::VkMotionKernel).
layout (constant_id = 0) const uint PACKING = 0u;   // LUMA_* below
layout (constant_id = 1) const bool SPLIT_V = false; // bpc > 14
layout (constant_id = 2) const int TILE_H = 8;       // rows per workgroup
layout (constant_id = 3) const int NTHREADS = 256;   // workgroup size
layout (constant_id = 4) const uint SHIFT = 0u;      // right shift of 16-bit containers
const int TILE_W = NTHREADS - 2 * HALO;

#include "motion_luma_fetch.glsl"

layout (local_size_x_id = 3) in;

layout (std430, binding = 0) readonly buffer PrevBuf { uint prev_words[]; };
layout (std430, binding = 1) readonly buffer CurBuf { uint cur_words[]; };
// Per result slot: low and high 32 bits of the frame's SAD.
layout (std430, binding = 2) buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint prev_offset;  // bytes, multiple of 4
  uint cur_offset;   // bytes, multiple of 4
  uint prev_stride;  // bytes, multiple of 4
  uint cur_stride;   // bytes, multiple of 4
  uint width;
  uint height;
  uint packing;      // unused: PACKING is a specialization constant
  uint shift;        // unused: SHIFT is a specialization constant
  uint bpc;          // 8..16
  uint slot;         // result slot
} pc;

const int C0 = 3571, C1 = 16004, C2 = 26386;

shared int vert[TILE_H][NTHREADS];
shared uint tile_sad;

LUMA_FETCH_FUNCTIONS (prev, prev_words)
LUMA_FETCH_FUNCTIONS (cur, cur_words)

// Reflect-101 mirror, clamped first so that halo columns of tiles past the
// picture's end stay inside it (their outputs are discarded).
int mirror (int idx, int n)
{
  idx = clamp (idx, -2, n + 1);
  return idx < 0 ? -idx : (idx >= n ? 2 * n - idx - 2 : idx);
}

// floor((sum c_k x_k + 2^(s-1)) / 2^s), s >= 8, for the symmetric taps on
// pair sums s04 = x0 + x4, s13 = x1 + x3 and the centre x2.
int round_shift_split (int s04, int s13, int x2, uint s)
{
  int a = C0 * (s04 >> 8) + C1 * (s13 >> 8) + C2 * (x2 >> 8);
  int b = C0 * (s04 & 255) + C1 * (s13 & 255) + C2 * (x2 & 255);
  return (a + ((b + (1 << (s - 1u))) >> 8)) >> (s - 8u);
}

int vertical (int d0, int d1, int d2, int d3, int d4)
{
  if (SPLIT_V)
    return round_shift_split (d0 + d4, d1 + d3, d2, pc.bpc);
  // Up to 14 bits the 32-bit sum is exact.
  int acc = C0 * (d0 + d4) + C1 * (d1 + d3) + C2 * d2;
  return (acc + (1 << (pc.bpc - 1u))) >> pc.bpc;
}

// The previous frame's sample at (gx, gy) less the current one's.
int difference (uint gy, uint gx)
{
  return prev_fetch (pc.prev_offset + gy * pc.prev_stride, gx) -
      cur_fetch (pc.cur_offset + gy * pc.cur_stride, gx);
}

void main ()
{
  const int t = int (gl_LocalInvocationIndex);
  const int w = int (pc.width), h = int (pc.height);
  const int x0 = int (gl_WorkGroupID.x) * TILE_W;
  const int y0 = int (gl_WorkGroupID.y) * TILE_H;
  const uint gx = uint (mirror (x0 + t - HALO, w));

  if (t == 0)
    tile_sad = 0u;

  // Vertical pass down this invocation's column: all its rows' loads
  // first, so that they are in flight together (the kernel waits on
  // memory), rows past the picture's end mirrored inside it (their outputs
  // are discarded).
  // Rows need no reflection in all but the first and last rows of tiles
  // (on an H200 the SAD of a 2160p 10-bit frame took 27.0 us against 28.3
  // with every row reflected).
  int d[TILE_H + 2 * HALO];
  if (y0 >= HALO && y0 + TILE_H + HALO <= h) {
    [[unroll]] for (int k = 0; k < TILE_H + 2 * HALO; k++)
      d[k] = difference (uint (y0 + k - HALO), gx);
  } else {
    [[unroll]] for (int k = 0; k < TILE_H + 2 * HALO; k++)
      d[k] = difference (uint (mirror (y0 + k - HALO, h)), gx);
  }
  [[unroll]] for (int r = 0; r < TILE_H; r++)
    vert[r][t] = vertical (d[r], d[r + 1], d[r + 2], d[r + 3], d[r + 4]);
  const int rows = min (TILE_H, h - y0);
  barrier ();

  // Horizontal pass (always 33-bit sums) on one output column. A tile sums
  // at most 252 * TILE_H values below 2^16: no 32-bit overflow.
  uint local_sad = 0u;
  if (t < TILE_W && x0 + t < w) {
    for (int r = 0; r < rows; r++) {
      int v = round_shift_split (vert[r][t] + vert[r][t + 4], vert[r][t + 1] + vert[r][t + 3],
          vert[r][t + 2], 16u);
      local_sad += uint (abs (v));
    }
  }
  if (local_sad != 0u)
    atomicAdd (tile_sad, local_sad);
  barrier ();

  // 64-bit accumulation from 32-bit atomics: whoever wraps the low word
  // carries one into the high word.
  if (t == 0 && tile_sad != 0u) {
    uint old = atomicAdd (result[2u * pc.slot], tile_sad);
    if (old + tile_sad < old)
      atomicAdd (result[2u * pc.slot + 1u], 1u);
  }
}
