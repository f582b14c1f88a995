// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Reads one luma sample from a plane stored as raw bytes in a uint[] storage
// buffer, for every luma packing GStreamer's planar / semi-planar YUV and GRAY
// formats use. Rows start on 4-byte boundaries. Mirrors
// gst/vmafmotion/vmaf-motion-layout.cpp (luma_fetch). PACKING is a
// specialization constant, so each pipeline keeps one branch only.
//
// LUMA_FETCH4_FUNCTIONS adds name##_fetch4: four neighbouring samples from
// whole words, for kernels that read every sample of a row once.

#define LUMA_U8      0u  // one byte per sample
#define LUMA_U16LE   1u  // 16-bit little-endian container, value >> SHIFT
#define LUMA_U16BE   2u  // 16-bit big-endian container, value >> SHIFT
#define LUMA_10LE32  3u  // three 10-bit samples per 32-bit LE word
#define LUMA_10LE40  4u  // four 10-bit samples per 5 bytes, LE bit order

#define LUMA_FETCH_FUNCTIONS(name, words)                                      \
  uint name##_byte (uint off)                                                  \
  {                                                                            \
    return (words[off >> 2] >> ((off & 3u) * 8u)) & 0xffu;                     \
  }                                                                            \
  int name##_fetch (uint row, uint x)                                          \
  {                                                                            \
    uint base = row >> 2;                                                      \
    if (PACKING == LUMA_U8)                                                    \
      return int ((words[base + (x >> 2)] >> ((x & 3u) * 8u)) & 0xffu);       \
    if (PACKING == LUMA_U16LE)                                                 \
      return int (((words[base + (x >> 1)] >> ((x & 1u) * 16u)) & 0xffffu)     \
          >> SHIFT);                                                        \
    if (PACKING == LUMA_U16BE) {                                               \
      uint v = (words[base + (x >> 1)] >> ((x & 1u) * 16u)) & 0xffffu;         \
      return int ((((v & 0xffu) << 8) | (v >> 8)) >> SHIFT);                \
    }                                                                          \
    if (PACKING == LUMA_10LE32)                                                \
      return int ((words[base + x / 3u] >> ((x % 3u) * 10u)) & 0x3ffu);        \
    /* LUMA_10LE40 */                                                          \
    uint bit = (x & 3u) * 10u;                                                 \
    uint off = row + (x >> 2) * 5u + (bit >> 3);                               \
    uint v = name##_byte (off) | (name##_byte (off + 1u) << 8);                \
    return int ((v >> (bit & 7u)) & 0x3ffu);                                   \
  }

// Samples x .. x + 3 of a row, x a multiple of 4 and x + 3 inside the row:
// one or two word loads (the 10-bit packings' groups of four start on byte
// 5 x / 4, LUMA_10LE32's on no boundary: per sample). Needs
// LUMA_FETCH_FUNCTIONS (name, words).
#define LUMA_FETCH4_FUNCTIONS(name, words)                                     \
  ivec4 name##_fetch4 (uint row, uint x)                                       \
  {                                                                            \
    uint base = row >> 2;                                                      \
    if (PACKING == LUMA_U8) {                                                  \
      uint w = words[base + (x >> 2)];                                         \
      return ivec4 (uvec4 (w & 0xffu, (w >> 8) & 0xffu, (w >> 16) & 0xffu,    \
          w >> 24));                                                           \
    }                                                                          \
    if (PACKING == LUMA_U16LE || PACKING == LUMA_U16BE) {                      \
      uint w0 = words[base + (x >> 1)], w1 = words[base + (x >> 1) + 1u];      \
      if (PACKING == LUMA_U16BE) {                                             \
        w0 = ((w0 & 0x00ff00ffu) << 8) | ((w0 >> 8) & 0x00ff00ffu);            \
        w1 = ((w1 & 0x00ff00ffu) << 8) | ((w1 >> 8) & 0x00ff00ffu);            \
      }                                                                        \
      return ivec4 (uvec4 (w0 & 0xffffu, w0 >> 16, w1 & 0xffffu, w1 >> 16)    \
          >> SHIFT);                                                           \
    }                                                                          \
    if (PACKING == LUMA_10LE40) {                                              \
      uint off = row + (x >> 2) * 5u, s = (off & 3u) * 8u;                     \
      uint w0 = words[off >> 2], w1 = words[(off >> 2) + 1u];                  \
      /* The group's 40 bits: lo, then hi's low byte. */                       \
      uint lo = s == 0u ? w0 : (w0 >> s) | (w1 << (32u - s));                  \
      uint hi = w1 >> s;                                                       \
      return ivec4 (uvec4 (lo & 0x3ffu, (lo >> 10) & 0x3ffu,                   \
          (lo >> 20) & 0x3ffu, ((lo >> 30) | (hi << 2)) & 0x3ffu));            \
    }                                                                          \
    return ivec4 (name##_fetch (row, x), name##_fetch (row, x + 1u),           \
        name##_fetch (row, x + 2u), name##_fetch (row, x + 3u));               \
  }
