/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gpucodecscuda: the project's CUDA elements (cudaflacdec). The element is
 * registered even without a GPU: its CPU backend needs none.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudaflacdec.h"

static gboolean plugin_init (GstPlugin *plugin)
{
  return GST_ELEMENT_REGISTER (cudaflacdec, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, gpucodecscuda,
    "gst-gpucodecs CUDA elements: FLAC decoding on NVIDIA GPUs (with a multi-threaded CPU backend)",
    plugin_init, VERSION, GST_LICENSE, GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
