/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The benchmark's bit-exactness check: the first frames' VMAF and feature
 * values from the CPU references (gst/vmaf, gst/vmafmotion, the same
 * scorer), to compare with vkvmaf's messages on the same frames.
 */
#pragma once

#include <string>
#include <vector>

#include "bench-frames.h"
#include "vmaf-scorer.h"

namespace gpc_bench {

struct CpuScores {
  std::vector<std::string> columns;  /* libvmaf's names; the last is "vmaf" */
  std::vector<gpc::VmafFrameResult> frames;
};

/* vmaf_v0.6.1 of the clip's first `frames` frames as one stream. */
bool cpu_reference_scores (const VmafBenchClip &clip, unsigned frames, CpuScores *out,
    std::string *error);

} // namespace gpc_bench
