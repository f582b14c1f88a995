/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Where vkvvcalf's ALF parameters come from (a picture's GstVvcAlfMeta,
 * JSON files, synthetic parameters) and what it checks about them against
 * the negotiated caps.
 */
#pragma once

#include <gst/video/video.h>

#include <string>

#include "gstvvcalfmeta.h"
#include "vvcalf-derive.h"

/* The params-source property. */
typedef enum
{
  GPC_ALF_PARAMS_AUTO,
  GPC_ALF_PARAMS_META,
  GPC_ALF_PARAMS_FILE,
  GPC_ALF_PARAMS_SYNTHETIC,
} GpcAlfParamsSource;

#define GPC_TYPE_ALF_PARAMS_SOURCE (gpc_alf_params_source_get_type ())
GType gpc_alf_params_source_get_type (void);

namespace gpc {

/* What a picture's parameters are found from. */
struct AlfParamsRequest {
  GpcAlfParamsSource source;
  const char *location;         /* params-location, or NULL */
  guint64 index;                /* the picture's index in a location pattern */
  const GstVvcAlfMeta *meta;    /* the picture's, or NULL */
  const VvcAlfParams *synth;    /* synthetic parameters, or NULL */
  const char *synth_error;      /* why there are none */
};

/* The parameters `r` asks for (in `storage` where read for this picture),
 * `what` names their source and `path` the file read; NULL with `err`. */
const VvcAlfParams *alf_params_for (const AlfParamsRequest &r, VvcAlfParams &storage,
    const char **what, std::string *path, std::string &err);

/* TRUE when `pattern` has exactly one integer conversion (%d, %05u, ...)
 * and otherwise only "%%": then it names one file per picture. Any other
 * conversion is refused (FALSE, with `bad` set). */
gboolean alf_location_is_pattern (const gchar *pattern, gboolean *bad);

/* Chroma format and bit depth (8 to 12) of a raw video format; depth 0
 * for GRAY16_LE, 4:0:0 in 16-bit words of a depth the format does not say
 * (GStreamer has no 10- or 12-bit grey format in 16-bit words). */
gboolean alf_layout_of (const GstVideoInfo *info, GstVvcAlfChromaFormat *cf, guint *depth);

/* Whether two sets of parameters filter alike (so one upload serves both). */
bool alf_same_params (const VvcAlfParams &a, const VvcAlfParams &b);

/* Empty where parameters `p` are for pictures of `info` (chroma format
 * `cf`, `depth` bits; depth 0: 9 to 12 bits in 16-bit words), else what
 * differs. */
std::string alf_params_mismatch (const VvcAlfPicParams &p, const GstVideoInfo *info,
    GstVvcAlfChromaFormat cf, guint depth);

} // namespace gpc
