// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Shared by vmaf_adm_rows.comp and vmaf_adm_masked.comp (which finishes the
// coarsest scale's rows itself): one region row's total of one of the six
// sums from the masked sums' tile partials, and the 64-bit atomic add into
// the result slot. The includer defines ADM_PARTIAL(i), the partial-sum
// area's word i, and declares `uint result[]`.

// Sum k's region row `row` of a scale with `rows` region rows and `tiles`
// tiles per row, its partials from word `partial` (stored sum, tile, row:
// neighbouring rows are neighbouring words), rounded by libvmaf's row shift
// (num_row for the numerators k < 3, arithmetic; den_row for the
// denominators, logical).
uvec2 adm_row_total (uint partial, uint k, uint tiles, uint rows, uint row, uint num_row,
    uint den_row)
{
  uvec2 acc = uvec2 (0u);
  for (uint tile = 0u; tile < tiles; tile++) {
    const uint at = partial + ((k * tiles + tile) * rows + row) * 2u;
    acc = add64 (acc, uvec2 (uint (ADM_PARTIAL (at)), uint (ADM_PARTIAL (at + 1u))));
  }
  if (k < 3u)
    return sar64 (add64 (acc, uvec2 (half_of (num_row), 0u)), num_row);
  return shr64 (add64 (acc, uvec2 (half_of (den_row), 0u)), den_row);
}

// The word of sum k in the scale's part of the result slot: num[band] at
// pair band, den[band] at pair 3 + band.
uint adm_result_word (uint k)
{
  return 2u * k;
}

// 64-bit add from 32-bit atomics: order-independent and exact.
void adm_atomic_add64 (uint idx, uvec2 v)
{
  if ((v.x | v.y) == 0u)
    return;
  const uint old = atomicAdd (result[idx], v.x);
  const uint hi = v.y + (old + v.x < old ? 1u : 0u);
  if (hi != 0u)
    atomicAdd (result[idx + 1u], hi);
}
