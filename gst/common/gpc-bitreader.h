/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * MSB-first bit reader shared by every bitstream parser (FLAC, ProRes, ...).
 *
 * Reads never go past the end of the buffer: a read beyond it returns zero bits
 * and sets a sticky overflow flag, so parsers can check once after a group of
 * reads instead of after each one (as dav1d's GetBits does). Header-only and
 * free of the C++ library so that nvcc can compile it for the device.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "gpc-hd.h"

namespace gpc {

struct BitReader {
  const uint8_t *data = nullptr;
  size_t size = 0;       /* bytes */
  size_t pos = 0;        /* bits consumed */
  bool overflow = false; /* a read went past the end */

  GPC_HD BitReader () {}
  GPC_HD BitReader (const uint8_t *d, size_t n) : data (d), size (n) {}

  GPC_HD size_t bits_left () const {
    return pos >= size * 8 ? 0 : size * 8 - pos;
  }
  GPC_HD size_t byte_pos () const { return pos >> 3; }
  GPC_HD bool byte_aligned () const { return (pos & 7) == 0; }
  GPC_HD bool ok () const { return !overflow; }

  /* Up to 32 bits, big-endian bit order, without consuming them. */
  GPC_HD uint32_t peek (unsigned n) const {
    if (n == 0)
      return 0;
    uint64_t v = 0;
    size_t byte = pos >> 3;
    unsigned shift = pos & 7;
    /* 5 bytes cover any 32-bit window starting at any bit offset. */
    for (unsigned i = 0; i < 5; i++) {
      v <<= 8;
      if (byte + i < size)
        v |= data[byte + i];
    }
    return (uint32_t) ((v << shift) >> (40 - n)) & (n == 32 ? 0xffffffffu : ((1u << n) - 1));
  }

  GPC_HD uint32_t get (unsigned n) {
    if (n > bits_left ()) {
      overflow = true;
      pos = size * 8;
      return 0;
    }
    uint32_t v = peek (n);
    pos += n;
    return v;
  }

  /* Up to 64 bits. */
  GPC_HD uint64_t get64 (unsigned n) {
    if (n <= 32)
      return get (n);
    uint64_t hi = get (n - 32);
    return (hi << 32) | get (32);
  }

  /* Two's-complement signed value of n bits (1..32). */
  GPC_HD int32_t get_signed (unsigned n) {
    uint32_t v = get (n);
    if (n < 32 && (v >> (n - 1)))
      v |= ~0u << n;
    return (int32_t) v;
  }

  GPC_HD bool get_bit () { return get (1) != 0; }

  GPC_HD void skip (size_t n) {
    if (n > bits_left ()) {
      overflow = true;
      pos = size * 8;
    } else {
      pos += n;
    }
  }

  GPC_HD void byte_align () { skip ((8 - (pos & 7)) & 7); }

  /* Number of 0 bits before the next 1 bit, which is consumed too. Stops with
   * overflow set when the buffer ends or more than `limit` zeros are seen. */
  GPC_HD uint32_t unary (uint32_t limit = 0xffffffffu) {
    uint32_t zeros = 0;
    while (true) {
      size_t left = bits_left ();
      if (left == 0) {
        overflow = true;
        return zeros;
      }
      unsigned n = left < 32 ? (unsigned) left : 32;
      uint32_t w = peek (n) << (32 - n);
      if (w != 0) {
        unsigned lz = gpc_clz32 (w);
        zeros += lz;
        pos += lz + 1;
        if (zeros > limit)
          overflow = true;
        return zeros;
      }
      zeros += n;
      pos += n;
      if (zeros > limit) {
        overflow = true;
        return zeros;
      }
    }
  }
};

} // namespace gpc
