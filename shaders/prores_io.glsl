/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Buffers and push constants of the ProRes decoding shaders (the fused
 * prores_decode.comp and the split path's prores_vld.comp and
 * prores_idct.comp): one declaration, so that the host fills one struct
 * (ProResPush in ext/vulkan/vkproreskernel.cpp) for all of them.
 */

/* The upload: GpuFrameParams at word 0, GpuSliceDesc[] at word 48, the frame
 * bytes at push.data_word (all uint32, std430). */
layout (std430, binding = 0) readonly buffer Input { uint in_words[]; };
layout (std430, binding = 1) writeonly buffer PlaneY { uint out_y[]; };
layout (std430, binding = 2) writeonly buffer PlaneU { uint out_u[]; };
layout (std430, binding = 3) writeonly buffer PlaneV { uint out_v[]; };
layout (std430, binding = 4) writeonly buffer PlaneA { uint out_a[]; };
/* Per frame slot: [0] failed slices, [1] first failed slice + 1, [2] its status. */
layout (std430, binding = 5) buffer Status { uint status[]; };

layout (push_constant) uniform Push {
  uint data_word;   /* first word of the frame bytes in in_words */
  uint data_bytes;  /* frame size */
  uint num_slices;
  uint groups_x;    /* workgroups per row of the dispatch */
  uint status_slot; /* 4 words per slot */
  uint rows;        /* frame rows that may be written (cropping) */
  uint plane_off[4];   /* first word of each plane in its buffer */
  uint plane_stride[4]; /* words per row */
  uint plane_words[4];  /* words of a row that may be written (cropping) */
  /* Split path only (docs/prores-gpu.md): */
  uint stat_word;   /* first of the per-slice status words in the scratch */
  uint vld_comps;   /* entropy decoders per slice: 3, or 4 with alpha */
} pc;
