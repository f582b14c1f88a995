#version 450
/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * 12-bit Y, Cb, Cr, A planes (16-bit samples two per uint, as
 * prores_decode.comp writes them) to AYUV64, GStreamer 1.22's only format
 * that holds 4:4:4 with alpha above 10 bits: A, Y, U, V as native-endian
 * uint16, each 12-bit value v widened by bit replication (v << 4 | v >> 8,
 * as GStreamer's own unpacking does), so v = sample >> 4 exactly.
 */
layout (local_size_x = 64, local_size_y = 4) in;

layout (std430, binding = 0) readonly buffer Planes { uint src[]; };
layout (std430, binding = 1) writeonly buffer Out { uint dst[]; };

layout (push_constant) uniform Push {
  uint plane_off[4];    /* words: Y, Cb, Cr, A */
  uint plane_stride[4]; /* words per row */
  uint out_off, out_stride; /* words */
  uint width, height;
} pc;

uint widen (uint p, uint x, uint y)
{
  uint w = src[pc.plane_off[p] + y * pc.plane_stride[p] + (x >> 1)];
  uint v = (w >> ((x & 1u) << 4)) & 0xfffu;
  return (v << 4) | (v >> 8);
}

void main ()
{
  const uint x = gl_GlobalInvocationID.x, y = gl_GlobalInvocationID.y;
  if (x >= pc.width || y >= pc.height)
    return;
  const uint at = pc.out_off + y * pc.out_stride + 2u * x;
  dst[at] = widen (3u, x, y) | (widen (0u, x, y) << 16);
  dst[at + 1u] = widen (1u, x, y) | (widen (2u, x, y) << 16);
}
