/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every file of the FLAC decoder testbench "subset" group must decode
 * without frame errors and with the MD5 signature of its STREAMINFO.
 */
#include <dirent.h>
#include <stdio.h>

#include <algorithm>
#include <string>
#include <vector>

#include "flac-md5.h"
#include "flac-stream-decoder.h"
#include "flac-test-util.h"
#include "gpc-test.h"

using namespace gpc::flac;

int main ()
{
  std::string dir = gpc_test::vector_path ("flac-test-files/subset");
  if (dir.empty ())
    gpc_test::skip ("flac-test-files/subset not found under %s", gpc_test::vectors_dir ().c_str ());
  std::vector<std::string> files;
  DIR *d = opendir (dir.c_str ());
  while (struct dirent *e = readdir (d)) {
    std::string n = e->d_name;
    if (n.size () > 5 && n.substr (n.size () - 5) == ".flac")
      files.push_back (n);
  }
  closedir (d);
  std::sort (files.begin (), files.end ());
  CpuDecoder dec (0);
  for (const std::string &n : files) {
    std::vector<uint8_t> data;
    CHECK (flac_test::read_file (dir + "/" + n, &data), "%s unreadable", n.c_str ());
    DecodedStream ds;
    int r = decode_stream (data.data (), data.size (), dec, &ds);
    CHECK (r == kOk, "%s: %s", n.c_str (), status_name (r));
    if (r != kOk)
      continue;
    char got[33], want[33];
    md5_hex (ds.md5, got);
    md5_hex (ds.md.info.md5, want);
    CHECK (ds.errors.empty (), "%s: %zu frame errors, first at frame %llu: %s", n.c_str (),
        ds.errors.size (), ds.errors.empty () ? 0ull : (unsigned long long) ds.errors[0].frame_number,
        ds.errors.empty () ? "" : status_name (ds.errors[0].status));
    CHECK (!ds.md5_checked || ds.md5_ok, "%s: MD5 %s, STREAMINFO says %s", n.c_str (), got, want);
    if (ds.md.info.total_samples)
      CHECK (ds.samples == ds.md.info.total_samples, "%s: %llu samples, STREAMINFO says %llu",
          n.c_str (), (unsigned long long) ds.samples, (unsigned long long) ds.md.info.total_samples);
    printf ("%-90s %6zu frames %9llu samples md5 %s %s\n", n.c_str (), ds.frames,
        (unsigned long long) ds.samples, got, ds.md5_checked ? (ds.md5_ok ? "ok" : "MISMATCH") : "(none)");
  }
  printf ("%zu files, %d failures\n", files.size (), flac_test::failures);
  return flac_test::failures ? 1 : 0;
}
