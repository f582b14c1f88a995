/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkproresdec's properties (device-index aside, which the Vulkan context
 * installs): what they hold, their GParamSpecs and their get / set. The
 * element reads them under its object lock.
 */
#pragma once

#include <gst/gst.h>

#include "prores-gpu-layout.h"
#include "vkproresdelivery.h"
#include "vkproresscheduler.h"

namespace gpc {

/* The idct property (its values as released, not IdctFlavor's). */
enum ProResIdct { PRORES_IDCT_X86, PRORES_IDCT_C };

struct ProResDecSettings {
  bool skip_alpha = false;
  int frames_in_flight = ProResPacing::kAuto;
  int batch = ProResPacing::kAuto;
  ProResOutputMemory output_memory = PRORES_OUTPUT_MEMORY_AUTO;
  ProResIdct idct = PRORES_IDCT_X86;

  prores::IdctFlavor idct_flavor () const {
    return idct == PRORES_IDCT_C ? prores::IdctFlavor::kC : prores::IdctFlavor::kX86;
  }
};

/* Property ids from first_id on, in this order. */
enum {
  PRORES_PROP_SKIP_ALPHA,
  PRORES_PROP_FRAMES_IN_FLIGHT,
  PRORES_PROP_OUTPUT_MEMORY,
  PRORES_PROP_IDCT,
  PRORES_PROP_BATCH,
};

void prores_settings_install (GObjectClass *klass, guint first_id);
/* False for an id that is not one of them. */
bool prores_settings_set (ProResDecSettings *s, guint id, const GValue *value);
bool prores_settings_get (const ProResDecSettings *s, guint id, GValue *value);
/* The enum types, for gst_type_mark_as_plugin_api. */
GType prores_output_memory_get_type ();
GType prores_idct_get_type ();

} // namespace gpc
