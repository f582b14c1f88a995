/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per-frame FLAC decoding (RFC 9639 section 9): frame header with CRC-8,
 * subframes (constant, verbatim, fixed, LPC), Rice residuals, stereo
 * decorrelation, CRC-16, and the conversion to flacdec's output formats.
 *
 * This is the one source both backends run: the CPU batch decoder calls it
 * from its worker threads, the CUDA kernels call it from device threads.
 * Therefore: GPC_HD everywhere, no C++ library, no exceptions, no allocation
 * (callers hand in every buffer), bounded loops on any input.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "gpc-bitreader.h"
#include "gpc-hd.h"
#include "flac-crc.h"
#include "flac-format.h"

namespace gpc {
namespace flac {

/* ------------------------------------------------------------------------ */
/* Frame header                                                              */

/* Largest frame header: 2 sync + 2 codes + 7 coded number + 2 blocksize +
 * 2 sample rate + 1 CRC-8. */
constexpr unsigned kMaxHeaderBytes = 16;

GPC_HD bool is_sync (const uint8_t *p)
{
  return p[0] == 0xff && (p[1] & 0xfe) == 0xf8;
}

/* Parses and checks (CRC-8) the frame header at p. `d` supplies what the
 * header may defer to STREAMINFO. */
GPC_HD int parse_frame_header (const uint8_t *p, size_t n, const StreamDefaults &d,
    FrameHeader *h)
{
  if (n < 2)
    return kNeedMore;
  if (!is_sync (p))
    return kBadSync;
  if (n < 6)
    return kNeedMore;
  h->variable = (p[1] & 1) || d.legacy_variable;
  unsigned bs_code = p[2] >> 4;
  unsigned sr_code = p[2] & 15;
  unsigned ch_code = p[3] >> 4;
  unsigned bps_code = (p[3] >> 1) & 7;
  if (bs_code == 0 || sr_code == 15 || ch_code > 10 || bps_code == 3 || (p[3] & 1))
    return kBadHeader;

  /* Coded number: UTF-8-like, 1..7 bytes (frame numbers only up to 6). */
  size_t pos = 4;
  uint8_t first = p[pos++];
  unsigned len;
  uint64_t num;
  if (first < 0x80) {
    len = 1;
    num = first;
  } else if (first == 0xff || (first & 0xc0) == 0x80) {
    return kBadHeader;
  } else {
    len = gpc_clz32 ((uint32_t) (uint8_t) ~first << 24); /* leading ones */
    num = first & (0x7f >> len);
  }
  if (len > (h->variable ? 7u : 6u))
    return kBadHeader;
  if (n < pos + (len - 1) + 5)
    return kNeedMore;
  for (unsigned i = 1; i < len; i++) {
    uint8_t c = p[pos++];
    if ((c & 0xc0) != 0x80)
      return kBadHeader;
    num = (num << 6) | (c & 0x3f);
  }
  h->number = num;

  uint32_t bs;
  if (bs_code == 1)
    bs = 192;
  else if (bs_code <= 5)
    bs = 576u << (bs_code - 2);
  else if (bs_code == 6)
    bs = p[pos++] + 1u;
  else if (bs_code == 7) {
    bs = ((uint32_t) p[pos] << 8 | p[pos + 1]) + 1u;
    pos += 2;
  } else
    bs = 256u << (bs_code - 8);
  if (bs > kMaxBlockSize)
    return kBadHeader;
  h->blocksize = bs;

  static const uint32_t kRates[12] = { 0, 88200, 176400, 192000, 8000, 16000,
    22050, 24000, 32000, 44100, 48000, 96000 };
  uint32_t sr;
  if (sr_code == 0)
    sr = d.sample_rate;
  else if (sr_code < 12)
    sr = kRates[sr_code];
  else if (sr_code == 12)
    sr = p[pos++] * 1000u;
  else {
    sr = (uint32_t) p[pos] << 8 | p[pos + 1];
    pos += 2;
    if (sr_code == 14)
      sr *= 10;
  }
  h->sample_rate = sr;

  static const uint8_t kDepths[8] = { 0, 8, 12, 0, 16, 20, 24, 32 };
  unsigned bps = bps_code ? kDepths[bps_code] : d.bps;
  if (bps < 4 || bps > 32)
    return kBadHeader;
  h->bps = (uint8_t) bps;
  h->assignment = (uint8_t) ch_code;
  h->channels = (uint8_t) (ch_code < 8 ? ch_code + 1 : 2);

  if (crc8 (p, pos) != p[pos])
    return kBadCrc8;
  h->header_bytes = (uint32_t) pos + 1;
  return kOk;
}

/* ------------------------------------------------------------------------ */
/* Bit reading fast path for residuals                                       */

/* A 64-bit cache over a BitReader's buffer for the Rice loop, which is where
 * decoding spends its time; the BitReader stays the position of record.
 * Reading past the end yields zeros and is detected from the position. */
struct CachedBits {
  const uint8_t *data;
  size_t size;
  size_t next;    /* next byte to load */
  uint64_t cache; /* valid bits left-aligned; bits after `count` are zero or real data */
  unsigned count;

  GPC_HD explicit CachedBits (const BitReader &br)
      : data (br.data), size (br.size), next (br.pos >> 3), cache (0), count (0) {
    refill ();
    unsigned skip = br.pos & 7;
    cache <<= skip;
    count -= skip;
  }
  GPC_HD size_t bit_pos () const { return next * 8 - count; }
  GPC_HD bool overrun () const { return bit_pos () > size * 8; }
  GPC_HD void store (BitReader &br) const {
    if (overrun ()) {
      br.overflow = true;
      br.pos = size * 8;
    } else {
      br.pos = bit_pos ();
    }
  }
  /* Ensures count >= 57. */
  GPC_HD void refill () {
#if !defined(__CUDA_ARCH__)
    if (next + 8 <= size) {
      uint64_t v;
      __builtin_memcpy (&v, data + next, 8);
      v = __builtin_bswap64 (v);
      cache |= v >> count;
      next += (63 - count) >> 3;
      count |= 56;
      return;
    }
#else
    /* Device: three aligned 32-bit loads instead of up to eight byte loads
     * (each a wait on memory for a thread that decodes a frame alone). The
     * aligned word may start up to 3 bytes before data + next: still inside
     * the chunk, which starts aligned. */
    if (next + 12 <= size) {
      uintptr_t at = (uintptr_t) (data + next);
      const uint32_t *w = (const uint32_t *) (at & ~(uintptr_t) 3);
      unsigned off = (unsigned) (at & 3) * 8;
      uint64_t hi = ((uint64_t) __byte_perm (w[0], 0, 0x0123) << 32) | __byte_perm (w[1], 0, 0x0123);
      uint32_t lo = __byte_perm (w[2], 0, 0x0123);
      uint64_t v = off ? (hi << off) | (lo >> (32 - off)) : hi;
      cache |= v >> count;
      next += (63 - count) >> 3;
      count |= 56;
      return;
    }
#endif
    while (count <= 56) {
      uint64_t b = next < size ? data[next] : 0;
      cache |= b << (56 - count);
      count += 8;
      next++;
    }
  }
  /* n <= 32 */
  GPC_HD uint32_t get (unsigned n) {
    if (n == 0)
      return 0;
    if (count < n)
      refill ();
    uint32_t v = (uint32_t) (cache >> (64 - n));
    cache <<= n;
    count -= n;
    return v;
  }
  /* Zeros before the next one bit (consumed). Returns > limit on a run that
   * is too long or runs off the data. */
  GPC_HD uint32_t unary (uint32_t limit) {
    uint32_t zeros = 0;
    for (;;) {
      if (count < 57)
        refill ();
      if (cache) {
#if defined(__CUDA_ARCH__)
        unsigned lz = (unsigned) __clzll ((long long) cache);
#else
        unsigned lz = (unsigned) __builtin_clzll (cache);
#endif
        if (lz < count) {
          cache = (cache << lz) << 1; /* lz + 1 may be 64 */
          count -= lz + 1;
          return zeros + lz;
        }
      }
      zeros += count;
      cache = 0;
      count = 0;
      if (zeros > limit || next > size + 8)
        return limit + 1;
    }
  }
};

/* ------------------------------------------------------------------------ */
/* Subframes                                                                 */

/* Signed value of 1..33 bits. */
GPC_HD int64_t get_signed_bits (BitReader &br, unsigned n)
{
  if (n <= 32)
    return br.get_signed (n);
  uint64_t v = br.get64 (n);
  return (int64_t) (v << (64 - n)) >> (64 - n);
}

/* Rice-coded residual (RFC 9639 9.2.7) into res[order..n). */
GPC_HD int decode_residual (BitReader &br, int32_t *res, uint32_t n, unsigned order)
{
  unsigned method = br.get (2);
  if (method > 1)
    return kBadResidual;
  unsigned param_bits = method ? 5 : 4;
  unsigned escape = (1u << param_bits) - 1;
  unsigned porder = br.get (4);
  if (!br.ok ())
    return kNeedMore;
  uint32_t parts = 1u << porder;
  if (n & (parts - 1))
    return kBadResidual;
  uint32_t psize = n >> porder;
  if (psize < order)
    return kBadResidual;

  uint32_t i = order;
  for (uint32_t p = 0; p < parts; p++) {
    uint32_t end = (p + 1) * psize;
    unsigned param = br.get (param_bits);
    if (param == escape) {
      unsigned width = br.get (5);
      if (width == 0) {
        for (; i < end; i++)
          res[i] = 0;
      } else {
        if ((size_t) (end - i) * width > br.bits_left ())
          return kNeedMore;
        for (; i < end; i++)
          res[i] = br.get_signed (width);
      }
      continue;
    }
    if (!br.ok ())
      return kNeedMore;
    CachedBits cb (br);
    /* Quotients beyond this cannot give a 32-bit folded value. */
    uint32_t qlimit = param ? (0xffffffffu >> param) : 0xffffffffu;
#if !defined(__CUDA_ARCH__)
    {
      /* Host hot loop on plain locals (so they stay in registers) while 8
       * bytes can be loaded at once: codes whose quotient, stop bit and
       * remainder are all in the 64-bit cache. Anything else drops to the
       * general loop below. */
      uint64_t cache = cb.cache;
      unsigned count = cb.count;
      size_t next = cb.next;
      const uint8_t *src = cb.data;
      size_t limit = cb.size >= 8 ? cb.size - 8 : 0;
      int32_t *r = res + i, *rend = res + end;
      while (r < rend) {
        if (count < 57) {
          if (next > limit)
            break;
          uint64_t v;
          __builtin_memcpy (&v, src + next, 8);
          v = __builtin_bswap64 (v);
          cache |= v >> count;
          next += (63 - count) >> 3;
          count |= 56;
        }
        if (!cache)
          break;
        unsigned lz = (unsigned) __builtin_clzll (cache);
        unsigned used = lz + 1 + param;
        if (used >= 64 || used > count)
          break;
        uint64_t rest = cache << (lz + 1);
        uint32_t u = ((uint32_t) lz << param) | (uint32_t) ((rest >> (63 - param)) >> 1);
        cache = rest << param;
        count -= used;
        *r++ = (int32_t) ((u >> 1) ^ (0u - (u & 1)));
      }
      cb.cache = cache;
      cb.count = count;
      cb.next = next;
      i = (uint32_t) (r - res);
    }
#endif
    for (; i < end; i++) {
      /* Fast path: quotient, stop bit and remainder all in the cache. */
      if (cb.count < 57)
        cb.refill ();
      if (cb.cache) {
#if defined(__CUDA_ARCH__)
        unsigned lz = (unsigned) __clzll ((long long) cb.cache);
#else
        unsigned lz = (unsigned) __builtin_clzll (cb.cache);
#endif
        unsigned used = lz + 1 + param;
        if (used < 64 && used <= cb.count) {
          uint64_t rest = cb.cache << (lz + 1);
          uint32_t u = ((uint32_t) lz << param) | (uint32_t) ((rest >> (63 - param)) >> 1);
          cb.cache = rest << param;
          cb.count -= used;
          res[i] = (int32_t) ((u >> 1) ^ (0u - (u & 1)));
          continue;
        }
      }
      uint32_t q = cb.unary (qlimit);
      if (q > qlimit) {
        cb.store (br);
        return cb.overrun () ? kNeedMore : kBadResidual;
      }
      uint32_t u = (q << param) | cb.get (param);
      res[i] = (int32_t) ((u >> 1) ^ (0u - (u & 1)));
    }
    cb.store (br);
    if (!br.ok ())
      return kNeedMore;
  }
  return kOk;
}

/* Fixed predictors of order 0..4 (RFC 9639 9.2.5), in place over residuals. */
template <typename T>
GPC_HD void restore_fixed (T *s, const int32_t *res, uint32_t n, unsigned order)
{
  switch (order) {
    case 0:
      for (uint32_t i = 0; i < n; i++)
        s[i] = (T) res[i];
      break;
    case 1:
      for (uint32_t i = 1; i < n; i++)
        s[i] = (T) ((int64_t) s[i - 1] + res[i]);
      break;
    case 2:
      for (uint32_t i = 2; i < n; i++)
        s[i] = (T) (2 * (int64_t) s[i - 1] - s[i - 2] + res[i]);
      break;
    case 3:
      for (uint32_t i = 3; i < n; i++)
        s[i] = (T) (3 * ((int64_t) s[i - 1] - s[i - 2]) + s[i - 3] + res[i]);
      break;
    case 4:
      for (uint32_t i = 4; i < n; i++)
        s[i] = (T) (4 * ((int64_t) s[i - 1] + s[i - 3]) - 6 * (int64_t) s[i - 2] -
            s[i - 4] + res[i]);
      break;
  }
}

/* LPC restore. The 32-bit form is used when the sum provably fits
 * (bps + precision + log2(order) <= 32), as libFLAC does, the 64-bit form
 * otherwise. Sums wrap (unsigned) so that invalid streams stay defined.
 * Coefficients are stored reversed: c[j] pairs with s[i - order + j]. */
template <typename T>
GPC_HD void restore_lpc32 (T *s, const int32_t *res, uint32_t n, const int32_t *c,
    unsigned order, unsigned shift)
{
  for (uint32_t i = order; i < n; i++) {
    const T *h = s + i - order;
    uint32_t sum = 0;
    for (unsigned j = 0; j < order; j++)
      sum += (uint32_t) c[j] * (uint32_t) h[j];
    s[i] = (T) ((int64_t) res[i] + ((int32_t) sum >> shift));
  }
}

/* Same with the order known at compile time, so that the inner loop unrolls
 * and the history stays in registers: most streams use orders up to 12.
 * The history is a register window shifted by one each sample rather than
 * reloaded from s: on the GPU, where one thread decodes a frame and few
 * warps share an SM, every reload waits out the memory latency. */
template <typename T, unsigned N>
GPC_HD void restore_lpc32_n (T *s, const int32_t *res, uint32_t n, const int32_t *c,
    unsigned shift)
{
  int32_t k[N];
  uint32_t h[N];
  for (unsigned j = 0; j < N; j++) {
    k[j] = c[j];
    h[j] = (uint32_t) s[j];
  }
  for (uint32_t i = N; i < n; i++) {
    uint32_t sum = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned j = 0; j < N; j++)
      sum += (uint32_t) k[j] * h[j];
    T v = (T) ((int64_t) res[i] + ((int32_t) sum >> shift));
    s[i] = v;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned j = 0; j + 1 < N; j++)
      h[j] = h[j + 1];
    h[N - 1] = (uint32_t) v;
  }
}

template <typename T>
GPC_HD void restore_lpc32_any (T *s, const int32_t *res, uint32_t n, const int32_t *c,
    unsigned order, unsigned shift)
{
  switch (order) {
#define GPC_LPC_CASE(N) \
    case N: restore_lpc32_n<T, N> (s, res, n, c, shift); return;
    GPC_LPC_CASE (1) GPC_LPC_CASE (2) GPC_LPC_CASE (3) GPC_LPC_CASE (4)
    GPC_LPC_CASE (5) GPC_LPC_CASE (6) GPC_LPC_CASE (7) GPC_LPC_CASE (8)
    GPC_LPC_CASE (9) GPC_LPC_CASE (10) GPC_LPC_CASE (11) GPC_LPC_CASE (12)
#undef GPC_LPC_CASE
    default: restore_lpc32 (s, res, n, c, order, shift);
  }
}

template <typename T>
GPC_HD void restore_lpc64 (T *s, const int32_t *res, uint32_t n, const int32_t *c,
    unsigned order, unsigned shift)
{
  for (uint32_t i = order; i < n; i++) {
    const T *h = s + i - order;
    uint64_t sum = 0;
    for (unsigned j = 0; j < order; j++)
      sum += (uint64_t) (int64_t) c[j] * (uint64_t) (int64_t) h[j];
    s[i] = (T) ((uint64_t) (int64_t) res[i] + (uint64_t) ((int64_t) sum >> shift));
  }
}

template <typename T, unsigned N>
GPC_HD void restore_lpc64_n (T *s, const int32_t *res, uint32_t n, const int32_t *c,
    unsigned shift)
{
  int64_t k[N];
  uint64_t h[N]; /* a register window, as in restore_lpc32_n */
  for (unsigned j = 0; j < N; j++) {
    k[j] = c[j];
    h[j] = (uint64_t) (int64_t) s[j];
  }
  for (uint32_t i = N; i < n; i++) {
    uint64_t sum = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned j = 0; j < N; j++)
      sum += (uint64_t) k[j] * h[j];
    T v = (T) ((uint64_t) (int64_t) res[i] + (uint64_t) ((int64_t) sum >> shift));
    s[i] = v;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned j = 0; j + 1 < N; j++)
      h[j] = h[j + 1];
    h[N - 1] = (uint64_t) (int64_t) v;
  }
}

/* 24-bit audio at high precision needs 64-bit sums: unrolled as well. */
template <typename T>
GPC_HD void restore_lpc64_any (T *s, const int32_t *res, uint32_t n, const int32_t *c,
    unsigned order, unsigned shift)
{
  switch (order) {
#define GPC_LPC_CASE(N) \
    case N: restore_lpc64_n<T, N> (s, res, n, c, shift); return;
    GPC_LPC_CASE (1) GPC_LPC_CASE (2) GPC_LPC_CASE (3) GPC_LPC_CASE (4)
    GPC_LPC_CASE (5) GPC_LPC_CASE (6) GPC_LPC_CASE (7) GPC_LPC_CASE (8)
    GPC_LPC_CASE (9) GPC_LPC_CASE (10) GPC_LPC_CASE (11) GPC_LPC_CASE (12)
#undef GPC_LPC_CASE
    default: restore_lpc64 (s, res, n, c, order, shift);
  }
}

GPC_HD unsigned ceil_log2 (unsigned v)
{
  unsigned l = 0;
  while ((1u << l) < v)
    l++;
  return l;
}

/* One subframe of n samples at depth bps (1..33) into out. `res` is a
 * scratch of n int32 used for residuals (may alias out when T is int32_t). */
template <typename T>
GPC_HD int decode_subframe (BitReader &br, T *out, int32_t *res, uint32_t n, unsigned bps)
{
  unsigned pad = br.get (1);
  unsigned type = br.get (6);
  unsigned wasted = 0;
  if (br.get (1)) {
    wasted = br.unary (64) + 1;
    if (wasted >= bps)
      return kBadSubframe;
  }
  if (!br.ok ())
    return kNeedMore;
  if (pad)
    return kBadSubframe;
  unsigned sbps = bps - wasted;

  if (type == 0) { /* constant */
    T v = (T) get_signed_bits (br, sbps);
    for (uint32_t i = 0; i < n; i++)
      out[i] = v;
  } else if (type == 1) { /* verbatim */
    if ((size_t) n * sbps > br.bits_left ())
      return kNeedMore;
    for (uint32_t i = 0; i < n; i++)
      out[i] = (T) get_signed_bits (br, sbps);
  } else if (type >= 8 && type <= 12) { /* fixed */
    unsigned order = type - 8;
    if (order > n)
      return kBadSubframe;
    for (unsigned i = 0; i < order; i++)
      out[i] = (T) get_signed_bits (br, sbps);
    int r = decode_residual (br, res, n, order);
    if (r != kOk)
      return r;
    restore_fixed (out, res, n, order);
  } else if (type >= 32) { /* LPC */
    unsigned order = (type & 31) + 1;
    if (order > n)
      return kBadSubframe;
    for (unsigned i = 0; i < order; i++)
      out[i] = (T) get_signed_bits (br, sbps);
    unsigned prec = br.get (4) + 1;
    int shift = br.get_signed (5);
    if (prec == 16 || shift < 0)
      return kBadSubframe;
    int32_t c[kMaxLpcOrder];
    for (unsigned j = 0; j < order; j++)
      c[order - 1 - j] = br.get_signed (prec);
    if (!br.ok ())
      return kNeedMore;
    int r = decode_residual (br, res, n, order);
    if (r != kOk)
      return r;
    if (sbps + prec + ceil_log2 (order) <= 32)
      restore_lpc32_any (out, res, n, c, order, (unsigned) shift);
    else
      restore_lpc64_any (out, res, n, c, order, (unsigned) shift);
  } else {
    return kBadSubframe;
  }
  if (!br.ok ())
    return kNeedMore;
  if (wasted)
    for (uint32_t i = 0; i < n; i++)
      out[i] = (T) ((uint64_t) out[i] << wasted);
  return kOk;
}

/* ------------------------------------------------------------------------ */
/* Whole frame                                                               */

/* Buffers one frame decodes into. planes: channels x stride int32 (final,
 * decorrelated samples). side64: blocksize int64, used only by 32-bit
 * stereo-decorrelated frames whose side channel needs 33 bits. */
struct FrameBuffers {
  int32_t *planes;
  size_t stride;
  int64_t *side64;
};

GPC_HD bool frame_needs_side64 (const FrameHeader &h)
{
  return h.bps == 32 && h.assignment >= kLeftSide;
}

/* Decodes the frame whose header `h` was parsed from data[0..]; `size` may
 * extend past the frame. On success *frame_bytes is the frame's length
 * (including its CRC-16, which has been checked). `crc_checked`: the caller
 * (the frame locator) already found that data[0..size) is exactly a frame
 * whose CRC-16 checks; then the decoded length must equal size instead. */
GPC_HD int decode_frame (const uint8_t *data, size_t size, const FrameHeader &h,
    const FrameBuffers &fb, size_t *frame_bytes, bool crc_checked = false)
{
  BitReader br (data, size);
  br.pos = (size_t) h.header_bytes * 8;
  uint32_t n = h.blocksize;
  unsigned side_ch = h.assignment == kSideRight ? 0 : 1;
  bool wide = frame_needs_side64 (h);
  for (unsigned ch = 0; ch < h.channels; ch++) {
    bool is_side = h.assignment >= kLeftSide && ch == side_ch;
    unsigned bps = h.bps + (is_side ? 1 : 0);
    int32_t *plane = fb.planes + ch * fb.stride;
    int r;
    if (is_side && wide) {
      /* residuals go to the plane, which is free until decorrelation */
      r = decode_subframe<int64_t> (br, fb.side64, plane, n, bps);
    } else {
      r = decode_subframe<int32_t> (br, plane, plane, n, bps);
    }
    if (r != kOk)
      return r;
  }
  br.byte_align ();
  br.skip (16);
  if (!br.ok ())
    return kNeedMore;
  size_t fsize = br.byte_pos ();
  if (crc_checked ? fsize != size : crc16 (data, fsize) != 0)
    return kBadCrc16;
  *frame_bytes = fsize;

  if (h.assignment >= kLeftSide) {
    int32_t *a = fb.planes;
    int32_t *b = fb.planes + fb.stride;
    for (uint32_t i = 0; i < n; i++) {
      int64_t side = wide ? fb.side64[i] : (int64_t) (h.assignment == kSideRight ? a[i] : b[i]);
      int64_t l, r;
      if (h.assignment == kLeftSide) {
        l = a[i];
        r = l - side;
      } else if (h.assignment == kSideRight) {
        r = b[i];
        l = side + r;
      } else {
        int64_t mid = ((int64_t) a[i] * 2) | (side & 1);
        l = (mid + side) >> 1;
        r = (mid - side) >> 1;
      }
      a[i] = (int32_t) l;
      b[i] = (int32_t) r;
    }
  }
  return kOk;
}

/* ------------------------------------------------------------------------ */
/* Output                                                                    */

/* Stores sample i of channel ch (value v at depth bps) interleaved in the
 * output format, shifted to the container's depth as flacdec does. */
GPC_HD void store_sample (void *out, size_t index, OutFormat f, unsigned shift, int32_t v)
{
  uint32_t u = (uint32_t) v << shift;
  switch (f) {
    case kS8: ((int8_t *) out)[index] = (int8_t) u; break;
    case kS16: ((int16_t *) out)[index] = (int16_t) u; break;
    default: ((int32_t *) out)[index] = (int32_t) u; break;
  }
}

template <typename C>
GPC_HD void interleave_as (const FrameBuffers &fb, unsigned channels, uint32_t n,
    unsigned shift, C *out)
{
  for (unsigned ch = 0; ch < channels; ch++) {
    const int32_t *src = fb.planes + ch * fb.stride;
    C *dst = out + ch;
    for (uint32_t i = 0; i < n; i++)
      dst[(size_t) i * channels] = (C) ((uint32_t) src[i] << shift);
  }
}

/* Writes n decoded samples of each channel interleaved into out. */
GPC_HD void interleave (const FrameBuffers &fb, unsigned channels, uint32_t n,
    OutFormat f, unsigned bps, void *out)
{
  unsigned shift = out_format_depth (f) - bps;
  if (f == kS8)
    interleave_as (fb, channels, n, shift, (int8_t *) out);
  else if (f == kS16)
    interleave_as (fb, channels, n, shift, (int16_t *) out);
  else
    interleave_as (fb, channels, n, shift, (int32_t *) out);
}

} // namespace flac
} // namespace gpc
