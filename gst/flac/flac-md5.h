/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * MD5 (RFC 1321), for the STREAMINFO signature: the MD5 of all decoded
 * samples, interleaved, little-endian, each in the smallest whole number of
 * bytes that holds the stream's bit depth. Host only: MD5 is sequential.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace gpc {
namespace flac {

class Md5 {
 public:
  Md5 () { reset (); }
  void reset ();
  void update (const void *data, size_t n);
  void finish (uint8_t digest[16]);

  /* Feeds decoded samples held in one of the decoder's output formats
   * (1, 2 or 4 bytes per sample, shifted left by `shift` to fill the
   * container) in the byte layout the signature is defined over. */
  void update_samples (const void *pcm, size_t nsamples, unsigned container_bytes,
      unsigned shift, unsigned bps);

 private:
  void block (const uint8_t *p);
  uint32_t h_[4];
  uint64_t total_;
  uint8_t buf_[64];
  size_t used_;
};

/* Lower-case hex of a digest into out[33]. */
void md5_hex (const uint8_t digest[16], char out[33]);

} // namespace flac
} // namespace gpc
