/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libFuzzer target: vvc-alf-params JSON reader + shared validation. Anything
 * accepted must pass vvc_alf_params_check and, for small pictures, run
 * through the CPU reference (under the sanitizers the fuzzer is built with).
 *
 *   fuzz-vvcalf-json /tmp/alf-corpus fuzz/vvcalf/corpus ../shared/vectors/vvc-alf
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "vvcalf-json.h"
#include "vvcalf-ref.h"

extern "C" int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  gpc::VvcAlfParams params;
  std::string err;
  if (!gpc::vvc_alf_params_from_json ((const char *) data, size, params, err)) {
    if (err.empty ())
      abort ();  /* every rejection must say why */
    return 0;
  }
  std::string chk = gpc::vvc_alf_params_check (params);
  if (!chk.empty ()) {
    fprintf (stderr, "accepted but inconsistent: %s\n", chk.c_str ());
    abort ();
  }
  const gpc::VvcAlfPicParams &p = params.pic;
  if ((int64_t) p.width * p.height > 256 * 256)
    return 0;
  std::vector<uint16_t> in[3], out[3];
  gpc::VvcAlfPlane ip[3];
  gpc::VvcAlfOutPlane op[3];
  const int maxv = (1 << p.bit_depth) - 1;
  for (int i = 0; i < 3; i++) {
    const int w = gpc::vvc_alf_plane_width (p, i), h = gpc::vvc_alf_plane_height (p, i);
    in[i].resize ((size_t) w * h + 1);
    out[i].resize ((size_t) w * h + 1);
    for (size_t k = 0; k < in[i].size (); k++)
      in[i][k] = (uint16_t) ((k * 2654435761u >> 7) & maxv);
    ip[i] = { in[i].data (), w };
    op[i] = { out[i].data (), w };
  }
  gpc::vvc_alf_apply (params, ip, op);
  return 0;
}
