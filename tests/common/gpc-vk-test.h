/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Vulkan test helpers: skip visibly (exit 77) where no Vulkan device exists,
 * and fail on any error the Khronos validation layer reports through
 * GStreamer's "vulkandebug" category while a test runs.
 */
#pragma once

#include "gpc-check.h"

#include <gst/gst.h>
#include <gst/video/video.h>

typedef struct _GstVulkanDevice GstVulkanDevice;

/* Call once after gst_check_init(): checks for a device (else skips) and
 * starts watching for validation errors. */
void gpc_vk_test_init (void);

/* Fails the current test if a validation error was seen since the last call. */
void gpc_vk_test_check_validation (void);

/* main() of a Vulkan element test: gst_check_init, the seed line,
 * gpc_vk_test_init, then the suite of `tests` (see gpc-check.h). */
int gpc_vk_test_main (int *argc, char ***argv, const char *name,
    std::initializer_list<gpc_test::CheckTest> tests, int timeout_s = 0);

/* The device `element` answers a gst.vulkan.device context query with (a
 * new reference), or NULL. */
GstVulkanDevice *gpc_vk_test_device_of (GstElement * element);

/* The picture of `sys` (laid out as `info`) in one host-visible Vulkan
 * buffer per plane, with a GstVideoMeta. With `storage` the buffers have
 * STORAGE usage (an element binds them in place), else transfer usage only;
 * `skew` puts each plane 2 bytes into its buffer. Both others force the
 * elements' GPU copy path. Timestamps are not copied; `sys` is not taken. */
GstBuffer *gpc_vk_test_to_vulkan_buffers (GstVulkanDevice * device, GstBuffer * sys,
    const GstVideoInfo * info, bool storage, bool skew);
