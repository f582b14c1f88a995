/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gpc::ParallelCopy with 0 to 4 helper threads (the count an element or a
 * benchmark passes) copies exactly what memcpy copies: whole buffers of
 * random sizes and chunk sizes, and rows between strides, on fresh random
 * bytes; nothing outside the destination range is written.
 */
#include <stdio.h>
#include <string.h>

#include <vector>

#include "gpc-parallel-copy.h"
#include "gpc-test.h"

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf ("FAIL: " __VA_ARGS__); \
    printf ("\n"); } } while (0)

static std::vector<uint8_t>
random_bytes (gpc_test::Rng &rng, size_t n)
{
  std::vector<uint8_t> v (n);
  for (uint8_t &b : v)
    b = (uint8_t) rng.range (0, 255);
  return v;
}

static void
test_copy (gpc::ParallelCopy &copier, unsigned helpers, gpc_test::Rng &rng)
{
  for (int k = 0; k < 40; k++) {
    const size_t size = (size_t) rng.range (0, 3 << 20);
    const size_t chunk = (size_t) rng.range (1, 512 << 10);
    const size_t at = (size_t) rng.range (0, 63);
    std::vector<uint8_t> src = random_bytes (rng, size);
    std::vector<uint8_t> dst (size + at + 64, 0xa5);
    copier.copy (dst.data () + at, src.data (), size, chunk);
    CHECK (memcmp (dst.data () + at, src.data (), size) == 0,
        "copy of %zu bytes (chunk %zu, %u helpers) differs", size, chunk, helpers);
    bool untouched = true;
    for (size_t i = 0; i < at; i++)
      untouched &= dst[i] == 0xa5;
    for (size_t i = at + size; i < dst.size (); i++)
      untouched &= dst[i] == 0xa5;
    CHECK (untouched, "copy of %zu bytes (%u helpers) wrote outside its range", size, helpers);
  }
}

static void
test_rows (gpc::ParallelCopy &copier, unsigned helpers, gpc_test::Rng &rng)
{
  for (int k = 0; k < 40; k++) {
    const size_t row = (size_t) rng.range (1, 8192);
    const unsigned rows = (unsigned) rng.range (1, 600);
    const size_t src_stride = row + (size_t) rng.range (0, 100);
    const size_t dst_stride = row + (size_t) rng.range (0, 100);
    std::vector<uint8_t> src = random_bytes (rng, src_stride * rows);
    std::vector<uint8_t> dst (dst_stride * rows, 0x5a);
    copier.copy_rows (dst.data (), dst_stride, src.data (), src_stride, row, rows);
    bool same = true, untouched = true;
    for (unsigned y = 0; y < rows; y++) {
      same &= memcmp (&dst[y * dst_stride], &src[y * src_stride], row) == 0;
      for (size_t x = row; x < dst_stride; x++)
        untouched &= dst[y * dst_stride + x] == 0x5a;
    }
    CHECK (same, "%u rows of %zu bytes (strides %zu -> %zu, %u helpers) differ", rows, row,
        src_stride, dst_stride, helpers);
    CHECK (untouched, "%u rows of %zu bytes (%u helpers) wrote into the padding", rows, row,
        helpers);
  }
}

int
main ()
{
  gpc_test::Rng rng = gpc_test::rng ("parallel-copy");
  for (unsigned helpers = 0; helpers <= 4; helpers++) {
    gpc::ParallelCopy copier (helpers);
    test_copy (copier, helpers, rng);
    test_rows (copier, helpers, rng);
  }
  printf ("default helper threads on this machine: %u\n", gpc::ParallelCopy::default_workers ());
  printf ("%d failures\n", failures);
  return failures ? 1 : 0;
}
