/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * VkResult to GError, for the compute layer.
 */
#pragma once

#include "gpcvk.h"

/* TRUE on success; else sets `error` (if not NULL) naming `what`. */
static inline gboolean
gpc_vk_check (VkResult res, GError ** error, const char *what)
{
  /* `what` is a message, never a format: a '%' in it must stay text. */
  return gst_vulkan_error_to_g_error (res, error, "%s", what) >= 0;
}
