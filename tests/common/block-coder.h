/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A deterministic stand-in for what a block-based coder leaves of a picture
 * at a low rate: blurred detail, each 8x8 block's mean and residual
 * quantised (blocking, flattened texture). The VMAF benchmark distorts its
 * own frames with it, and the VMAF tests the real pictures of the
 * conformance vectors, so the same input always gives the same picture.
 */
#pragma once

#include <stdint.h>

#include <vector>

namespace gpc_test {

/* Frame `t` of a stream of width x height samples of `bits` bits: a [1 2 1]
 * blur, then per 8x8 block the mean quantised with step 4q and the residual
 * with step q, q growing with `bits` and changing with t as a rate
 * control's would. */
std::vector<uint16_t> block_coder_loss (const std::vector<uint16_t> &frame, unsigned width,
    unsigned height, unsigned bits, unsigned t);

} // namespace gpc_test
