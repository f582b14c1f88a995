/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Helpers of the ProRes tests: reading files, pulling the ProRes frames out
 * of the small QuickTime files that Debian's ffmpeg writes, and the
 * checksums.txt written by tests/media/prores/generate.sh.
 */
#pragma once

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

namespace prores_test {

static inline bool read_file (const std::string &path, std::vector<uint8_t> *out)
{
  FILE *f = fopen (path.c_str (), "rb");
  if (!f)
    return false;
  out->clear ();
  uint8_t buf[65536];
  size_t n;
  while ((n = fread (buf, 1, sizeof buf, f)) > 0)
    out->insert (out->end (), buf, buf + n);
  fclose (f);
  return true;
}

static inline uint64_t rb (const uint8_t *p, int n)
{
  uint64_t v = 0;
  for (int i = 0; i < n; i++)
    v = (v << 8) | p[i];
  return v;
}

struct Span {
  size_t offset, size;
};

/* ffmpeg's mov muxer stores the frames back to back in the 'mdat' box and
 * every ProRes frame starts with its own size and 'icpf': walking the
 * top-level boxes and then the frames is enough (no sample tables needed). */
static inline bool mov_prores_frames (const std::vector<uint8_t> &d, std::vector<Span> *frames)
{
  size_t pos = 0;
  frames->clear ();
  while (pos + 8 <= d.size ()) {
    uint64_t size = rb (&d[pos], 4);
    size_t hdr = 8;
    if (size == 1) {
      if (pos + 16 > d.size ())
        return false;
      size = rb (&d[pos + 8], 8);
      hdr = 16;
    } else if (size == 0) {
      size = d.size () - pos;
    }
    if (size < hdr || pos + size > d.size ())
      return false;
    if (!memcmp (&d[pos + 4], "mdat", 4)) {
      size_t f = pos + hdr, end = pos + size;
      while (f + 8 <= end) {
        uint32_t n = (uint32_t) rb (&d[f], 4);
        if (n < 8 || f + n > end || memcmp (&d[f + 4], "icpf", 4))
          return false;
        frames->push_back (Span { f, n });
        f += n;
      }
    }
    pos += size;
  }
  return !frames->empty ();
}

struct VectorInfo {
  std::string file, fourcc, pix_fmt, field_order;
  uint32_t width = 0, height = 0, frames = 0;
  std::vector<std::vector<std::string>> md5;   /* [frame][plane], ffmpeg's default (x86 SIMD) */
  std::vector<std::vector<std::string>> md5_c; /* same with -cpuflags 0 (FFmpeg's C code) */
};

static inline bool read_checksums (const std::string &path, std::vector<VectorInfo> *out)
{
  FILE *f = fopen (path.c_str (), "r");
  if (!f)
    return false;
  char line[1024];
  while (fgets (line, sizeof line, f)) {
    char a[256], b[64], c[64], e[64];
    unsigned w, h, n, idx;
    if (sscanf (line, "vector %255s %63s %63s %u %u %u %63s", a, b, c, &w, &h, &n, e) == 7) {
      VectorInfo v;
      v.file = a, v.fourcc = b, v.pix_fmt = c, v.field_order = e;
      v.width = w, v.height = h, v.frames = n;
      out->push_back (v);
    } else if ((sscanf (line, "frame %u", &idx) == 1 || sscanf (line, "cframe %u", &idx) == 1) &&
        !out->empty ()) {
      const bool c = line[0] == 'c';
      std::vector<std::string> sums;
      char *p = strchr (line + (c ? 7 : 6), ' ');
      char tok[64];
      int used;
      while (p && sscanf (p, " %63s%n", tok, &used) == 1) {
        sums.push_back (tok);
        p += used;
      }
      (c ? out->back ().md5_c : out->back ().md5).push_back (sums);
    }
  }
  fclose (f);
  return true;
}

} // namespace prores_test
