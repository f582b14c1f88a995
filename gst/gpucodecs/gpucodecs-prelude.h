/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Symbol visibility of libgstgpucodecs-1.0, the public library of the
 * project (the metas our elements exchange with applications). Everything
 * else in it is hidden.
 */
#ifndef __GST_GPUCODECS_PRELUDE_H__
#define __GST_GPUCODECS_PRELUDE_H__

#include <gst/gst.h>

#ifndef GST_GPUCODECS_API
# if defined (BUILDING_GST_GPUCODECS) && defined (__GNUC__)
#  define GST_GPUCODECS_API __attribute__ ((visibility ("default"))) extern
# else
#  define GST_GPUCODECS_API extern
# endif
#endif

#endif /* __GST_GPUCODECS_PRELUDE_H__ */
