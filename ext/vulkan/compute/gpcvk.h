/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Include this instead of <gst/vulkan/vulkan.h> from C++: in GStreamer 1.22
 * gstvkqueue.h, gstvkcommandpool.h and the descriptor headers lack
 * G_BEGIN_DECLS, so C++ would mangle their functions' names.
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>
#include <vulkan/vulkan.h>

extern "C" {
#include <gst/vulkan/vulkan.h>
}
