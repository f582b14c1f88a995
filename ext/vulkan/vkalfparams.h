/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What vkvvcalf checks about a picture's ALF parameters against the
 * negotiated caps, and how it reads its params-location property.
 */
#pragma once

#include <gst/video/video.h>

#include <string>

#include "gstvvcalfmeta.h"
#include "vvcalf-derive.h"

namespace gpc {

/* TRUE when `pattern` has exactly one integer conversion (%d, %05u, ...)
 * and otherwise only "%%": then it names one file per picture. Any other
 * conversion is refused (FALSE, with `bad` set). */
gboolean alf_location_is_pattern (const gchar *pattern, gboolean *bad);

/* Chroma format and bit depth (8 to 12) of a raw video format. */
gboolean alf_layout_of (const GstVideoInfo *info, GstVvcAlfChromaFormat *cf, guint *depth);

/* Whether two sets of parameters filter alike (so one upload serves both). */
bool alf_same_params (const VvcAlfParams &a, const VvcAlfParams &b);

/* Empty where parameters `p` are for pictures of `info` (chroma format
 * `cf`, `depth` bits), else what differs. */
std::string alf_params_mismatch (const VvcAlfPicParams &p, const GstVideoInfo *info,
    GstVvcAlfChromaFormat cf, guint depth);

} // namespace gpc
