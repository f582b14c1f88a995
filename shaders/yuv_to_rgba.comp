#version 450
/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Y'CbCr (planar 4:2:0 / 4:2:2 / 4:4:4 with or without alpha, AYUV64) or
 * grey samples of 8 to 16 bits, read from storage buffers, to an 8-bit RGBA
 * storage image. The arithmetic is gst/rgbaconvert/rgba-convert-ref.h's,
 * line for line, in 32-bit integers; the coefficients come from the CPU
 * (push constants), so the result is bit-exact with the reference.
 *
 * Chroma is upsampled by repetition: pixel (x, y) takes chroma sample
 * (x >> sub_x, y >> sub_y).
 */
layout (local_size_x = 16, local_size_y = 8) in;

/* Y, Cb, Cr, A planes (AYUV64 and grey: binding 0 only is read); offsets
 * and strides in bytes, multiples of 4 (gpcvkplane). */
layout (std430, binding = 0) readonly buffer P0 { uint p0[]; };
layout (std430, binding = 1) readonly buffer P1 { uint p1[]; };
layout (std430, binding = 2) readonly buffer P2 { uint p2[]; };
layout (std430, binding = 3) readonly buffer P3 { uint p3[]; };
/* rgba8 needs no shaderStorageImageWriteWithoutFormat (1.22 enables no
 * feature). */
layout (binding = 4, rgba8) uniform writeonly image2D dst;

/* Layouts (rgba-convert-ref.h RgbaLayout). */
const uint GRAY = 0u, PLANAR = 1u, PLANAR_ALPHA = 2u, AYUV64 = 3u;
const int FRAC = 20;

layout (push_constant) uniform Push {
  uint off[4];
  uint stride[4];
  uint width, height;
  uint layout_, bytes, sub_x, sub_y, max_;
  int c_y, r_cr, g_cb, g_cr, b_cb, y_off, c_off;
  /* 1: store B, G, R, A (the bytes of a BGRA picture, copied raw into a
   * B8G8R8A8 image or a buffer afterwards). */
  uint swap_rb;
} pc;

uint word_at (uint p, uint i)
{
  if (p == 0u)
    return p0[i];
  if (p == 1u)
    return p1[i];
  if (p == 2u)
    return p2[i];
  return p3[i];
}

/* Sample x of row y of plane p, masked to the depth. */
uint fetch (uint p, uint x, uint y)
{
  const uint a = pc.off[p] + y * pc.stride[p] + x * pc.bytes;
  const uint w = word_at (p, a >> 2);
  const uint s = pc.bytes == 1u ? (w >> ((a & 3u) << 3)) & 0xffu : (w >> ((a & 2u) << 3)) & 0xffffu;
  return s & pc.max_;
}

int clamp_round (int acc)
{
  return clamp ((acc + (1 << (FRAC - 1))) >> FRAC, 0, 255);
}

void main ()
{
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  if (x >= pc.width || y >= pc.height)
    return;

  uint ys, cb, cr, a = 255u;
  if (pc.layout_ == AYUV64) {
    const uint at = (pc.off[0] + y * pc.stride[0]) / 4u + 2u * x;
    const uint w0 = p0[at], w1 = p0[at + 1u];
    a = ((w0 & 0xffffu) & pc.max_) * 255u;
    a = (a + (pc.max_ >> 1)) / pc.max_;
    ys = (w0 >> 16) & pc.max_;
    cb = (w1 & 0xffffu) & pc.max_;
    cr = (w1 >> 16) & pc.max_;
  } else {
    ys = fetch (0u, x, y);
    if (pc.layout_ == GRAY) {
      const int g = clamp_round (pc.c_y * (int (ys) - pc.y_off));
      imageStore (dst, ivec2 (x, y), vec4 (float (g), float (g), float (g), 255.0) / 255.0);
      return;
    }
    const uint cx = x >> pc.sub_x, cy = y >> pc.sub_y;
    cb = fetch (1u, cx, cy);
    cr = fetch (2u, cx, cy);
    if (pc.layout_ == PLANAR_ALPHA)
      a = (fetch (3u, x, y) * 255u + (pc.max_ >> 1)) / pc.max_;
  }
  const int ly = pc.c_y * (int (ys) - pc.y_off);
  const int u = int (cb) - pc.c_off, v = int (cr) - pc.c_off;
  const int r = clamp_round (ly + pc.r_cr * v);
  const int g = clamp_round (ly + pc.g_cb * u + pc.g_cr * v);
  const int b = clamp_round (ly + pc.b_cb * u);
  /* n / 255.0 for n in 0..255 converts back to exactly n (UNORM8 rounds to
   * nearest); the tests check it bit for bit. */
  const vec4 rgba = vec4 (float (r), float (g), float (b), float (a)) / 255.0;
  imageStore (dst, ivec2 (x, y), pc.swap_rb != 0u ? rgba.bgra : rgba);
}
