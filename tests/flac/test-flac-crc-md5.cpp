/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Unit tests of the checksums: CRC-8 / CRC-16 check values, slice-by-8
 * against the byte-wise form on random data, the zero-residue property the
 * locator relies on, MD5 test vectors (RFC 1321) and the sample layout of
 * the STREAMINFO signature.
 */
#include <string.h>

#include <string>
#include <vector>

#include "flac-crc.h"
#include "flac-md5.h"
#include "flac-test-util.h"
#include "gpc-test.h"

using namespace gpc::flac;

static std::string md5_of (const void *p, size_t n)
{
  Md5 m;
  m.update (p, n);
  uint8_t d[16];
  m.finish (d);
  char hex[33];
  md5_hex (d, hex);
  return hex;
}

int main ()
{
  const char *check = "123456789";
  CHECK (crc8 ((const uint8_t *) check, 9) == 0xf4, "crc8 %02x", crc8 ((const uint8_t *) check, 9));
  CHECK (crc16 ((const uint8_t *) check, 9) == 0xfee8, "crc16 %04x", crc16 ((const uint8_t *) check, 9));

  gpc_test::Rng rng = gpc_test::rng ("crc");
  for (int iter = 0; iter < 200; iter++) {
    size_t n = (size_t) rng.range (0, 3000);
    std::vector<uint8_t> buf (n + 2);
    for (auto &b : buf)
      b = (uint8_t) rng.bits (8);
    uint16_t slow = 0;
    for (size_t i = 0; i < n; i++)
      slow = crc16_byte (slow, buf[i]);
    uint16_t fast = crc16 (buf.data (), n);
    CHECK (slow == fast, "slice-by-8 %04x vs byte-wise %04x (n=%zu)", fast, slow, n);
    /* split computation must chain */
    size_t cut = n ? (size_t) rng.range (0, (int64_t) n) : 0;
    CHECK (crc16 (buf.data () + cut, n - cut, crc16 (buf.data (), cut)) == fast, "chained crc16");
    /* appending the CRC big-endian gives a zero residue */
    buf[n] = (uint8_t) (fast >> 8);
    buf[n + 1] = (uint8_t) fast;
    CHECK (crc16 (buf.data (), n + 2) == 0, "crc16 residue");
    uint8_t c8 = crc8 (buf.data (), n);
    buf[n] = c8;
    CHECK (crc8 (buf.data (), n + 1) == 0, "crc8 residue");
  }

  CHECK (md5_of ("", 0) == "d41d8cd98f00b204e9800998ecf8427e", "md5 empty");
  CHECK (md5_of ("abc", 3) == "900150983cd24fb0d6963f7d28e17f72", "md5 abc");
  const char *fox = "The quick brown fox jumps over the lazy dog";
  CHECK (md5_of (fox, strlen (fox)) == "9e107d9d372bb6826bd81d3542a419d6", "md5 fox");
  const char *digits = "12345678901234567890123456789012345678901234567890123456789012345678901234567890";
  CHECK (md5_of (digits, 80) == "57edf4a22be3c955ac49da2e2107b67a", "md5 80 digits");
  {
    std::vector<char> a (1000000, 'a');
    Md5 m; /* fed in odd pieces to exercise buffering */
    for (size_t i = 0; i < a.size ();) {
      size_t k = std::min<size_t> (a.size () - i, (size_t) rng.range (1, 200));
      m.update (a.data () + i, k);
      i += k;
    }
    uint8_t d[16];
    char hex[33];
    m.finish (d);
    md5_hex (d, hex);
    CHECK (std::string (hex) == "7707d6ae4e027c70eea2a935c2296f21", "md5 million a: %s", hex);
  }

  /* Signature layout: 12-bit samples stored shifted in S16 hash as 2-byte
   * little-endian values; 20/24-bit in S24_32 as 3 bytes. */
  {
    int16_t s16[3] = { (int16_t) (-5 * 16), (int16_t) (2047 * 16), 0 };
    uint8_t expect[6] = { 0xfb, 0xff, 0xff, 0x07, 0x00, 0x00 };
    Md5 m;
    m.update_samples (s16, 3, 2, 4, 12);
    uint8_t d[16];
    m.finish (d);
    char hex[33];
    md5_hex (d, hex);
    CHECK (md5_of (expect, 6) == hex, "12-bit layout");
    int32_t s32[2] = { -1 * 16, 0x7ffff * 16 };
    uint8_t e3[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0x07 };
    m.update_samples (s32, 2, 4, 4, 20);
    m.finish (d);
    md5_hex (d, hex);
    CHECK (md5_of (e3, 6) == hex, "20-bit layout");
  }
  printf ("%d failures\n", flac_test::failures);
  return flac_test::failures ? 1 : 0;
}
