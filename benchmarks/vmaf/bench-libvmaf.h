/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libvmaf beside vkvmaf on the same frames: the runner that
 * tools/build-libvmaf.sh builds against the user's libvmaf
 * (tools/vmaf-bench-libvmaf.c) reads the benchmark's frames from files and
 * reports its time per frame and its first scores.
 */
#pragma once

#include <string>
#include <vector>

#include "bench-frames.h"

namespace gpc_bench {

struct LibvmafResult {
  bool ran = false;         /* false: not available (why says so) */
  std::string why;
  std::string version;
  double ms_per_frame = 0;  /* wall clock, frames in flight on every thread */
  std::vector<double> scores;  /* vmaf_v0.6.1 of frames 0, 1, ... */
};

/* Writes the clip's frames as raw little-endian files under `dir` (once per
 * clip; returns false when it cannot). */
bool write_clip_files (const VmafBenchClip &clip, const std::string &dir, std::string *ref,
    std::string *dist);

/* Runs `runner` over `frames` frames (the clip's cycled) on the CPU with
 * `threads` threads (0: every core), or with libvmaf's CUDA extractors. */
LibvmafResult run_libvmaf (const std::string &runner, const VmafBenchClip &clip,
    const std::string &ref, const std::string &dist, unsigned frames, unsigned threads,
    bool cuda, unsigned scores);

/* Runs `runner`'s CUDA self-test (--cuda-selftest) over the first `frames`
 * frames, its report going to this process's stdout and stderr; returns its
 * exit status (0: libvmaf's CUDA scores agree with its CPU's; -1: not run). */
int selftest_libvmaf_cuda (const std::string &runner, const VmafBenchClip &clip,
    const std::string &ref, const std::string &dist, unsigned frames);

} // namespace gpc_bench
