/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-md5.h"

#include <stdio.h>
#include <string.h>

namespace gpc {
namespace flac {

/* Per-round left rotations and the sine-derived constants of RFC 1321. */
static const uint8_t kShift[64] = {
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
  5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};

static const uint32_t kSine[64] = {
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
  0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
  0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
  0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
  0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
  0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
  0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
  0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static inline uint32_t rotl (uint32_t x, unsigned c)
{
  return (x << c) | (x >> (32 - c));
}

void Md5::reset ()
{
  h_[0] = 0x67452301;
  h_[1] = 0xefcdab89;
  h_[2] = 0x98badcfe;
  h_[3] = 0x10325476;
  total_ = 0;
  used_ = 0;
}

/* The four rounds written out (as every fast MD5 is): 64 steps with
 * constant shifts and message indices compile to straight-line code. */
#define MD5_STEP(F, a, b, c, d, i, g)                                        \
  a = b + rotl (a + F (b, c, d) + kSine[i] + m[g], kShift[i])
#define MD5_F(x, y, z) (((x) & (y)) | (~(x) & (z)))
#define MD5_G(x, y, z) (((z) & (x)) | (~(z) & (y)))
#define MD5_H(x, y, z) ((x) ^ (y) ^ (z))
#define MD5_I(x, y, z) ((y) ^ ((x) | ~(z)))

void Md5::block (const uint8_t *p)
{
  uint32_t m[16];
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy (m, p, 64); /* MD5 words are little-endian */
#else
  for (int i = 0; i < 16; i++)
    m[i] = (uint32_t) p[4 * i] | ((uint32_t) p[4 * i + 1] << 8) |
        ((uint32_t) p[4 * i + 2] << 16) | ((uint32_t) p[4 * i + 3] << 24);
#endif
  uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3];
  for (int i = 0; i < 16; i += 4) {
    MD5_STEP (MD5_F, a, b, c, d, i, i);
    MD5_STEP (MD5_F, d, a, b, c, i + 1, i + 1);
    MD5_STEP (MD5_F, c, d, a, b, i + 2, i + 2);
    MD5_STEP (MD5_F, b, c, d, a, i + 3, i + 3);
  }
  for (int i = 16; i < 32; i += 4) {
    MD5_STEP (MD5_G, a, b, c, d, i, (5 * i + 1) & 15);
    MD5_STEP (MD5_G, d, a, b, c, i + 1, (5 * i + 6) & 15);
    MD5_STEP (MD5_G, c, d, a, b, i + 2, (5 * i + 11) & 15);
    MD5_STEP (MD5_G, b, c, d, a, i + 3, (5 * i + 16) & 15);
  }
  for (int i = 32; i < 48; i += 4) {
    MD5_STEP (MD5_H, a, b, c, d, i, (3 * i + 5) & 15);
    MD5_STEP (MD5_H, d, a, b, c, i + 1, (3 * i + 8) & 15);
    MD5_STEP (MD5_H, c, d, a, b, i + 2, (3 * i + 11) & 15);
    MD5_STEP (MD5_H, b, c, d, a, i + 3, (3 * i + 14) & 15);
  }
  for (int i = 48; i < 64; i += 4) {
    MD5_STEP (MD5_I, a, b, c, d, i, (7 * i) & 15);
    MD5_STEP (MD5_I, d, a, b, c, i + 1, (7 * i + 7) & 15);
    MD5_STEP (MD5_I, c, d, a, b, i + 2, (7 * i + 14) & 15);
    MD5_STEP (MD5_I, b, c, d, a, i + 3, (7 * i + 21) & 15);
  }
  h_[0] += a;
  h_[1] += b;
  h_[2] += c;
  h_[3] += d;
}

void Md5::update (const void *data, size_t n)
{
  if (n == 0)
    return;
  const uint8_t *p = (const uint8_t *) data;
  total_ += n;
  if (used_) {
    size_t take = 64 - used_ < n ? 64 - used_ : n;
    memcpy (buf_ + used_, p, take);
    used_ += take;
    p += take;
    n -= take;
    if (used_ < 64)
      return;
    block (buf_);
    used_ = 0;
  }
  while (n >= 64) {
    block (p);
    p += 64;
    n -= 64;
  }
  memcpy (buf_, p, n);
  used_ = n;
}

void Md5::finish (uint8_t digest[16])
{
  uint64_t bits = total_ * 8;
  uint8_t pad[72] = { 0x80 };
  size_t padlen = (used_ < 56) ? 56 - used_ : 120 - used_;
  update (pad, padlen);
  uint8_t len[8];
  for (int i = 0; i < 8; i++)
    len[i] = (uint8_t) (bits >> (8 * i));
  update (len, 8);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      digest[4 * i + j] = (uint8_t) (h_[i] >> (8 * j));
  reset ();
}

void Md5::update_samples (const void *pcm, size_t nsamples, unsigned container_bytes,
    unsigned shift, unsigned bps)
{
  unsigned out_bytes = (bps + 7) / 8;
  if (shift == 0 && out_bytes == container_bytes) {
    update (pcm, nsamples * container_bytes); /* already the signature's layout */
    return;
  }
  uint8_t tmp[4096];
  size_t fill = 0;
  if (container_bytes == 4 && out_bytes == 3) {
    /* 17..24-bit in S24_32: 3 of each 4 bytes (little-endian host) */
    const int32_t *src = (const int32_t *) pcm;
    for (size_t i = 0; i < nsamples; i++) {
      uint32_t v = (uint32_t) (src[i] >> shift);
      memcpy (tmp + fill, &v, 4); /* the 4th byte is overwritten next */
      fill += 3;
      if (fill > sizeof (tmp) - 4) {
        update (tmp, fill);
        fill = 0;
      }
    }
    update (tmp, fill);
    return;
  }
  for (size_t i = 0; i < nsamples; i++) {
    int32_t v;
    if (container_bytes == 1)
      v = ((const int8_t *) pcm)[i];
    else if (container_bytes == 2)
      v = ((const int16_t *) pcm)[i];
    else
      v = ((const int32_t *) pcm)[i];
    v >>= shift;
    for (unsigned b = 0; b < out_bytes; b++)
      tmp[fill++] = (uint8_t) ((uint32_t) v >> (8 * b));
    if (fill > sizeof (tmp) - 4) {
      update (tmp, fill);
      fill = 0;
    }
  }
  update (tmp, fill);
}

void md5_hex (const uint8_t digest[16], char out[33])
{
  for (int i = 0; i < 16; i++)
    snprintf (out + 2 * i, 3, "%02x", digest[i]);
}

} // namespace flac
} // namespace gpc
