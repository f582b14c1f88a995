/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Synthetic ALF parameters, for tests and benchmarks without a decoder:
 * every CTB uses the same fixed luma filter set and, where enabled, the
 * chroma and CC-ALF filters of one built-in APS (id 0).
 */
#pragma once

#include <string>

#include "gstvvcalfmeta.h"
#include "vvcalf-params.h"

namespace gpc {

struct VvcAlfSyntheticConfig {
  unsigned width = 1920, height = 1080;   /* multiples of 8 */
  GstVvcAlfChromaFormat chroma_format = GST_VVC_ALF_CHROMA_420;
  unsigned bit_depth = 10;
  unsigned ctb_size = 128;
  unsigned fixed_set = 0;                 /* 0..15, every CTB */
  bool y = true, cb = true, cr = true;    /* ALF per component */
  bool cc_cb = false, cc_cr = false;      /* CC-ALF per component */
};

/* The built-in APS 0 (chroma: 1 filter, CC-ALF: 1 filter per component). */
void vvc_alf_synthetic_aps (GstVvcAlfAps &aps);

/* Fills @info (free with gst_vvc_alf_info_clear) or returns false with @error. */
bool vvc_alf_build_synthetic_info (const VvcAlfSyntheticConfig &cfg, GstVvcAlfInfo &info,
    std::string &error);

bool vvc_alf_build_synthetic (const VvcAlfSyntheticConfig &cfg, VvcAlfParams &out,
    std::string &error);

} // namespace gpc
