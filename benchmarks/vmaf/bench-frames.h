/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The VMAF benchmark's input, made by the benchmark itself: a textured
 * picture that pans, with objects that move across it, and a distorted copy
 * as a block-based coder leaves it at a low rate (blurred detail, each 8x8
 * block's mean and residual quantised, so blocking and flattened texture).
 */
#pragma once

#include <stdint.h>

#include <vector>

namespace gpc_bench {

struct VmafBenchClip {
  unsigned width = 0, height = 0, bits = 0;
  /* Luma planes, width * height samples each, no padding. */
  std::vector<std::vector<uint16_t>> ref, dist;
};

/* `frames` consecutive frame pairs; the same arguments give the same clip. */
VmafBenchClip make_vmaf_bench_clip (unsigned width, unsigned height, unsigned bits,
    unsigned frames, uint64_t seed);

} // namespace gpc_bench
