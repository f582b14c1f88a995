#version 450
#extension GL_GOOGLE_include_directive : require
/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ProRes slice decoding, one workgroup per slice (GpuSliceDesc): entropy
 * decoding of Y, Cb, Cr by three invocations (and alpha by a fourth) into
 * shared memory, then dequantisation, the FFmpeg-exact integer IDCT (rows,
 * bias, columns, clip) and the store of whole 8-sample rows by the whole
 * workgroup. The entropy decoders live in prores_slice.glsl and the IDCT
 * and stores in prores_idct.glsl, shared with the split path
 * (prores_vld.comp + prores_idct.comp); see docs/prores-gpu.md.
 *
 * 32-bit integers only (GStreamer 1.22 enables no optional device feature):
 * coefficients are int16 values kept two per uint in shared memory, output
 * samples two per uint (little-endian 16-bit, as I422_10LE & co. lay them).
 * Every bit read is bounded by its component's byte range (zeros beyond,
 * as the CPU reader), every store by the plane's limits: corrupt slices can
 * neither read outside their slice nor write outside the planes.
 */

/* Specialisation: output depth 12 (else 10), FFmpeg's x86 IDCT arithmetic,
 * the workgroup size (64, 128 or 256) and where the entropy decoders run:
 * SPREAD 0 puts Y, Cb, Cr on lanes 0, 1, 2 (one subgroup, running the same
 * code in lockstep) and alpha on lane WG / 2; SPREAD 1 puts Y, Cb, Cr,
 * alpha on lanes 0, 32, 64, 96 (one subgroup each; needs WG >= 128). */
layout (constant_id = 0) const uint DEPTH12 = 0;
layout (constant_id = 1) const uint IDCT_X86 = 1;
layout (constant_id = 2) const uint WG = 64;
layout (constant_id = 3) const uint SPREAD = 0;
/* 4:4:4 (else 4:2:2): sizes the coefficient store (prores_idct.glsl). */
layout (constant_id = 4) const uint C444 = 0;

layout (local_size_x_id = 2) in;

#include "prores_io.glsl"

/* The tables the entropy decoders index: dynamic indexing of constant
 * arrays would make glslang copy a whole array into function memory at
 * every lookup (leaving it to the driver to undo); shared copies are
 * plain loads. */
shared uint s_scan[64];
shared uint s_cb[33];
shared uint s_info[8]; /* header size, qscale, y, u, v, a sizes, status */
shared uint s_fail;

/* Coefficients go straight to the slice's store in natural order. */
struct CoefSink {
  uint base;  /* first coefficient of the component in s_coef */
  uint log2n; /* log2 of the component's blocks */
};

void sink_put (inout CoefSink s, uint pos, int v);

#define PRORES_ENTROPY 1
#include "prores_slice.glsl"
#include "prores_idct.glsl"

void sink_put (inout CoefSink s, uint pos, int v)
{
  uint index = s.base + ((pos & ((1u << s.log2n) - 1u)) << 6) + s_scan[pos >> s.log2n];
  uint w = index >> 1, sh = (index & 1u) << 4;
  s_coef[w] = (s_coef[w] & ~(0xffffu << sh)) | ((uint (v) & 0xffffu) << sh);
}

void main ()
{
  const uint slice = gl_WorkGroupID.y * pc.groups_x + gl_WorkGroupID.x;
  if (slice >= pc.num_slices)
    return;
  const uint tid = gl_LocalInvocationID.x;

  const bool c444 = C444 != 0u; /* the host picks the pipeline by the params */
  const uint alpha_bits = in_words[FP_ALPHA_BITS];
  const bool interlaced = in_words[FP_INTERLACED] != 0u;
  const uint fields = interlaced ? 2u : 1u;

  /* The host builds these records; check them anyway (uniform per group). */
  SliceDesc sd;
  if (!slice_desc (slice, c444, sd)) {
    if (tid == 0u)
      fail_slice (slice, ST_BAD_DESC);
    return;
  }

  /* Header and zeroed coefficients. */
  if (tid == 0u) {
    uint info[6];
    uint st = slice_header (sd.off, sd.size, info);
    for (uint i = 0u; i < 6u; i++)
      s_info[i] = info[i];
    s_info[6] = st;
    s_fail = st;
  }
  for (uint i = tid; i < COEF_BLOCKS * 32u; i += WG)
    s_coef[i] = 0u;
  for (uint i = tid; i < 64u; i += WG)
    s_scan[i] = interlaced ? INTERLACED_SCAN[i] : PROGRESSIVE_SCAN[i];
  load_codebooks (tid, WG);
  barrier ();
  if (s_info[6] != ST_OK) {
    if (tid == 0u)
      fail_slice (slice, s_info[6]);
    return;
  }
  const uint hsize = s_info[0], qscale = s_info[1];
  const uint ysz = s_info[2], usz = s_info[3], vsz = s_info[4], asz = s_info[5];
  const bool no_chroma = usz + vsz == 0u;

  load_qmat (tid, qscale);

  /* Entropy decoding: Y, Cb, Cr by three lanes through one call site. */
  const uint start = sd.off + hsize;
  const uint comp = SPREAD != 0u ? tid >> 5 : tid;
  const bool vld_lane = SPREAD != 0u ? (tid & 31u) == 0u && comp < 3u : tid < 3u;
  const uint alpha_lane = SPREAD != 0u ? 96u : WG / 2u;
  uint st = ST_OK;
  if (vld_lane && (comp == 0u || !no_chroma)) {
    const uint c_start = comp == 0u ? start : comp == 1u ? start + ysz : start + ysz + usz;
    const uint c_size = comp == 0u ? ysz : comp == 1u ? usz : vsz;
    CoefSink sink;
    sink.base = comp == 0u ? 0u : (32u + (comp - 1u) * CHROMA_BLOCKS) * 64u;
    sink.log2n = comp == 0u ? sd.luma_log2 : sd.chroma_log2;
    st = decode_component (c_start, c_size, sink.log2n, sink);
  } else if (tid == alpha_lane && alpha_bits != 0u) {
    decode_alpha (sd, start + ysz + usz + vsz, asz, alpha_bits, fields);
  }
  if (st != ST_OK)
    atomicMax (s_fail, st);
  barrier ();

  /* IDCT rows of every block: task = block * 8 + row. */
  const uint n_blocks = slice_blocks (sd.luma_log2, sd.chroma_log2, no_chroma);
  for (uint t = tid; t < n_blocks * 8u; t += WG) {
    BlockRef br = block_ref (t >> 3, sd.luma_log2, sd.chroma_log2, sd.mb_x, c444);
    uint base = br.index + (t & 7u) * 8u;
    int x[8];
    for (uint i = 0u; i < 4u; i++) {
      /* base is even: a row is 4 whole words. */
      const uint w = s_coef[(base >> 1) + i];
      x[2u * i] = sext16u (w);
      x[2u * i + 1u] = int (w) >> 16;
    }
    idct_row (br.comp, t & 7u, x, base);
  }
  barrier ();
  idct_columns (tid, n_blocks, sd.luma_log2, sd.chroma_log2, sd.mb_x, c444);
  barrier ();
  store_slice (tid, n_blocks, sd.luma_log2, sd.chroma_log2, sd.mb_x, sd.mb_y, sd.mb_count,
      fields, sd.bottom, c444, no_chroma);
  if (tid == 0u && s_fail != ST_OK)
    fail_slice (slice, s_fail);
}
