/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkproresdec's rank: autoplugged (above avdec_prores) only where the
 * device the element opens by default is a real GPU that can run the
 * kernels; elsewhere (no Vulkan driver, lavapipe and other CPU devices,
 * a device without compute) rank NONE, so that decodebin and playbin take
 * avdec_prores. The rank is decided when the plugin is loaded, which the
 * registry caches: the plugin names the Vulkan driver manifests, the GPU
 * device nodes and the environment that picks drivers and devices as its
 * dependencies, so a change there reloads it and decides again.
 */
#pragma once

#include <gst/gst.h>
#include "compute/gpcvk.h"

#include <string>

namespace gpc {

/* Whether a device can run the ProRes kernels (a compute queue, the
 * workgroup size and shared memory they use); `why` says what is missing. */
bool prores_device_can_decode (const VkPhysicalDeviceProperties &props,
    const VkQueueFamilyProperties *families, uint32_t n_families, std::string *why);

/* The rank for vkproresdec on this machine: opens a Vulkan instance of its
 * own (no GStreamer objects), looks at the physical device the element
 * would open by default (GPC_VULKAN_DEVICE_INDEX, else the first) and
 * closes it again. `why` says how the rank was decided. */
GstRank prores_probe_rank (std::string *why);

/* Whether `element` is being tried by a decodebin3, which adds a candidate
 * decoder to itself before it tries READY on it (so that an application's
 * state change walking the bin then can fail with the candidate) and,
 * before 1.24, passes the candidate's errors on to the application
 * (stopping the pipeline) even when it then replaces the decoder. */
bool prores_tried_by_decodebin3 (GstElement *element);

/* An error message turned into a warning with the same error and details
 * (takes `error`). */
GstMessage *prores_error_as_warning (GstMessage *error);

/* Registers what the probe depends on with the registry (see above). */
void prores_add_probe_dependencies (GstPlugin *plugin);

} // namespace gpc
