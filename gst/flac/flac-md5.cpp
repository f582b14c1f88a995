/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "flac-md5.h"

#include <stdio.h>
#include <string.h>

namespace gpc {
namespace flac {

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

/* The 64 steps written out, with each round function arranged so that the
 * least work waits for b, the word the previous step just produced: the
 * message word and constant are added first (they wait for nothing), F is
 * d ^ (b & (c ^ d)), G's two halves are disjoint so the half without b is
 * added early, and I's ~d is ready before b. This is what makes MD5 fast
 * in C; the STREAMINFO check of a verified decode runs at its speed. */
#define MD5_F(a, b, c, d, m, k, s)                                             \
  do {                                                                       \
    a += (m) + (k);                                                          \
    a += (d) ^ ((b) & ((c) ^ (d)));                                          \
    a = b + rotl (a, s);                                                     \
  } while (0)
#define MD5_G(a, b, c, d, m, k, s)                                             \
  do {                                                                       \
    a += (m) + (k) + ((c) & ~(d));                                           \
    a += (b) & (d);                                                          \
    a = b + rotl (a, s);                                                     \
  } while (0)
#define MD5_H(a, b, c, d, m, k, s)                                             \
  do {                                                                       \
    a += (m) + (k);                                                          \
    a += (b) ^ ((c) ^ (d));                                                  \
    a = b + rotl (a, s);                                                     \
  } while (0)
#define MD5_I(a, b, c, d, m, k, s)                                             \
  do {                                                                       \
    a += (m) + (k);                                                          \
    a += (c) ^ ((b) | ~(d));                                                 \
    a = b + rotl (a, s);                                                     \
  } while (0)

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
  /* message word order, constants (floor(abs(sin(i + 1)) * 2^32)) and
   * rotations of RFC 1321 */
  MD5_F (a, b, c, d, m[0], 0xd76aa478u, 7);
  MD5_F (d, a, b, c, m[1], 0xe8c7b756u, 12);
  MD5_F (c, d, a, b, m[2], 0x242070dbu, 17);
  MD5_F (b, c, d, a, m[3], 0xc1bdceeeu, 22);
  MD5_F (a, b, c, d, m[4], 0xf57c0fafu, 7);
  MD5_F (d, a, b, c, m[5], 0x4787c62au, 12);
  MD5_F (c, d, a, b, m[6], 0xa8304613u, 17);
  MD5_F (b, c, d, a, m[7], 0xfd469501u, 22);
  MD5_F (a, b, c, d, m[8], 0x698098d8u, 7);
  MD5_F (d, a, b, c, m[9], 0x8b44f7afu, 12);
  MD5_F (c, d, a, b, m[10], 0xffff5bb1u, 17);
  MD5_F (b, c, d, a, m[11], 0x895cd7beu, 22);
  MD5_F (a, b, c, d, m[12], 0x6b901122u, 7);
  MD5_F (d, a, b, c, m[13], 0xfd987193u, 12);
  MD5_F (c, d, a, b, m[14], 0xa679438eu, 17);
  MD5_F (b, c, d, a, m[15], 0x49b40821u, 22);
  MD5_G (a, b, c, d, m[1], 0xf61e2562u, 5);
  MD5_G (d, a, b, c, m[6], 0xc040b340u, 9);
  MD5_G (c, d, a, b, m[11], 0x265e5a51u, 14);
  MD5_G (b, c, d, a, m[0], 0xe9b6c7aau, 20);
  MD5_G (a, b, c, d, m[5], 0xd62f105du, 5);
  MD5_G (d, a, b, c, m[10], 0x02441453u, 9);
  MD5_G (c, d, a, b, m[15], 0xd8a1e681u, 14);
  MD5_G (b, c, d, a, m[4], 0xe7d3fbc8u, 20);
  MD5_G (a, b, c, d, m[9], 0x21e1cde6u, 5);
  MD5_G (d, a, b, c, m[14], 0xc33707d6u, 9);
  MD5_G (c, d, a, b, m[3], 0xf4d50d87u, 14);
  MD5_G (b, c, d, a, m[8], 0x455a14edu, 20);
  MD5_G (a, b, c, d, m[13], 0xa9e3e905u, 5);
  MD5_G (d, a, b, c, m[2], 0xfcefa3f8u, 9);
  MD5_G (c, d, a, b, m[7], 0x676f02d9u, 14);
  MD5_G (b, c, d, a, m[12], 0x8d2a4c8au, 20);
  MD5_H (a, b, c, d, m[5], 0xfffa3942u, 4);
  MD5_H (d, a, b, c, m[8], 0x8771f681u, 11);
  MD5_H (c, d, a, b, m[11], 0x6d9d6122u, 16);
  MD5_H (b, c, d, a, m[14], 0xfde5380cu, 23);
  MD5_H (a, b, c, d, m[1], 0xa4beea44u, 4);
  MD5_H (d, a, b, c, m[4], 0x4bdecfa9u, 11);
  MD5_H (c, d, a, b, m[7], 0xf6bb4b60u, 16);
  MD5_H (b, c, d, a, m[10], 0xbebfbc70u, 23);
  MD5_H (a, b, c, d, m[13], 0x289b7ec6u, 4);
  MD5_H (d, a, b, c, m[0], 0xeaa127fau, 11);
  MD5_H (c, d, a, b, m[3], 0xd4ef3085u, 16);
  MD5_H (b, c, d, a, m[6], 0x04881d05u, 23);
  MD5_H (a, b, c, d, m[9], 0xd9d4d039u, 4);
  MD5_H (d, a, b, c, m[12], 0xe6db99e5u, 11);
  MD5_H (c, d, a, b, m[15], 0x1fa27cf8u, 16);
  MD5_H (b, c, d, a, m[2], 0xc4ac5665u, 23);
  MD5_I (a, b, c, d, m[0], 0xf4292244u, 6);
  MD5_I (d, a, b, c, m[7], 0x432aff97u, 10);
  MD5_I (c, d, a, b, m[14], 0xab9423a7u, 15);
  MD5_I (b, c, d, a, m[5], 0xfc93a039u, 21);
  MD5_I (a, b, c, d, m[12], 0x655b59c3u, 6);
  MD5_I (d, a, b, c, m[3], 0x8f0ccc92u, 10);
  MD5_I (c, d, a, b, m[10], 0xffeff47du, 15);
  MD5_I (b, c, d, a, m[1], 0x85845dd1u, 21);
  MD5_I (a, b, c, d, m[8], 0x6fa87e4fu, 6);
  MD5_I (d, a, b, c, m[15], 0xfe2ce6e0u, 10);
  MD5_I (c, d, a, b, m[6], 0xa3014314u, 15);
  MD5_I (b, c, d, a, m[13], 0x4e0811a1u, 21);
  MD5_I (a, b, c, d, m[4], 0xf7537e82u, 6);
  MD5_I (d, a, b, c, m[11], 0xbd3af235u, 10);
  MD5_I (c, d, a, b, m[2], 0x2ad7d2bbu, 15);
  MD5_I (b, c, d, a, m[9], 0xeb86d391u, 21);
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
