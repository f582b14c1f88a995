/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstaggregator.h>

G_BEGIN_DECLS

#define GST_TYPE_VK_VMAF (gst_vk_vmaf_get_type ())
G_DECLARE_FINAL_TYPE (GstVkVmaf, gst_vk_vmaf, GST, VK_VMAF, GstAggregator)

GST_ELEMENT_REGISTER_DECLARE (vkvmaf);

G_END_DECLS
