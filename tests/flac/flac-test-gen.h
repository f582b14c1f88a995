/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Test material made at test time: music-like synthetic PCM (notes with
 * harmonics, vibrato, decays, a little noise; never silence) encoded with
 * Debian's `flac`, and `flac -d` as the reference decoder.
 */
#pragma once

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "flac-test-util.h"
#include "gpc-test.h"

namespace flac_test {

inline bool have_flac_tool ()
{
  return system ("flac --version >/dev/null 2>&1") == 0;
}

/* Interleaved samples at depth bps, values in range. `wide_side`: for
 * 32-bit stereo, stretches of opposite full-scale channels whose side
 * (L - R) needs 33 bits. */
inline std::vector<int32_t> music (gpc_test::Rng &rng, unsigned channels, unsigned bps,
    unsigned rate, size_t frames, bool wide_side = false)
{
  std::vector<int32_t> out (frames * channels);
  double full = ldexp (1.0, (int) bps - 1) - 1;
  double base[8];
  for (unsigned c = 0; c < channels; c++)
    base[c] = 110.0 * pow (2.0, (double) rng.range (0, 36) / 12.0);
  double note_len = 0.05 + (double) rng.range (0, 200) / 1000.0;
  for (size_t i = 0; i < frames; i++) {
    double t = (double) i / rate;
    double note_t = fmod (t, note_len);
    unsigned note = (unsigned) (t / note_len);
    for (unsigned c = 0; c < channels; c++) {
      double f = base[c] * pow (2.0, (double) ((note * 7 + c * 3) % 12) / 12.0);
      double vib = 1.0 + 0.004 * sin (2 * M_PI * 5.5 * t);
      double env = exp (-note_t * 6.0);
      double v = 0.45 * sin (2 * M_PI * f * vib * t) + 0.2 * sin (4 * M_PI * f * t + 0.3) +
          0.1 * sin (6 * M_PI * f * t + 1.1);
      v = v * (0.3 + 0.7 * env);
      v += 0.002 * ((double) rng.bits (16) / 32768.0 - 1.0);
      double s = v * full;
      if (wide_side && channels == 2 && (note % 3) == 1)
        s = (c == 0 ? 1 : -1) * (full - (double) rng.bits (3));
      if (s > full)
        s = full;
      if (s < -full - 1)
        s = -full - 1;
      out[i * channels + c] = (int32_t) lrint (s);
    }
  }
  return out;
}

/* Raw little-endian, (bps+7)/8 bytes a sample: what `flac` reads with
 * --force-raw-format and writes with -d --force-raw-format. */
inline std::vector<uint8_t> to_raw (const std::vector<int32_t> &s, unsigned bps)
{
  unsigned nb = (bps + 7) / 8;
  std::vector<uint8_t> raw (s.size () * nb);
  for (size_t i = 0; i < s.size (); i++)
    for (unsigned b = 0; b < nb; b++)
      raw[i * nb + b] = (uint8_t) ((uint32_t) s[i] >> (8 * b));
  return raw;
}

inline bool write_file (const std::string &path, const std::vector<uint8_t> &d)
{
  FILE *f = fopen (path.c_str (), "wb");
  if (!f)
    return false;
  bool ok = fwrite (d.data (), 1, d.size (), f) == d.size ();
  return fclose (f) == 0 && ok;
}

inline int run (const std::string &cmd)
{
  int r = system (cmd.c_str ());
  if (r != 0)
    printf ("command failed (%d): %s\n", r, cmd.c_str ());
  return r;
}

/* Encodes raw PCM with `flac OPTIONS`; returns false if flac refused. */
inline bool encode (const std::string &raw_path, const std::string &flac_path, unsigned channels,
    unsigned bps, unsigned rate, const std::string &options)
{
  char cmd[2048];
  snprintf (cmd, sizeof cmd,
      "flac -s -f --force-raw-format --endian=little --sign=signed --channels=%u --bps=%u "
      "--sample-rate=%u %s -o '%s' '%s'",
      channels, bps, rate, options.c_str (), flac_path.c_str (), raw_path.c_str ());
  return run (cmd) == 0;
}

inline bool reference_decode (const std::string &flac_path, const std::string &raw_out)
{
  char cmd[2048];
  snprintf (cmd, sizeof cmd,
      "flac -s -f -d --force-raw-format --endian=little --sign=signed -o '%s' '%s'",
      raw_out.c_str (), flac_path.c_str ());
  return run (cmd) == 0;
}

/* AIFF (big-endian, samples left-justified in (bps+7)/8 bytes): flac reads
 * any depth from it, which raw input does not allow (8/16/24/32 only). */
inline bool write_aiff (const std::string &path, const std::vector<int32_t> &s, unsigned channels,
    unsigned bps, unsigned rate)
{
  unsigned nb = (bps + 7) / 8;
  size_t frames = s.size () / channels;
  std::vector<uint8_t> d;
  auto be = [&] (uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++)
      d.push_back ((uint8_t) (v >> (8 * (n - 1 - i))));
  };
  size_t ssnd = 8 + s.size () * nb;
  d.insert (d.end (), { 'F', 'O', 'R', 'M' });
  be (4 + 8 + 18 + 8 + ssnd, 4);
  d.insert (d.end (), { 'A', 'I', 'F', 'F', 'C', 'O', 'M', 'M' });
  be (18, 4);
  be (channels, 2);
  be (frames, 4);
  be (bps, 2);
  /* sample rate, 80-bit extended: exponent and 64-bit mantissa */
  int e = 0;
  while ((rate >> e) > 1)
    e++;
  be (16383 + e, 2);
  be ((uint64_t) rate << (63 - e), 8);
  d.insert (d.end (), { 'S', 'S', 'N', 'D' });
  be (ssnd, 4);
  be (0, 4);
  be (0, 4);
  for (int32_t v : s)
    be ((uint64_t) ((uint32_t) v << (nb * 8 - bps)) & ((nb == 4) ? 0xffffffffull : ((1ull << (nb * 8)) - 1)), nb);
  return write_file (path, d);
}

inline bool encode_aiff (const std::string &aiff, const std::string &flac_path, const std::string &options)
{
  return run ("flac -s -f " + options + " -o '" + flac_path + "' '" + aiff + "'") == 0;
}

/* The scratch folders this process made, removed when it exits (by that
 * process only: gst-check's forked test cases exit too). */
struct ScratchDirs {
  pid_t owner = getpid ();
  std::vector<std::string> dirs;
};

inline ScratchDirs &scratch_dirs ()
{
  static ScratchDirs s;
  return s;
}

inline void remove_scratch_dirs ()
{
  ScratchDirs &s = scratch_dirs ();
  if (getpid () != s.owner)
    return;
  for (const std::string &d : s.dirs)
    if (system (("rm -rf '" + d + "'").c_str ()) != 0)
      fprintf (stderr, "could not remove %s\n", d.c_str ());
}

/* A scratch folder of this process (under the build dir's cwd), removed at
 * exit. Its own: meson runs a test program's entries (a test and its -leaks
 * run) at once, and files they shared were rewritten under each other.
 * With GPC_FLAC_SCRATCH set (tools/stress.sh, whose runs take turns and
 * then play the damaged files), $GPC_FLAC_SCRATCH/NAME instead, kept. */
inline std::string scratch_dir (const char *name)
{
  if (const char *keep = getenv ("GPC_FLAC_SCRATCH")) {
    std::string d = std::string (keep) + "/" + name;
    if (system (("mkdir -p '" + d + "'").c_str ()) != 0)
      return ".";
    return d;
  }
  std::string tmpl = std::string ("flac-scratch-") + name + "-XXXXXX";
  std::vector<char> buf (tmpl.begin (), tmpl.end ());
  buf.push_back ('\0');
  if (!mkdtemp (buf.data ()))
    return ".";
  ScratchDirs &s = scratch_dirs ();
  if (s.dirs.empty ())
    atexit (remove_scratch_dirs);
  s.dirs.push_back (buf.data ());
  return s.dirs.back ();
}

} // namespace flac_test
