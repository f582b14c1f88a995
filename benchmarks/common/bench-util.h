/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What every Vulkan benchmark needs: wall-clock helpers, the device to run
 * on, and the timing of a pipeline fed from an appsrc.
 */
#pragma once

#include <gst/gst.h>

#include <chrono>
#include <vector>

#include "compute/gpcvk.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvktimer.h"

namespace gpc_bench {

using Clock = std::chrono::steady_clock;

double seconds_since (Clock::time_point t);
double median (std::vector<double> v);

struct Device {
  GstVulkanInstance *instance = nullptr;
  GstVulkanDevice *device = nullptr;
  GstVulkanQueue *queue = nullptr; /* first queue with compute support */
  ~Device ();
};

/* Opens device GPC_VULKAN_DEVICE_INDEX (default 0); prints why on failure. */
bool open_device (Device *d);

/* Pushes `n` buffers through the appsrc `src_name` of `pipe`, cycling over
 * `frames` (copies, timestamped at 60 fps), waits for EOS and returns the
 * frames per second, wall clock. Exits the program if the pipeline fails. */
double run_appsrc (GstElement *pipe, const char *src_name,
    const std::vector<GstBuffer *> &frames, unsigned n);

/* "1080,2160" as numbers. */
std::vector<unsigned> parse_list (const char *s);

/* Submits what `exec` recorded, waits for it and reads `timer`'s stamps
 * (nanoseconds) into `ns`; exits the program on a GPU failure. */
void submit_timed (gpc::VkExec *exec, gpc::VkGpuTimer *timer, std::vector<double> &ns);

} // namespace gpc_bench
