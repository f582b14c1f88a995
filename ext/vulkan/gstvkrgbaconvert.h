/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include "gstvkfilter.h"

G_BEGIN_DECLS

#define GST_TYPE_VK_RGBA_CONVERT (gst_vk_rgba_convert_get_type ())
G_DECLARE_FINAL_TYPE (GstVkRgbaConvert, gst_vk_rgba_convert, GST, VK_RGBA_CONVERT,
    GpcVkFilter)

GST_ELEMENT_REGISTER_DECLARE (vkrgbaconvert);

G_END_DECLS
