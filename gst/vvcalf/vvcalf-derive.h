/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one validation path: a GstVvcAlfInfo (from GstVvcAlfMeta, from the
 * vvc-alf-params JSON parser, or from the synthetic builder) is checked in
 * full and turned into the GPU parameter blocks of vvcalf-params.h.
 */
#pragma once

#include <string>

#include "gstvvcalfmeta.h"
#include "vvcalf-params.h"

namespace gpc {

/* "" when @info is valid, else the first problem found, in words. */
std::string vvc_alf_info_check (const GstVvcAlfInfo &info);

/* Validates @info and derives @out from it. On failure returns false, sets
 * @error and leaves @out unspecified (never partially trusted). */
bool vvc_alf_params_from_info (const GstVvcAlfInfo &info, VvcAlfParams &out,
    std::string &error);

/* Same, from the meta a decoder attached to a picture. */
inline bool vvc_alf_params_from_meta (const GstVvcAlfMeta &meta, VvcAlfParams &out,
    std::string &error)
{
  return vvc_alf_params_from_info (meta.info, out, error);
}

} // namespace gpc
