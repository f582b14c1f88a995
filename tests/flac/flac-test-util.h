/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Small helpers of the FLAC tests: whole-file reads, failure reporting.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <string>
#include <vector>

namespace flac_test {

inline bool read_file (const std::string &path, std::vector<uint8_t> *out)
{
  FILE *f = fopen (path.c_str (), "rb");
  if (!f)
    return false;
  fseek (f, 0, SEEK_END);
  long n = ftell (f);
  fseek (f, 0, SEEK_SET);
  out->resize (n > 0 ? (size_t) n : 0);
  bool ok = n <= 0 || fread (out->data (), 1, (size_t) n, f) == (size_t) n;
  fclose (f);
  return ok;
}

inline int failures = 0;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (!(cond)) {                                                         \
      printf ("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);              \
      printf (__VA_ARGS__);                                                \
      printf ("\n");                                                       \
      flac_test::failures++;                                               \
    }                                                                      \
  } while (0)

} // namespace flac_test
