/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reader of the "vvc-alf-params" JSON format, version 1 (described in the
 * README of the vvc-alf conformance vectors and in docs/vvcalf-reference.md).
 * The text is read into a GstVvcAlfInfo, which then goes through the same
 * validation as GstVvcAlfMeta (vvcalf-derive.h).
 */
#pragma once

#include <stddef.h>

#include <string>

#include "gstvvcalfmeta.h"
#include "vvcalf-params.h"

namespace gpc {

/* Syntax and type checks only. On success @info is initialised (free it with
 * gst_vvc_alf_info_clear); on failure it is left empty and @error says why. */
bool vvc_alf_json_to_info (const char *text, size_t len, GstVvcAlfInfo &info,
    std::string &error);

/* Parse + full validation + derivation. */
bool vvc_alf_params_from_json (const char *text, size_t len, VvcAlfParams &out,
    std::string &error);

/* Writes @info as vvc-alf-params version 1 text (the inverse of
 * vvc_alf_json_to_info for any info that passes vvc_alf_info_check; used by
 * tests, the fuzz corpus and for dumping a decoder's meta). */
std::string vvc_alf_info_to_json (const GstVvcAlfInfo &info);

bool vvc_alf_params_from_json_file (const char *path, VvcAlfParams &out,
    std::string &error);

} // namespace gpc
