/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Vulkan test helpers: skip visibly (exit 77) where no Vulkan device exists,
 * and fail on any error the Khronos validation layer reports through
 * GStreamer's "vulkandebug" category while a test runs.
 */
#pragma once

/* Call once after gst_check_init(): checks for a device (else skips) and
 * starts watching for validation errors. */
void gpc_vk_test_init (void);

/* Fails the current test if a validation error was seen since the last call. */
void gpc_vk_test_check_validation (void);
