/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The "gpucodecsvulkan" plugin: every Vulkan compute element of the project.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstvkvmafmotion.h"
#include "gstvkproresdec.h"
#include "gstvkrgbaconvert.h"
#include "gstvkvvcalf.h"
#include "gstvkvmaf.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;
  ret |= GST_ELEMENT_REGISTER (vkvmafmotion, plugin);
  ret |= GST_ELEMENT_REGISTER (vkvvcalf, plugin);
  ret |= GST_ELEMENT_REGISTER (vkproresdec, plugin);
  ret |= GST_ELEMENT_REGISTER (vkrgbaconvert, plugin);
  ret |= GST_ELEMENT_REGISTER (vkvmaf, plugin);
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, gpucodecsvulkan,
    "GPU decoders and filters on Vulkan compute (gst-gpucodecs)",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
