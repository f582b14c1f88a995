/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstVmafMotionMeta: the motion result vkvmafmotion attaches to each frame it
 * passes on. motion2 / motion3 need the next frame and arrive on the bus
 * ("vkvmafmotion-scores" element messages) instead.
 */
#ifndef __GST_VMAF_MOTION_META_H__
#define __GST_VMAF_MOTION_META_H__

#include <gst/gst.h>

#include "gpucodecs-prelude.h"

G_BEGIN_DECLS

#define GST_VMAF_MOTION_META_API_TYPE (gst_vmaf_motion_meta_api_get_type ())
#define GST_VMAF_MOTION_META_INFO (gst_vmaf_motion_meta_get_info ())

typedef struct _GstVmafMotionMeta GstVmafMotionMeta;

/**
 * GstVmafMotionMeta:
 * @meta: parent #GstMeta
 * @index: the frame's number in the stream, as in the bus messages and the
 *   results file (frames dropped by a flush are not counted)
 * @sad: exact sum of absolute filtered differences to the previous frame
 *   (0 where no SAD was computed: first frame, force-zero)
 * @has_sad: whether @sad was computed for this frame
 * @motion: libvmaf's integer_motion score of this frame
 */
struct _GstVmafMotionMeta {
  GstMeta meta;
  guint64 index;
  guint64 sad;
  gboolean has_sad;
  gdouble motion;
};

GST_GPUCODECS_API GType gst_vmaf_motion_meta_api_get_type (void);
GST_GPUCODECS_API const GstMetaInfo *gst_vmaf_motion_meta_get_info (void);

GST_GPUCODECS_API GstVmafMotionMeta *gst_buffer_add_vmaf_motion_meta (GstBuffer * buffer,
    guint64 index, guint64 sad, gboolean has_sad, gdouble motion);

#define gst_buffer_get_vmaf_motion_meta(b) \
  ((GstVmafMotionMeta *) gst_buffer_get_meta ((b), GST_VMAF_MOTION_META_API_TYPE))

G_END_DECLS

#endif /* __GST_VMAF_MOTION_META_H__ */
