/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define GST_TYPE_VK_PRORES_DEC (gst_vk_prores_dec_get_type ())
G_DECLARE_FINAL_TYPE (GstVkProResDec, gst_vk_prores_dec, GST, VK_PRORES_DEC,
    GstVideoDecoder)

GST_ELEMENT_REGISTER_DECLARE (vkproresdec);

G_END_DECLS
