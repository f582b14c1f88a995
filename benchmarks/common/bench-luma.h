/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Luma frames for the VMAF benchmarks: a plane uploaded once into a
 * device-local storage buffer, and a whole video frame around it (chroma
 * planes and a video meta) as memory:VulkanBuffer elements take it.
 */
#pragma once

#include <gst/video/video.h>

#include <vector>

#include "compute/gpcvkbuffer.h"
#include "compute/gpcvkexec.h"
#include "vmaf-motion-layout.h"

namespace gpc_bench {

/* A buffer of one device-local memory holding `f` (w x h samples) in layout
 * `l`, rows `stride` bytes apart. Exits the program on failure. */
GstBuffer *upload_luma (gpc::VkExec *exec, gpc::VkBufferCache &staging,
    const std::vector<uint16_t> &f, const gpc::LumaLayout &l, unsigned w, unsigned h,
    gsize stride);

/* A frame of `format` whose luma is `luma`'s memory (rows `stride` bytes
 * apart) and whose other planes are fresh device buffers, with a video
 * meta. */
GstBuffer *vk_video_frame (GstVulkanDevice *device, GstBuffer *luma, GstVideoFormat format,
    unsigned w, unsigned h, gsize stride);

} // namespace gpc_bench
