/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The coefficient scratch between the split path's passes (prores_vld.comp
 * writes it, prores_idct.comp reads it); see docs/prores-gpu.md.
 *
 * Every macroblock of the frame owns MB_WORDS words, in raster order over
 * the pictures (picture, mb_y, mb_x): a slice's coefficients start at its
 * first macroblock's, so slices are packed without gaps. In a slice, Y
 * (128 words per macroblock), then Cb, then Cr (64, or 128 in 4:4:4, each),
 * each component in its coded order: coefficient `pos` (scan index << log2
 * blocks | block) in the low (even pos) or high half of word pos / 2, int16.
 * Pass 1 writes every word of a component it decodes, zeros included, so
 * the scratch needs no clearing. After the coefficients, 4 status words
 * per slice (Y, Cb, Cr, unused) at pc.stat_word.
 */
const uint MB_WORDS = C444 != 0u ? 384u : 256u;

/* First word of the component `comp` of slice `sd`. */
uint scratch_base (SliceDesc sd, uint comp)
{
  /* A bottom-field record of a progressive frame (the host builds none)
   * must not point past the frame's macroblocks. */
  const uint field = in_words[FP_INTERLACED] != 0u ? sd.bottom : 0u;
  const uint mb = (field * in_words[FP_PIC_MB_HEIGHT] + sd.mb_y) * in_words[FP_MB_WIDTH] + sd.mb_x;
  const uint chroma = (C444 != 0u ? 128u : 64u) * sd.mb_count;
  return mb * MB_WORDS + (comp == 0u ? 0u : 128u * sd.mb_count + (comp - 1u) * chroma);
}
