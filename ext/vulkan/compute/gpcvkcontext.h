/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Vulkan instance / device / queue sharing for our elements, on top of
 * gstreamer-vulkan-1.0. Beside the neighbour queries that upstream elements
 * do, it posts NEED_CONTEXT for "gst.vulkan.device" on the bus (so that an
 * application can hand one device to the whole pipeline from a sync handler)
 * and HAVE_CONTEXT for the device it creates (so that the bin shares it with
 * every other element that asks later).
 */
#pragma once

#include <gst/gst.h>
#include "gpcvk.h"

G_BEGIN_DECLS

/* Environment variable selecting the physical device where the element's
 * device-index property is left at -1. */
#define GPC_VULKAN_DEVICE_ENV "GPC_VULKAN_DEVICE_INDEX"
/* device-index value: where nothing is shared, each element that opens a
 * device takes the next of the process's GPUs in turn. */
#define GPC_VULKAN_DEVICE_SPREAD (-2)

typedef struct {
  GstVulkanDisplay *display;
  GstVulkanInstance *instance;
  GstVulkanDevice *device;
  GstVulkanQueue *queue; /* a queue with compute support */
  gint device_index;     /* property: -1 = environment, else 0; -2 = spread */
  /* A device offered through a context that device_index ruled out: the
   * element then keeps its own device to itself (no HAVE_CONTEXT), so that
   * the pipeline's shared device stays what the application made it. */
  gboolean declined_offer;
} GpcVkContext;

void gpc_vk_context_init (GpcVkContext * ctx);
/* Drops every reference (on NULL state). */
void gpc_vk_context_clear (GpcVkContext * ctx);

/* GstElement::set_context: display, instance and device. */
void gpc_vk_context_set_context (GstElement * element, GpcVkContext * ctx,
    GstContext * context);
/* Answers CONTEXT queries (display, instance, device, queue). */
gboolean gpc_vk_context_handle_query (GstElement * element, GpcVkContext * ctx,
    GstQuery * query);
/* Finds or creates instance, device and a compute queue; posts a
 * GST_ELEMENT_ERROR naming the cause and returns FALSE when there is none. */
gboolean gpc_vk_context_ensure (GstElement * element, GpcVkContext * ctx);

/* Hands `instance` and `device` to `element` as GstContexts, as an
 * application's answer to need-context does (benchmarks, tests). */
void gpc_vk_element_set_device (GstElement * element,
    GstVulkanInstance * instance, GstVulkanDevice * device);

/* The device's first queue with compute support (a new reference), or NULL:
 * one GstVulkanQueue object (one submit lock) for every caller on the device
 * while any holds it. */
GstVulkanQueue *gpc_vk_device_compute_queue (GstVulkanDevice * device);

/* Installs the standard properties on a class: "device-index" as
 * `prop_id` and the read-only "device-name" as `prop_id` + 1. */
void gpc_vk_context_install_properties (GObjectClass * klass, guint prop_id);
/* set_property / get_property of those two, called with the element's
 * object lock held; FALSE for other ids. */
gboolean gpc_vk_context_set_property (GpcVkContext * ctx, guint prop_id, guint first_id,
    const GValue * value);
gboolean gpc_vk_context_get_property (GpcVkContext * ctx, guint prop_id, guint first_id,
    GValue * value);

/* `caps` (taken) as `sinkpad` may offer them upstream: where the peer
 * answers a device context query with another device than the element's,
 * its Vulkan memory would be of the wrong device, so only the system-memory
 * structures are kept and the peer falls back to system memory. */
GstCaps *gpc_vk_context_restrict_sink_caps (GstElement * element, GpcVkContext * ctx,
    GstPad * sinkpad, GstCaps * caps);

G_END_DECLS
