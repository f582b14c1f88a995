/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Vulkan test helpers: skip visibly (exit 77) where no Vulkan device exists,
 * and fail on any error the Khronos validation layer reports while a test
 * runs (gpc-vk-test.cpp says how the layer is configured).
 */
#pragma once

#include "gpc-check.h"

#include <gst/gst.h>
#include <gst/video/video.h>

typedef struct _GstVulkanDevice GstVulkanDevice;
typedef struct _GstVulkanInstance GstVulkanInstance;
typedef struct _GstVulkanQueue GstVulkanQueue;
namespace gpc {
class VkExec;
}

/* Call once after gst_check_init(): checks for a device (else skips) and
 * starts watching for validation errors. */
void gpc_vk_test_init (void);

/* Fails the current test if a validation error was seen since the last call. */
void gpc_vk_test_check_validation (void);
/* The validation errors seen since the last call (printed), without failing. */
size_t gpc_vk_test_validation_errors (void);

/* Messages that contain `message_id` (a VUID raised by upstream code, not
 * ours) are counted instead of failing the check. */
void gpc_vk_test_tolerate (const char *message_id);
/* How many messages were tolerated so far in this process. */
int gpc_vk_test_tolerated (void);

/* main() of a Vulkan element test: gst_check_init, the seed line,
 * gpc_vk_test_init, then the suite of `tests` (see gpc-check.h). */
int gpc_vk_test_main (int *argc, char ***argv, const char *name,
    std::initializer_list<gpc_test::CheckTest> tests, int timeout_s = 0);

/* A device of the test's own, handed to elements through GstContext as an
 * application would, with the compute queue every element of ours takes on
 * it and a VkExec there: buffers made here are the elements' buffers, and
 * work submitted on `exec` is ordered before theirs. */
struct GpcVkTestDevice {
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstVulkanQueue *queue;
  gpc::VkExec *exec;

  GpcVkTestDevice ();
  ~GpcVkTestDevice ();
  GpcVkTestDevice (const GpcVkTestDevice &) = delete;
  GpcVkTestDevice &operator= (const GpcVkTestDevice &) = delete;
  void share_with (GstElement * element);
};

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

/* The picture of `sys` (8-bit planes) in one Vulkan image per plane (R8, or
 * R8G8 for interleaved chroma), as vulkanupload lays out 8-bit formats, made
 * without vulkanupload (which cannot upload every format on every GStreamer
 * and driver release): filled from staging buffers by a submission on
 * `exec` that is not waited for, since an element on the same queue orders
 * itself after it through the images' barrier state. Timestamps, flags and
 * metas are copied; `sys` is not taken. */
GstBuffer *gpc_vk_test_to_vulkan_images (gpc::VkExec * exec, GstBuffer * sys,
    const GstVideoInfo * info);

/* Whether this GStreamer's vulkanupload turns `format` in system memory into
 * `feature` memory ("VulkanBuffer", "VulkanImage") on this device: 1.26's
 * does not upload I420 or GRAY8 on lavapipe. Tests whose subject is not the
 * upload itself then let our element upload instead. With `own_memory`,
 * the frames are the source's own memory (an appsrc's buffers), not
 * buffers of the pool vulkanupload offers upstream, which videotestsrc
 * fills: 1.22 copies those into Vulkan buffers in another way, which aborts
 * on an assertion (vkupload.c, _raw_to_buffer_perform) when a plane fills
 * its buffer exactly. */
bool gpc_vk_test_vulkanupload_can (const char *format, const char *feature,
    bool own_memory = false);

/* Start failures of the element named "e" in `launch` (gst-launch syntax,
 * sources and sinks that need no device): once before its exec exists (a
 * device-index that does not exist) and once after (the
 * "gpc-fail-start" test seam of ext/vulkan/vkfilter.h). Each must fail the
 * state change with an error message that names the element, and the
 * pipeline must then run to EOS with the element set right: what a start
 * that failed half-way made is released (the -leaks runs check that). */
void gpc_vk_test_start_failures (const char *launch);

/* The latency that the element named "e" in `launch` (after a
 * "videotestsrc is-live=%d" of 30 frames a second, linked through %s, the
 * is-live value) adds to its upstream's in a LATENCY query while playing:
 * frames-in-flight's default keeps 1 frame when upstream is live, 2
 * otherwise, and an explicit value holds either way. */
void gpc_vk_test_live_latency (const char *launch);

/* Padding on every side and 64-byte strides, as a display sink's pool
 * may ask for: an element writing into such a pool's buffers must honour
 * the strides and offsets their GstVideoMeta says. */
void gpc_vk_test_padded_alignment (GstVideoAlignment * align);

/* Allocation of the filter `element` (gst-launch syntax, e.g. "vkvvcalf")
 * from system-memory `in_caps` to system-memory `out_caps`:
 * - its answer to upstream's ALLOCATION query holds GstVideoMeta and a pool;
 * - with downstream offering a pool of padded pictures (GstVideoMeta), the
 *   output is that pool's buffers, with its strides, and holds the same
 *   pictures as without a pool (downloads pushed as they are). */
void gpc_vk_test_allocation (const char *element, const char *in_caps, const char *out_caps);

/* QoS of the filter `element` from system-memory `in_caps`: after a QoS
 * event from downstream that says pictures up to 80 ms are late, of 6
 * pictures 40 ms apart, a filter that makes pictures (`drops`) drops the
 * first 3 with a QoS message each and marks the next output DISCONT, as
 * GstBaseTransform does; an analyser passes all 6 and the event goes on
 * upstream either way. */
void gpc_vk_test_qos (const char *element, const char *in_caps, bool drops);
