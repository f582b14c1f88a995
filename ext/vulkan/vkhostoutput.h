/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * System-memory output of pictures that the GPU downloaded into
 * host-visible memories laid out as the caps say: where downstream offers
 * no pool, the memory itself goes downstream (no CPU copy); else the
 * picture is copied once into a buffer of downstream's pool, laid out as
 * that pool's GstVideoMeta says. A plain object for any element.
 */
#pragma once

#include <gst/video/video.h>

namespace gpc {

class HostOutput {
 public:
  /* More lent memories than this (beyond those in flight) would grow host
   * memory without bound behind a deep queue downstream. */
  static const guint kMaxLent = 16;

  /* An ALLOCATION query that upstream asks for system-memory `caps`: any
   * strides (GstVideoMeta) and, where `need_pool`, a pool of at least
   * `min_buffers`. */
  static void propose (GstQuery *query, guint min_buffers);

  /* decide_allocation for system-memory output: keeps downstream's pool,
   * else adds one of ours (for when too many memories are lent), with
   * GstVideoMeta where downstream reads it. Whoever configures pools
   * (GstBaseTransform) sets its caps and size next. */
  bool decide (GstQuery *query);

  /* The output buffer of `picture` (laid out as `info`): the picture lent
   * while `lent` memories are out at most kMaxLent beyond `in_flight`, else
   * a copy in a buffer of `pool`. GST_FLOW_ERROR where the copy failed. */
  GstFlowReturn output (GstMemory *picture, const GstVideoInfo *info, GstBufferPool *pool,
      guint lent, guint in_flight, GstBuffer **out) const;

 private:
  bool lend_ = false;
};

} // namespace gpc
