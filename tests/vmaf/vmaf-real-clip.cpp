/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Writes a real clip's luma planes (vmaf-clips.h) for libvmaf:
 *   vmaf-real-clip NAME DIR
 * makes DIR/ref.y and DIR/dist.y, all frames one after the other, one byte
 * per sample at 8 bits, else two little-endian, and prints
 * "WIDTH HEIGHT BPC FRAMES". tests/media/vmaf/generate.sh --real runs it with
 * GPC_MEDIA_DIR and GPC_VECTORS_DIR set.
 */
#include <stdio.h>

#include <string>

#include "vmaf-clips.h"

static bool
write_planes (const std::string &path, const VmafClip &clip,
    const std::vector<std::vector<uint16_t>> &planes)
{
  FILE *f = fopen (path.c_str (), "wb");
  if (!f)
    return false;
  for (const std::vector<uint16_t> &plane : planes)
    for (uint16_t v : plane) {
      if (clip.bpc > 8)
        fputc (v & 0xff, f), fputc (v >> 8, f);
      else
        fputc (v, f);
    }
  return fclose (f) == 0;
}

int
main (int argc, char **argv)
{
  if (argc != 3) {
    fprintf (stderr, "usage: %s NAME DIR\n", argv[0]);
    return 2;
  }
  VmafClip clip;
  if (!vmaf_real_clip_planes (argv[1], &clip))
    return 1;
  const std::string dir = argv[2];
  if (!write_planes (dir + "/ref.y", clip, clip.ref) || !write_planes (dir + "/dist.y", clip, clip.dist)) {
    fprintf (stderr, "cannot write into %s\n", dir.c_str ());
    return 1;
  }
  printf ("%d %d %d %d\n", clip.width, clip.height, clip.bpc, clip.frames);
  return 0;
}
