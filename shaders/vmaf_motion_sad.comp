// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// VMAF integer motion: exact SAD of the 5-tap filtered difference prev - cur
// (vertical pass, then horizontal), bit-exact with gst/vmafmotion's CPU
// reference (libvmaf 3.2 scalar code).
//
// Needs no optional device feature (GStreamer 1.22 enables none): no 64-bit
// or 16-bit types. Rounding shifts of sums that need 33 bits are computed
// exactly in 32 bits by splitting each term x = 256 * (x >> 8) + (x & 255):
//   floor((256 A + B + 2^(s-1)) / 2^s) = (A + ((B + 2^(s-1)) >> 8)) >> (s - 8)
// with A = sum c * (x >> 8) and B = sum c * (x & 255), both far below 2^31.
#version 450
#extension GL_GOOGLE_include_directive : require

#include "motion_luma_fetch.glsl"

#define TILE_W 64
#define TILE_H 16
#define HALO 2
#define LOAD_W (TILE_W + 2 * HALO)
#define LOAD_H (TILE_H + 2 * HALO)
#define NTHREADS 256

layout (local_size_x = NTHREADS) in;

layout (std430, binding = 0) readonly buffer PrevBuf { uint prev_words[]; };
layout (std430, binding = 1) readonly buffer CurBuf { uint cur_words[]; };
// Per result slot: low and high 32 bits of the frame's SAD.
layout (std430, binding = 2) buffer Result { uint result[]; };

layout (push_constant) uniform Params {
  uint prev_offset;  // bytes
  uint cur_offset;   // bytes
  uint prev_stride;  // bytes
  uint cur_stride;   // bytes
  uint width;
  uint height;
  uint packing;      // LUMA_* in motion_luma_fetch.glsl
  uint shift;        // right shift of 16-bit containers (P010: 6)
  uint bpc;          // 8..16
  uint slot;         // result slot
} pc;

const int taps[5] = int[5] (3571, 16004, 26386, 16004, 3571);

shared int diff_tile[LOAD_H][LOAD_W];
shared int vert_tile[TILE_H][LOAD_W];
shared uint tile_sad;

LUMA_FETCH_FUNCTIONS (prev, prev_words)
LUMA_FETCH_FUNCTIONS (cur, cur_words)

// Reflect-101 mirror, clamped first so that halo columns of tiles past the
// picture's end stay inside it (their outputs are discarded).
int mirror (int idx, int n)
{
  idx = clamp (idx, -2, n + 1);
  if (idx < 0)
    return -idx;
  if (idx >= n)
    return 2 * n - idx - 2;
  return idx;
}

// floor((sum c_k x_k + 2^(s-1)) / 2^s) for s >= 8, exact in 32 bits.
int round_shift_split (int a, int b, uint s)
{
  return (a + ((b + (1 << (s - 1))) >> 8)) >> (s - 8);
}

void main ()
{
  const uint lid = gl_LocalInvocationIndex;
  const int w = int (pc.width), h = int (pc.height);
  const int x0 = int (gl_WorkGroupID.x) * TILE_W;
  const int y0 = int (gl_WorkGroupID.y) * TILE_H;

  if (lid == 0)
    tile_sad = 0u;

  for (uint i = lid; i < LOAD_W * LOAD_H; i += NTHREADS) {
    int ty = int (i / LOAD_W), tx = int (i % LOAD_W);
    int gy = mirror (y0 + ty - HALO, h);
    int gx = mirror (x0 + tx - HALO, w);
    diff_tile[ty][tx] = prev_fetch (pc.prev_offset + uint (gy) * pc.prev_stride, uint (gx)) -
        cur_fetch (pc.cur_offset + uint (gy) * pc.cur_stride, uint (gx));
  }
  barrier ();

  // Vertical pass. Up to 14 bits the 32-bit sum is exact; deeper samples
  // need 33 bits and take the split form.
  for (uint i = lid; i < TILE_H * LOAD_W; i += NTHREADS) {
    int r = int (i / LOAD_W), c = int (i % LOAD_W);
    int v;
    if (pc.bpc <= 14u) {
      int acc = 0;
      for (int k = 0; k < 5; k++)
        acc += taps[k] * diff_tile[r + k][c];
      v = (acc + (1 << (pc.bpc - 1u))) >> pc.bpc;
    } else {
      int a = 0, b = 0;
      for (int k = 0; k < 5; k++) {
        int d = diff_tile[r + k][c];
        a += taps[k] * (d >> 8);
        b += taps[k] * (d & 255);
      }
      v = round_shift_split (a, b, pc.bpc);
    }
    vert_tile[r][c] = v;
  }
  barrier ();

  // Horizontal pass (always 33-bit sums) and absolute sum. A tile sums at
  // most 1024 values below 2^16: no 32-bit overflow.
  uint local_sad = 0u;
  for (uint i = lid; i < TILE_H * TILE_W; i += NTHREADS) {
    int r = int (i / TILE_W), c = int (i % TILE_W);
    if (x0 + c < w && y0 + r < h) {
      int a = 0, b = 0;
      for (int k = 0; k < 5; k++) {
        int v = vert_tile[r][c + k];
        a += taps[k] * (v >> 8);
        b += taps[k] * (v & 255);
      }
      local_sad += uint (abs (round_shift_split (a, b, 16u)));
    }
  }
  atomicAdd (tile_sad, local_sad);
  barrier ();

  // 64-bit accumulation from 32-bit atomics: whoever wraps the low word
  // carries one into the high word.
  if (lid == 0 && tile_sad != 0u) {
    uint old = atomicAdd (result[2u * pc.slot], tile_sad);
    if (old + tile_sad < old)
      atomicAdd (result[2u * pc.slot + 1u], 1u);
  }
}
