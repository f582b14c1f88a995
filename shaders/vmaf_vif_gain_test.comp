// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Test shader (tests/vmaf/test-vmaf-vif-gpu.cpp): VIF's per-pixel numerator
// term of given (sigma1_sq, sigma2_sq, sigma12) triples through the fast
// path (0xffffffff where it does not decide) and through the exact double
// emulation, to check both against the CPU reference on many more, and
// chosen, values than pictures give.
#version 450
#extension GL_GOOGLE_include_directive : require

layout (local_size_x = 64) in;

layout (std430, binding = 0) readonly buffer In { uint triples[]; };
layout (std430, binding = 1) writeonly buffer Out { uint terms[]; };
layout (std430, binding = 2) readonly buffer Log2Buf { uint log2_words[]; };

layout (push_constant) uniform Params {
  uint n;
  uint limit_lo;
  uint limit_hi;
  uint limit_int;
  float limit_f;
  uint limit_sq_int;
  uint limit_sq_lo;
  uint limit_sq_hi;
} pc;

#include "vmaf_vif_gain.glsl"

void main ()
{
  const uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n)
    return;
  const VifLimit lim = vif_limit (pc.limit_lo, pc.limit_hi, pc.limit_int, pc.limit_f,
      pc.limit_sq_int, pc.limit_sq_lo, pc.limit_sq_hi);
  const uint s1 = triples[3u * i], s2 = triples[3u * i + 1u], s12 = triples[3u * i + 2u];
  uint fast;
  if (!num_log_fast (s1, s2, s12, lim, fast))
    fast = 0xffffffffu;
  terms[2u * i] = fast;
  terms[2u * i + 1u] = num_log_exact (s1, s2, s12, lim);
}
