/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The CPU reference ALF must reproduce every post-ALF picture of
 * ../shared/vectors/vvc-alf bit-exactly from its pre-ALF picture and JSON
 * parameters. Prints one line per vector.
 */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpc-test.h"
#include "vvcalf-json.h"
#include "vvcalf-test-util.h"

using namespace vvcalf_test;

static bool run_vector (const std::string &dir, const std::string &name)
{
  const std::string base = dir + "/" + name;
  gpc::VvcAlfParams params;
  std::string err;
  if (!gpc::vvc_alf_params_from_json_file ((base + ".json").c_str (), params, err)) {
    printf ("FAIL %-32s parameters: %s\n", name.c_str (), err.c_str ());
    return false;
  }
  std::string chk = gpc::vvc_alf_params_check (params);
  if (!chk.empty ()) {
    printf ("FAIL %-32s derived parameters: %s\n", name.c_str (), chk.c_str ());
    return false;
  }
  std::vector<uint8_t> raw;
  Picture pre, post, out;
  if (!read_zstd (base + ".pre.yuv.zst", raw) || !load_raw (raw, params.pic, pre)) {
    printf ("FAIL %-32s cannot read pre picture (%zu bytes)\n", name.c_str (), raw.size ());
    return false;
  }
  if (!read_zstd (base + ".post.yuv.zst", raw) || !load_raw (raw, params.pic, post)) {
    printf ("FAIL %-32s cannot read post picture (%zu bytes)\n", name.c_str (), raw.size ());
    return false;
  }
  out.alloc (params.pic, 0);
  apply (params, pre, out);

  static const char *pn[3] = { "Y", "Cb", "Cr" };
  bool ok = true;
  std::string detail;
  for (int i = 0; i < pre.planes (); i++) {
    long bad = 0, changed = 0;
    int fx = -1, fy = -1;
    for (int y = 0; y < pre.height[i]; y++) {
      for (int x = 0; x < pre.width[i]; x++) {
        if (post.at (i, x, y) != pre.at (i, x, y))
          changed++;
        if (out.at (i, x, y) != post.at (i, x, y)) {
          if (!bad) {
            fx = x;
            fy = y;
          }
          bad++;
        }
      }
    }
    char buf[160];
    if (bad) {
      snprintf (buf, sizeof (buf), " %s:%ld-mismatches(first %d,%d got %d want %d)", pn[i], bad, fx,
          fy, out.at (i, fx, fy), post.at (i, fx, fy));
      ok = false;
    } else {
      snprintf (buf, sizeof (buf), " %s:ok(%ld changed)", pn[i], changed);
    }
    detail += buf;
  }
  printf ("%s %-32s %dx%d %s %d-bit CTB %d:%s\n", ok ? "PASS" : "FAIL", name.c_str (),
      params.pic.width, params.pic.height,
      (const char *[]){ "400", "420", "422", "444" }[params.pic.chroma_format],
      params.pic.bit_depth, params.pic.ctb_size, detail.c_str ());
  fflush (stdout);
  return ok;
}

int main ()
{
  std::string dir = gpc_test::vector_path ("vvc-alf");
  if (dir.empty ())
    gpc_test::skip ("vectors folder %s/vvc-alf is absent", gpc_test::vectors_dir ().c_str ());
  if (!have_zstd ())
    gpc_test::skip ("the zstd command-line tool is not installed");

  std::vector<std::string> names;
  if (DIR *d = opendir (dir.c_str ())) {
    while (dirent *e = readdir (d)) {
      std::string f = e->d_name;
      if (f.size () > 5 && f.compare (f.size () - 5, 5, ".json") == 0)
        names.push_back (f.substr (0, f.size () - 5));
    }
    closedir (d);
  }
  std::sort (names.begin (), names.end ());
  if (names.empty ())
    gpc_test::skip ("no vectors in %s", dir.c_str ());

  int failed = 0;
  for (const std::string &n : names)
    failed += !run_vector (dir, n);
  printf ("%zu vectors, %zu passed, %d failed\n", names.size (), names.size () - failed, failed);
  return failed ? 1 : 0;
}
