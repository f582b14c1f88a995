// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Reads one luma sample from a plane stored as raw bytes in a uint[] storage
// buffer, for every luma packing GStreamer's planar / semi-planar YUV and GRAY
// formats use. Rows start on 4-byte boundaries. Mirrors
// gst/vmafmotion/vmaf-motion-layout.cpp (luma_fetch). PACKING is a
// specialization constant, so each pipeline keeps one branch only.

#define LUMA_U8      0u  // one byte per sample
#define LUMA_U16LE   1u  // 16-bit little-endian container, value >> shift
#define LUMA_U16BE   2u  // 16-bit big-endian container, value >> shift
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
          >> pc.shift);                                                        \
    if (PACKING == LUMA_U16BE) {                                               \
      uint v = (words[base + (x >> 1)] >> ((x & 1u) * 16u)) & 0xffffu;         \
      return int ((((v & 0xffu) << 8) | (v >> 8)) >> pc.shift);                \
    }                                                                          \
    if (PACKING == LUMA_10LE32)                                                \
      return int ((words[base + x / 3u] >> ((x % 3u) * 10u)) & 0x3ffu);        \
    /* LUMA_10LE40 */                                                          \
    uint bit = (x & 3u) * 10u;                                                 \
    uint off = row + (x >> 2) * 5u + (bit >> 3);                               \
    uint v = name##_byte (off) | (name##_byte (off + 1u) << 8);                \
    return int ((v >> (bit & 7u)) & 0x3ffu);                                   \
  }
