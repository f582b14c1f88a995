/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Types shared by the CUDA kernels (flac-kernels.cu) and the host code that
 * launches them. Plain data, identical layout on both sides.
 */
#pragma once

#include <stdint.h>

namespace gpc {
namespace flac {

struct GpuJob {
  uint64_t offset;     /* of the frame in the batch's input bytes */
  uint64_t out_sample; /* first output sample (per channel) in the batch */
  uint32_t size;       /* bytes available from offset */
  uint32_t samples;    /* duration the frame fills */
  uint32_t silence;    /* 1: known-corrupt, write silence only */
  uint32_t crc_checked; /* 1: the locator verified this exact frame's CRC-16 */
};

struct GpuFormat {
  uint32_t sample_rate;     /* defaults for "from STREAMINFO" header codes */
  uint32_t bps;
  uint32_t legacy_variable;
  uint32_t channels;
  uint32_t out_format;      /* OutFormat */
  uint32_t pad;
};

/* A frame candidate of the GPU scan (flac-locate-scan.h). */
struct GpuCandidate {
  uint64_t offset;       /* in the chunk */
  int64_t end;           /* walk_end(): next frame's offset, the chunk size, or -1 */
  uint32_t header_bytes;
  uint32_t pad;
};

} // namespace flac
} // namespace gpc

/* Kernel names, as looked up with cuModuleGetFunction. */
#define GPC_FLAC_KERNEL_DECODE "gpc_flac_decode_frames"
#define GPC_FLAC_KERNEL_INTERLEAVE "gpc_flac_interleave"
#define GPC_FLAC_KERNEL_SCAN "gpc_flac_scan"
#define GPC_FLAC_KERNEL_ENDS "gpc_flac_ends"
