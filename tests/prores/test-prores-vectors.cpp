/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Bit-exactness of the CPU reference decoder against Debian's FFmpeg: every
 * committed vector (tests/media/prores) is decoded and the MD5 of every plane
 * of every frame must equal that of "ffmpeg -c:v prores -f rawvideo", with
 * the x86 IDCT flavour against ffmpeg's default (SIMD) decode and with the C
 * flavour against "-cpuflags 0". On a mismatch, when ffmpeg is installed,
 * the test decodes the vector with it and prints the first differing sample
 * and the largest difference.
 */
#include <string.h>

#include <glib.h>

#include <string>
#include <vector>

#include "gpc-test.h"
#include "prores-decoder.h"
#include "prores-test-util.h"

using namespace gpc::prores;
using namespace prores_test;

static std::string plane_md5 (const std::vector<uint16_t> &p)
{
  std::vector<uint8_t> le (p.size () * 2);
  for (size_t i = 0; i < p.size (); i++) {
    le[2 * i] = (uint8_t) p[i];
    le[2 * i + 1] = (uint8_t) (p[i] >> 8);
  }
  gchar *s = g_compute_checksum_for_data (G_CHECKSUM_MD5, le.data (), le.size ());
  std::string r = s;
  g_free (s);
  return r;
}

/* Diagnostic on mismatch: compare with ffmpeg's own samples. */
static void explain_mismatch (const std::string &path, bool c_flavor, uint32_t frame_no,
    const DecodedFrame &f)
{
  if (system ("ffmpeg -version > /dev/null 2>&1") != 0) {
    printf ("    (install ffmpeg to see the first differing sample)\n");
    return;
  }
  std::string cmd = std::string ("ffmpeg -nostdin -v error ") + (c_flavor ? "-cpuflags 0 " : "") +
      "-c:v prores -i '" + path + "' -f rawvideo -";
  FILE *p = popen (cmd.c_str (), "r");
  if (!p)
    return;
  std::vector<uint8_t> raw;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread (buf, 1, sizeof buf, p)) > 0)
    raw.insert (raw.end (), buf, buf + n);
  pclose (p);
  size_t frame_bytes = 0;
  for (uint32_t pl = 0; pl < f.num_planes; pl++)
    frame_bytes += f.plane[pl].size () * 2;
  size_t off = frame_bytes * frame_no;
  if (raw.size () < off + frame_bytes) {
    printf ("    ffmpeg output too short (%zu bytes)\n", raw.size ());
    return;
  }
  for (uint32_t pl = 0; pl < f.num_planes; pl++) {
    int maxdiff = 0;
    long first = -1;
    for (size_t i = 0; i < f.plane[pl].size (); i++) {
      int ref = raw[off + 2 * i] | raw[off + 2 * i + 1] << 8;
      int d = abs (ref - (int) f.plane[pl][i]);
      if (d && first < 0) {
        first = (long) i;
        printf ("    plane %u: first difference at x=%u y=%u: ffmpeg %d, ours %d\n", pl,
            (unsigned) (i % f.plane_width[pl]), (unsigned) (i / f.plane_width[pl]), ref,
            f.plane[pl][i]);
      }
      if (d > maxdiff)
        maxdiff = d;
    }
    if (first >= 0)
      printf ("    plane %u: max difference %d\n", pl, maxdiff);
    off += f.plane[pl].size () * 2;
  }
}

int main ()
{
  std::string dir = gpc_test::media_dir ();
  if (dir.empty ())
    gpc_test::skip ("GPC_MEDIA_DIR not set");
  dir += "/prores";
  std::vector<VectorInfo> vectors;
  if (!read_checksums (dir + "/checksums.txt", &vectors) || vectors.empty ())
    gpc_test::skip ("no %s/checksums.txt", dir.c_str ());

  int failures = 0, frames_ok = 0;
  for (const VectorInfo &v : vectors) {
    std::string path = dir + "/" + v.file;
    std::vector<uint8_t> data;
    std::vector<Span> frames;
    if (!read_file (path, &data) || !mov_prores_frames (data, &frames)) {
      printf ("FAIL %-36s cannot read frames\n", v.file.c_str ());
      failures++;
      continue;
    }
    if (frames.size () != v.frames || v.md5.size () != v.frames) {
      printf ("FAIL %-36s %zu frames in file, %u expected\n", v.file.c_str (), frames.size (), v.frames);
      failures++;
      continue;
    }
    if (v.md5_c.size () != v.frames) {
      printf ("FAIL %-36s checksums.txt lacks the C-code checksums\n", v.file.c_str ());
      failures++;
      continue;
    }
    bool ok = true;
    std::string detail;
    for (uint32_t k = 0; k < 2 * frames.size () && ok; k++) {
      const uint32_t i = k >> 1;
      const bool c_flavor = k & 1;
      const std::vector<std::string> &expected = c_flavor ? v.md5_c[i] : v.md5[i];
      DecodeOptions opts;
      opts.bit_depth = bit_depth_for_fourcc (v.fourcc.c_str ());
      opts.idct_flavor = c_flavor ? IdctFlavor::kC : IdctFlavor::kX86;
      const uint8_t *fd = data.data () + frames[i].offset;
      ProbeInfo pinfo;
      std::string err;
      if (probe (fd, frames[i].size, &pinfo, &err) != Status::kOk || pinfo.width != v.width ||
          pinfo.height != v.height) {
        printf ("FAIL %-36s probe: %s\n", v.file.c_str (), err.c_str ());
        ok = false;
        break;
      }
      DecodedFrame f;
      Status s = decode_frame (fd, frames[i].size, opts, &f, &err);
      if (s != Status::kOk) {
        printf ("FAIL %-36s frame %u: %s: %s\n", v.file.c_str (), i, status_name (s), err.c_str ());
        ok = false;
        break;
      }
      if (f.pix_fmt () != v.pix_fmt) {
        printf ("FAIL %-36s frame %u: layout %s, ffmpeg %s\n", v.file.c_str (), i,
            f.pix_fmt ().c_str (), v.pix_fmt.c_str ());
        ok = false;
        break;
      }
      for (uint32_t p = 0; p < f.num_planes; p++) {
        if (p >= expected.size () || plane_md5 (f.plane[p]) != expected[p]) {
          printf ("FAIL %-36s frame %u plane %u: MD5 differs from ffmpeg%s\n", v.file.c_str (), i,
              p, c_flavor ? " -cpuflags 0 (C IDCT flavour)" : " (x86 IDCT flavour)");
          explain_mismatch (path, c_flavor, i, f);
          ok = false;
          break;
        }
      }
      if (ok && c_flavor) {
        frames_ok++;
        char buf[128];
        snprintf (buf, sizeof buf, "%s %ux%u %s%s", f.pix_fmt ().c_str (), f.width, f.height,
            f.interlaced ? (f.top_field_first ? "TFF " : "BFF ") : "",
            f.alpha_bits ? (f.alpha_bits == 8 ? "alpha8" : "alpha16") : "");
        detail = buf;
      }
    }
    if (ok)
      printf ("PASS %-36s %u frame(s) bit-exact, x86 and C IDCT (%s)\n", v.file.c_str (), v.frames,
          detail.c_str ());
    else
      failures++;
  }
  printf ("%zu vectors, %d failed, %d frames bit-exact\n", vectors.size (), failures, frames_ok);
  return failures ? 1 : 0;
}
