/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-libvmaf.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

namespace gpc_bench {

namespace {

bool
write_planes (const std::vector<std::vector<uint16_t>> &planes, unsigned bits,
    const std::string &path)
{
  FILE *f = fopen (path.c_str (), "wb");
  if (!f)
    return false;
  bool ok = true;
  for (const std::vector<uint16_t> &p : planes) {
    if (bits == 8) {
      std::vector<uint8_t> b (p.begin (), p.end ());
      ok = ok && fwrite (b.data (), 1, b.size (), f) == b.size ();
    } else {
      std::vector<uint8_t> b (p.size () * 2);
      for (size_t i = 0; i < p.size (); i++) {
        b[2 * i] = (uint8_t) p[i];
        b[2 * i + 1] = (uint8_t) (p[i] >> 8);
      }
      ok = ok && fwrite (b.data (), 1, b.size (), f) == b.size ();
    }
  }
  return fclose (f) == 0 && ok;
}

} // namespace

bool
write_clip_files (const VmafBenchClip &clip, const std::string &dir, std::string *ref,
    std::string *dist)
{
  char name[64];
  snprintf (name, sizeof name, "/%ux%u-%u", clip.width, clip.height, clip.bits);
  *ref = dir + name + "-ref.raw";
  *dist = dir + name + "-dist.raw";
  return write_planes (clip.ref, clip.bits, *ref) && write_planes (clip.dist, clip.bits, *dist);
}

namespace {

char **
runner_argv (std::vector<std::string> &args, std::vector<char *> &argv)
{
  for (std::string &a : args)
    argv.push_back (&a[0]);
  argv.push_back (nullptr);
  return argv.data ();
}

std::vector<std::string>
runner_args (const std::string &runner, const VmafBenchClip &clip, const std::string &ref,
    const std::string &dist, unsigned frames)
{
  return { runner, std::to_string (clip.width), std::to_string (clip.height),
    std::to_string (clip.bits), std::to_string (frames), ref, dist };
}

} // namespace

int
selftest_libvmaf_cuda (const std::string &runner, const VmafBenchClip &clip,
    const std::string &ref, const std::string &dist, unsigned frames)
{
  std::vector<std::string> args = runner_args (runner, clip, ref, dist, frames);
  args.push_back ("--cuda-selftest");
  std::vector<char *> argv;
  gint status = 0;
  GError *error = NULL;
  fflush (stdout);
  if (!g_spawn_sync (NULL, runner_argv (args, argv), NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL,
          NULL, &status, &error)) {
    printf ("libvmaf CUDA self-test: %s\n", error->message);
    g_error_free (error);
    return -1;
  }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

LibvmafResult
run_libvmaf (const std::string &runner, const VmafBenchClip &clip, const std::string &ref,
    const std::string &dist, unsigned frames, unsigned threads, bool cuda, unsigned scores)
{
  LibvmafResult r;
  std::vector<std::string> args = runner_args (runner, clip, ref, dist, frames);
  args.push_back ("--scores");
  args.push_back (std::to_string (scores));
  if (threads) {
    args.push_back ("--threads");
    args.push_back (std::to_string (threads));
  }
  if (cuda)
    args.push_back ("--cuda");
  std::vector<char *> argv;
  gchar *out = NULL, *err = NULL;
  gint status = 0;
  GError *error = NULL;
  if (!g_spawn_sync (NULL, runner_argv (args, argv), NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
          &err, &status, &error)) {
    r.why = error->message;
    g_error_free (error);
    return r;
  }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0) {
    r.why = WIFEXITED (status) && WEXITSTATUS (status) == 3 ? g_strstrip (err)
        : std::string ("failed: ") + g_strstrip (err);
    /* libvmaf names a failed CUDA call on stdout ("code: N; description:
     * NAME") before its assertion fails on stderr. */
    const char *code = g_strrstr (out, "code: ");
    if (code)
      r.why += " (" + std::string (code, strcspn (code, "\n")) + ")";
  } else {
    gchar **lines = g_strsplit (out, "\n", -1);
    for (gchar **p = lines; *p; p++) {
      char version[64];
      double ms, s;
      unsigned i;
      if (sscanf (*p, "libvmaf %63s %*s threads %*u frames %*u seconds %*f ms_per_frame %lf",
              version, &ms) == 2) {
        r.version = version;
        r.ms_per_frame = ms;
        r.ran = true;
      } else if (sscanf (*p, "score %u %lf", &i, &s) == 2 && i == r.scores.size ()) {
        r.scores.push_back (s);
      }
    }
    g_strfreev (lines);
    if (!r.ran)
      r.why = "no timing in the runner's output";
  }
  g_free (out);
  g_free (err);
  return r;
}

} // namespace gpc_bench
