/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Helpers shared by every test: a seeded random generator whose seed is
 * printed (rerun a failure with GPC_TEST_SEED=<seed>), the location of the
 * conformance vectors, and visible skips (exit code 77 for meson).
 */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <string>
#include <vector>

namespace gpc_test {

/* SplitMix64: tiny, fast, good enough for test data, identical everywhere. */
class Rng {
 public:
  explicit Rng (uint64_t seed) : state_ (seed) {}
  uint64_t next () {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /* Uniform in [lo, hi] (inclusive). */
  int64_t range (int64_t lo, int64_t hi) {
    uint64_t span = (uint64_t) (hi - lo) + 1;
    return span == 0 ? (int64_t) next () : lo + (int64_t) (next () % span);
  }
  uint32_t bits (unsigned n) { return n == 0 ? 0 : (uint32_t) (next () >> (64 - n)); }
  bool chance (unsigned percent) { return range (0, 99) < percent; }

 private:
  uint64_t state_;
};

/* The run's seed: GPC_TEST_SEED if set, else fresh. Printed once, always.
 * Its first call also calls report_sigpipe (), as every test that uses
 * random data calls it early. */
uint64_t seed ();

/* Makes a death by SIGPIPE print the writing thread's backtrace to stderr
 * first (the process then dies of the signal as before). */
void report_sigpipe ();

/* A generator for one named sub-test, derived from the run's seed. */
Rng rng (const char *name);

/* Folder of the conformance vectors (../shared/vectors), from GPC_VECTORS_DIR. */
std::string vectors_dir ();

/* Path of a file in the vectors folder, or "" when it is absent. */
std::string vector_path (const std::string &relative);

/* Folder with the project's committed test media (tests/media). */
std::string media_dir ();

/* Whole output of `zstd -dc path` (the conformance vectors' .zst files), or
 * false. */
bool read_zstd (const std::string &path, std::vector<uint8_t> &out);
/* Whether the zstd command-line tool is installed. */
bool have_zstd ();

/* Print why and exit with meson's "skipped" code. */
[[noreturn]] void skip (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

} // namespace gpc_test
