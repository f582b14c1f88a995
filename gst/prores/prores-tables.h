/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Constant tables of ProRes (SMPTE RDD 36): coefficient scan orders and the
 * adaptive codebook selectors. Facts of the format, shared by the CPU
 * reference and (as GLSL constants) by the shaders.
 */
#pragma once

#include <stdint.h>

namespace gpc {
namespace prores {

/* Scan position -> raster position (row * 8 + column) inside an 8x8 block. */
static const uint8_t kProgressiveScan[64] = {
  0, 1, 8, 9, 2, 3, 10, 11,
  16, 17, 24, 25, 18, 19, 26, 27,
  4, 5, 12, 20, 13, 6, 7, 14,
  21, 28, 29, 22, 15, 23, 30, 31,
  32, 33, 40, 48, 41, 34, 35, 42,
  49, 56, 57, 50, 43, 36, 37, 44,
  51, 58, 59, 52, 45, 38, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
};

static const uint8_t kInterlacedScan[64] = {
  0, 8, 1, 9, 16, 24, 17, 25,
  2, 10, 3, 11, 18, 26, 19, 27,
  32, 40, 33, 34, 41, 48, 56, 49,
  42, 35, 43, 50, 57, 58, 51, 59,
  4, 12, 5, 6, 13, 20, 28, 21,
  14, 7, 15, 22, 29, 36, 44, 37,
  30, 23, 31, 38, 45, 52, 60, 53,
  46, 39, 47, 54, 61, 62, 55, 63,
};

/* A codebook descriptor packs the parameters of RDD 36's combined
 * Rice / exponential-Golomb code into one byte:
 *   bits 7..5 rice order k, bits 4..2 exp-Golomb order, bits 1..0 the
 *   switch point (the last unary prefix length still coded as Rice). */
static inline uint32_t cb_rice_order (uint32_t cb) { return cb >> 5; }
static inline uint32_t cb_exp_order (uint32_t cb) { return (cb >> 2) & 7; }
static inline uint32_t cb_switch_bits (uint32_t cb) { return cb & 3; }

/* First DC coefficient of a slice component. */
static const uint8_t kFirstDcCodebook = 0xB8;
/* Later DC differences: indexed by min(previous code, 6). */
static const uint8_t kDcCodebook[7] = { 0x04, 0x28, 0x28, 0x4D, 0x4D, 0x70, 0x70 };
/* AC runs: indexed by min(previous run, 15). */
static const uint8_t kRunCodebook[16] = {
  0x06, 0x06, 0x05, 0x05, 0x04, 0x29, 0x29, 0x29,
  0x29, 0x28, 0x28, 0x28, 0x28, 0x28, 0x28, 0x4C,
};
/* AC levels: indexed by min(previous absolute level, 9). */
static const uint8_t kLevelCodebook[10] = {
  0x04, 0x0A, 0x05, 0x06, 0x04, 0x28, 0x28, 0x28, 0x28, 0x4C,
};

} // namespace prores
} // namespace gpc
