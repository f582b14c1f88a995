#version 450
#extension GL_GOOGLE_include_directive : require
/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes split decoding, pass 1: entropy decoding. One invocation decodes
 * one component (Y, Cb, Cr, alpha) of one slice; 32 consecutive
 * invocations (a subgroup on most GPUs) decode the same component of 32
 * consecutive slices, so that every lane of a subgroup runs the same
 * decoder and every slice of a frame can be resident at once. Y, Cb and Cr
 * go to the coefficient scratch (prores_scratch.glsl) with their status;
 * alpha goes straight to its plane. Pass 2 (prores_idct.comp) reports the
 * statuses, as the fused shader would.
 *
 * The decoders are the fused shader's (prores_slice.glsl); only where the
 * coefficients go differs.
 */

/* The ids are the fused shader's (the host fills one list). */
layout (constant_id = 0) const uint DEPTH12 = 0;
layout (constant_id = 2) const uint WG = 64;
layout (constant_id = 4) const uint C444 = 0;

layout (local_size_x_id = 2) in;

#include "prores_io.glsl"

layout (std430, binding = 6) writeonly buffer Scratch { uint scratch[]; };

shared uint s_cb[33];

/* A component's coefficients, written in coded order: every word from
 * `at` to `end` once, the pending one kept in a register until a later
 * position leaves it (so zeros between coded coefficients are written too). */
struct CoefSink {
  uint start, at, end, pend;
};

void sink_put (inout CoefSink s, uint pos, int v);

#define PRORES_ENTROPY 1
#include "prores_slice.glsl"
#include "prores_scratch.glsl"

void sink_put (inout CoefSink s, uint pos, int v)
{
  const uint w = s.start + (pos >> 1);
  if (w >= s.end)
    return; /* cannot happen: positions are checked against the component's size */
  for (; s.at < w; s.at++) {
    scratch[s.at] = s.pend;
    s.pend = 0u;
  }
  s.pend |= (uint (v) & 0xffffu) << ((pos & 1u) << 4);
}

void sink_finish (inout CoefSink s)
{
  for (; s.at < s.end; s.at++) {
    scratch[s.at] = s.pend;
    s.pend = 0u;
  }
}

void main ()
{
  const uint tid = gl_LocalInvocationID.x;
  load_codebooks (tid, WG);
  barrier ();

  const uint g = (gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x) * WG + tid;
  const uint comp = (g >> 5) % pc.vld_comps;
  const uint slice = ((g >> 5) / pc.vld_comps) * 32u + (g & 31u);
  if (slice >= pc.num_slices)
    return;
  const bool c444 = C444 != 0u;

  /* Bad records and headers are pass 2's to report: nothing to decode. */
  SliceDesc sd;
  if (!slice_desc (slice, c444, sd))
    return;
  uint info[6];
  if (slice_header (sd.off, sd.size, info) != ST_OK)
    return;
  const uint start = sd.off + info[0];
  const uint ysz = info[2], usz = info[3], vsz = info[4];

  if (comp == 3u) {
    const uint fields = in_words[FP_INTERLACED] != 0u ? 2u : 1u;
    decode_alpha (sd, start + ysz + usz + vsz, info[5], in_words[FP_ALPHA_BITS], fields);
    return;
  }
  uint st = ST_OK;
  if (comp == 0u || usz + vsz != 0u) {
    const uint log2n = comp == 0u ? sd.luma_log2 : sd.chroma_log2;
    CoefSink sink;
    sink.start = scratch_base (sd, comp);
    sink.at = sink.start;
    sink.end = sink.start + (32u << log2n);
    sink.pend = 0u;
    const uint c_start = comp == 0u ? start : comp == 1u ? start + ysz : start + ysz + usz;
    st = decode_component (c_start, comp == 0u ? ysz : comp == 1u ? usz : vsz, log2n, sink);
    sink_finish (sink);
  }
  scratch[pc.stat_word + slice * 4u + comp] = st;
}
