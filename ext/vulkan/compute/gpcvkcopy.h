/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Copies between Vulkan images and buffers that elements record around
 * their kernels. Each moves its source and destination into the state the
 * copy needs (barriers, image layouts, recorded in the memories' barrier
 * state), and keeps nothing alive: the caller keeps what it passes.
 */
#pragma once

#include "gpcvk.h"
#include "gpcvkexec.h"

namespace gpc {

/* The first `width` x `height` texels of `src` copied raw into `dst`
 * (same texel size, e.g. R8G8B8A8 into B8G8R8A8). */
void vk_copy_image (VkExec *exec, GstVulkanImageMemory *src, GstVulkanImageMemory *dst,
    uint32_t width, uint32_t height);

/* The first `width` x `height` texels of `img` into `dst` at byte `offset`,
 * rows `width` texels apart; `dst` is then ready for the host to read once
 * the submission's fence has signalled. */
void vk_download_image (VkExec *exec, GstVulkanImageMemory *img, GstVulkanBufferMemory *dst,
    gsize offset, uint32_t width, uint32_t height);

/* `rows` rows of `row_bytes` from `src` into `dst`, each at its byte
 * offset into its VkBuffer and with its stride: one region where the
 * strides agree, else one a row. `src` is made readable by transfers;
 * `dst` writable, unless its last use is a transfer write already (a
 * buffer the caller claimed, or planes of one buffer copied in turn). */
void vk_copy_rows (VkExec *exec, GstVulkanBufferMemory *src, gsize src_offset, gsize src_stride,
    GstVulkanBufferMemory *dst, gsize dst_offset, gsize dst_stride, gsize row_bytes,
    uint32_t rows);

/* `mem`, written by shaders of this submission, ready for the host to read
 * once the submission's fence has signalled. */
void vk_ready_for_host (VkExec *exec, GstVulkanBufferMemory *mem);

} // namespace gpc
