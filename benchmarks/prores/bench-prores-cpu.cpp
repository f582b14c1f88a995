/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Decoding speed of the CPU reference decoder (single thread), to put the
 * GPU and FFmpeg numbers in context. Usage:
 *   bench-prores-cpu clip.mov [repeats]
 * Clips: benchmarks/prores/make-clips.sh. Not run by meson test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <string>
#include <vector>

#include "prores-decoder.h"

using namespace gpc::prores;

static double now ()
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ffmpeg's mov muxer writes the frames back to back in 'mdat'. */
static bool frames_of_mov (const std::vector<uint8_t> &d, std::vector<std::pair<size_t, size_t>> *out)
{
  size_t pos = 0;
  while (pos + 8 <= d.size ()) {
    uint64_t size = (uint64_t) d[pos] << 24 | d[pos + 1] << 16 | d[pos + 2] << 8 | d[pos + 3];
    size_t hdr = 8;
    if (size == 1 && pos + 16 <= d.size ()) {
      size = 0;
      for (int i = 0; i < 8; i++)
        size = size << 8 | d[pos + 8 + i];
      hdr = 16;
    } else if (size == 0) {
      size = d.size () - pos;
    }
    if (size < hdr || pos + size > d.size ())
      return false;
    if (!memcmp (&d[pos + 4], "mdat", 4)) {
      for (size_t f = pos + hdr; f + 8 <= pos + size;) {
        size_t n = (size_t) d[f] << 24 | d[f + 1] << 16 | d[f + 2] << 8 | d[f + 3];
        if (n < 8 || f + n > pos + size || memcmp (&d[f + 4], "icpf", 4))
          return false;
        out->push_back ({ f, n });
        f += n;
      }
    }
    pos += size;
  }
  return !out->empty ();
}

int main (int argc, char **argv)
{
  if (argc < 2) {
    fprintf (stderr, "usage: %s clip.mov [repeats]\n", argv[0]);
    return 2;
  }
  const int repeats = argc > 2 ? atoi (argv[2]) : 1;
  FILE *f = fopen (argv[1], "rb");
  if (!f) {
    perror (argv[1]);
    return 1;
  }
  std::vector<uint8_t> data;
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread (buf, 1, sizeof buf, f)) > 0)
    data.insert (data.end (), buf, buf + n);
  fclose (f);
  std::vector<std::pair<size_t, size_t>> frames;
  if (!frames_of_mov (data, &frames)) {
    fprintf (stderr, "%s: no ProRes frames found\n", argv[1]);
    return 1;
  }
  DecodeOptions opts;
  DecodedFrame out;
  std::string err;
  const double t0 = now ();
  int decoded = 0;
  for (int r = 0; r < repeats; r++)
    for (const auto &fr : frames) {
      if (decode_frame (data.data () + fr.first, fr.second, opts, &out, &err) != Status::kOk) {
        fprintf (stderr, "frame %d: %s\n", decoded, err.c_str ());
        return 1;
      }
      decoded++;
    }
  const double dt = now () - t0;
  printf ("%s: %dx%d %s, %d frames in %.2f s: %.1f fps (CPU reference, 1 thread)\n", argv[1],
      out.width, out.height, out.pix_fmt ().c_str (), decoded, dt, decoded / dt);
  return 0;
}
