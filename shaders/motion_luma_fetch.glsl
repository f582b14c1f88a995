// gst-gpucodecs
// SPDX-License-Identifier: LGPL-2.1-or-later
//
// Reads one luma sample from a plane stored as raw bytes in a uint[] storage
// buffer, for every luma packing GStreamer's planar / semi-planar YUV and GRAY
// formats use. Mirrors gst/vmafmotion/vmaf-motion-layout.cpp (luma_fetch).

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
  uint name##_u16 (uint off)                                                   \
  {                                                                            \
    return (off & 3u) == 3u ?                                                  \
        name##_byte (off) | (name##_byte (off + 1u) << 8) :                    \
        (words[off >> 2] >> ((off & 3u) * 8u)) & 0xffffu;                      \
  }                                                                            \
  int name##_fetch (uint row, uint x)                                          \
  {                                                                            \
    switch (pc.packing) {                                                      \
      case LUMA_U8:                                                            \
        return int (name##_byte (row + x));                                    \
      case LUMA_U16LE:                                                         \
        return int (name##_u16 (row + 2u * x) >> pc.shift);                    \
      case LUMA_U16BE: {                                                       \
        uint v = name##_u16 (row + 2u * x);                                    \
        return int ((((v & 0xffu) << 8) | (v >> 8)) >> pc.shift);              \
      }                                                                        \
      case LUMA_10LE32: {                                                      \
        uint off = row + (x / 3u) * 4u;                                        \
        uint word = name##_u16 (off) | (name##_u16 (off + 2u) << 16);          \
        return int ((word >> ((x % 3u) * 10u)) & 0x3ffu);                      \
      }                                                                        \
      default: { /* LUMA_10LE40 */                                             \
        uint bit = (x & 3u) * 10u;                                             \
        uint off = row + (x >> 2) * 5u + (bit >> 3);                           \
        uint v = name##_u16 (off);                                             \
        return int ((v >> (bit & 7u)) & 0x3ffu);                               \
      }                                                                        \
    }                                                                          \
  }
