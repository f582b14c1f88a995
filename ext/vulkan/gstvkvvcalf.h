/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "gstvkfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_VK_VVC_ALF (gst_vk_vvc_alf_get_type ())
G_DECLARE_FINAL_TYPE (GstVkVvcAlf, gst_vk_vvc_alf, GST, VK_VVC_ALF, GpcVkFilter)

GST_ELEMENT_REGISTER_DECLARE (vkvvcalf);

G_END_DECLS
