/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's properties: what they hold, their GParamSpecs (names and values
 * as gst-plugins-bad's vmaf element has them where it has them) and their
 * get / set. The element copies them under its object lock at start.
 */
#pragma once

#include <gst/gst.h>

#include <string>

#include "vmaf-log.h"
#include "vmaf-model.h"
#include "vmaf-scorer.h"

namespace gpc {

/* Which input the source pad passes on. */
enum VmafOutput { VMAF_OUTPUT_DISTORTED, VMAF_OUTPUT_REFERENCE };

struct VmafSettings {
  std::string model_filename = "vmaf_v0.6.1";
  VmafScoreFlags flags;
  guint subsample = 1;
  VmafPoolMethod pool_method = VmafPoolMethod::MEAN;
  bool frame_message = false;
  std::string results_filename;  /* "": none */
  VmafLogFormat log_format = VmafLogFormat::XML;
  VmafOutput output = VMAF_OUTPUT_DISTORTED;
  guint frames_in_flight = 2;

  /* Loads model-filename: a built-in version, else a JSON file. */
  bool load_model (VmafModel *model, std::string *error) const;
};

/* Property ids from first_id on, in this order. */
enum {
  VMAF_PROP_MODEL_FILENAME,
  VMAF_PROP_ENABLE_TRANSFORM,
  VMAF_PROP_PHONE_MODEL,
  VMAF_PROP_DISABLE_CLIP,
  VMAF_PROP_SUBSAMPLE,
  VMAF_PROP_POOL_METHOD,
  VMAF_PROP_FRAME_MESSAGE,
  VMAF_PROP_RESULTS_FILENAME,
  VMAF_PROP_LOG_FORMAT,
  VMAF_PROP_OUTPUT,
  VMAF_PROP_FRAMES_IN_FLIGHT,
  VMAF_PROP_COUNT,
};

void vmaf_settings_install (GObjectClass *klass, guint first_id);
/* False for an id that is not one of them. */
bool vmaf_settings_set (VmafSettings *s, guint id, const GValue *value);
bool vmaf_settings_get (const VmafSettings *s, guint id, GValue *value);
/* The enum types, for gst_type_mark_as_plugin_api. */
GType vmaf_pool_method_get_type ();
GType vmaf_log_format_get_type ();
GType vmaf_output_get_type ();

} // namespace gpc
