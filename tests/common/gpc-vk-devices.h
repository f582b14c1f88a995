/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Several Vulkan physical devices for tests of device choice, on machines
 * that have one: Mesa's lavapipe loaded a second time, from a copy of its
 * library, is a second physical device to the Vulkan loader (and a real
 * one: its own VkInstance state, memory and queues).
 */
#pragma once

#include <glib.h>

/* Call before anything opens Vulkan. Where fewer than `n` physical devices
 * are visible and a lavapipe driver manifest is found, adds copies of
 * lavapipe (files under a temporary folder, listed in VK_DRIVER_FILES)
 * until there are `n`. Returns how many devices are visible then. */
guint gpc_vk_test_want_devices (guint n);

/* Removes what gpc_vk_test_want_devices() wrote (call at the end of main,
 * once no process of the test uses the copies any more). */
void gpc_vk_test_devices_cleanup (void);
