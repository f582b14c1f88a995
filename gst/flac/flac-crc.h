/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The two checksums of a FLAC frame (RFC 9639 section 9.1.8 and 9.3):
 * CRC-8 (polynomial x^8+x^2+x+1) over the frame header and CRC-16
 * (x^16+x^15+x^2+1) over the whole frame. Both are MSB-first with a zero
 * initial value, so running either over data that ends with its own CRC
 * gives zero, which is how the frame locator tests candidate frame ends.
 *
 * Tables are built at compile time; device code reads a __constant__ copy.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "gpc-hd.h"

namespace gpc {
namespace flac {

struct Crc8Table {
  uint8_t t[256];
};
struct Crc16Table {
  uint16_t t[8][256]; /* t[0]: byte-wise table; t[1..7]: slice-by-8 */
};

constexpr Crc8Table make_crc8_table ()
{
  Crc8Table tab {};
  for (unsigned i = 0; i < 256; i++) {
    unsigned c = i;
    for (int b = 0; b < 8; b++)
      c = (c & 0x80) ? ((c << 1) ^ 0x07) : (c << 1);
    tab.t[i] = (uint8_t) c;
  }
  return tab;
}

constexpr Crc16Table make_crc16_table ()
{
  Crc16Table tab {};
  for (unsigned i = 0; i < 256; i++) {
    unsigned c = i << 8;
    for (int b = 0; b < 8; b++)
      c = (c & 0x8000) ? ((c << 1) ^ 0x8005) : (c << 1);
    tab.t[0][i] = (uint16_t) c;
  }
  /* t[k][i]: CRC of byte i followed by k zero bytes. */
  for (unsigned k = 1; k < 8; k++)
    for (unsigned i = 0; i < 256; i++) {
      unsigned c = tab.t[k - 1][i];
      tab.t[k][i] = (uint16_t) ((c << 8) ^ tab.t[0][(c >> 8) & 0xff]);
    }
  return tab;
}

#if defined(__CUDACC__)
__constant__ Crc8Table d_crc8_table = make_crc8_table ();
__device__ Crc16Table d_crc16_table = make_crc16_table ();
#endif
inline constexpr Crc8Table crc8_table = make_crc8_table ();
inline constexpr Crc16Table crc16_table = make_crc16_table ();

GPC_HD uint8_t crc8 (const uint8_t *p, size_t n, uint8_t crc = 0)
{
#if defined(__CUDA_ARCH__)
  const uint8_t *t = d_crc8_table.t;
#else
  const uint8_t *t = crc8_table.t;
#endif
  for (size_t i = 0; i < n; i++)
    crc = t[crc ^ p[i]];
  return crc;
}

/* One byte at a time; the form the locator uses to test every candidate end. */
GPC_HD uint16_t crc16_byte (uint16_t crc, uint8_t b)
{
#if defined(__CUDA_ARCH__)
  const uint16_t *t = d_crc16_table.t[0];
#else
  const uint16_t *t = crc16_table.t[0];
#endif
  return (uint16_t) ((crc << 8) ^ t[((crc >> 8) ^ b) & 0xff]);
}

GPC_HD uint16_t crc16 (const uint8_t *p, size_t n, uint16_t crc = 0)
{
#if defined(__CUDA_ARCH__)
  const Crc16Table &T = d_crc16_table;
#else
  const Crc16Table &T = crc16_table;
#endif
  /* Slice-by-8: the CRC register only touches the first two bytes of each
   * group of 8, the other six go through their shifted tables. */
  while (n >= 8) {
    unsigned a = (p[0] ^ (crc >> 8)) & 0xff;
    unsigned b = (p[1] ^ crc) & 0xff;
    crc = (uint16_t) (T.t[7][a] ^ T.t[6][b] ^ T.t[5][p[2]] ^ T.t[4][p[3]] ^
        T.t[3][p[4]] ^ T.t[2][p[5]] ^ T.t[1][p[6]] ^ T.t[0][p[7]]);
    p += 8;
    n -= 8;
  }
  while (n--)
    crc = (uint16_t) ((crc << 8) ^ T.t[0][((crc >> 8) ^ *p++) & 0xff]);
  return crc;
}

} // namespace flac
} // namespace gpc
