/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include "gstvkfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_VK_VMAF_MOTION (gst_vk_vmaf_motion_get_type ())
G_DECLARE_FINAL_TYPE (GstVkVmafMotion, gst_vk_vmaf_motion, GST, VK_VMAF_MOTION,
    GpcVkFilter)

GST_ELEMENT_REGISTER_DECLARE (vkvmafmotion);

G_END_DECLS
