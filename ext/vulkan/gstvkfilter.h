/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GpcVkFilter: the GstBaseTransform that our Vulkan compute filters derive
 * from. It holds what every such filter does: the Vulkan device shared
 * through GstContext, the exec on its compute queue, the input made
 * readable by kernels (vkframeio.h), the pictures in flight
 * (pendingframes.h, frames-in-flight, the latency they add), output in
 * memory:VulkanImage, memory:VulkanBuffer or system memory, allocation
 * queries, flushing, draining on EOS and caps changes. Input goes through
 * GstBaseTransform's own submit_input_buffer, so QoS and RECONFIGURE work
 * as in any GStreamer filter. A subclass gives its caps, opens its kernels
 * and records one picture's work.
 */
#pragma once

#include <gst/gst.h>
#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include "compute/gpcvk.h"
#include "compute/gpcvkcontext.h"
#include "compute/gpcvkexec.h"
#include "compute/gpcvkplane.h"
#include "pendingframes.h"
#include "vkfilter.h"
#include "vkframeio.h"
#include "vkhostoutput.h"

G_BEGIN_DECLS

#define GPC_TYPE_VK_FILTER (gpc_vk_filter_get_type ())
#define GPC_VK_FILTER(obj) (G_TYPE_CHECK_INSTANCE_CAST ((obj), GPC_TYPE_VK_FILTER, GpcVkFilter))
#define GPC_VK_FILTER_CLASS(klass) \
    (G_TYPE_CHECK_CLASS_CAST ((klass), GPC_TYPE_VK_FILTER, GpcVkFilterClass))
#define GPC_VK_FILTER_GET_CLASS(obj) \
    (G_TYPE_INSTANCE_GET_CLASS ((obj), GPC_TYPE_VK_FILTER, GpcVkFilterClass))

typedef struct _GpcVkFilter GpcVkFilter;
typedef struct _GpcVkFilterClass GpcVkFilterClass;

/* The memory of the negotiated output. */
typedef enum {
  GPC_VK_OUTPUT_SYSTEM,
  GPC_VK_OUTPUT_BUFFER,  /* memory:VulkanBuffer */
  GPC_VK_OUTPUT_IMAGE,   /* memory:VulkanImage */
} GpcVkOutput;

struct _GpcVkFilter {
  GstBaseTransform parent;

  /*< protected: the streaming thread's, read-only for subclasses >*/
  GpcVkContext vk;
  gpc::VkExec *exec;            /* from start to stop */
  gpc::VkFrameIO *io;           /* from start to stop */
  GstVideoInfo in_info;         /* negotiated (set_info sees the previous ones) */
  GstVideoInfo out_info;
  gboolean have_info;
  GpcVkOutput output;
  /* The input planes record() gets, every plane of the input by default;
   * set_info may choose others. */
  gpc::PlaneSpec planes[GST_VIDEO_MAX_PLANES];
  guint n_planes;

  /*< private >*/
  gpc::FilterState *state;
  gpc::PendingFrames *pending;
  gpc::HostOutput *host;        /* system-memory output */
};

struct _GpcVkFilterClass {
  GstBaseTransformClass parent_class;

  /* For messages: what the element runs ("the ALF kernel"), what the GPU
   * does to a picture ("filtering"), what the element calls one
   * ("picture"). */
  const char *kernel;
  const char *doing;
  const char *unit;
  /* Format lists (e.g. "{ RGBA, BGRA }") that caps take on the source /
   * sink side; NULL keeps the other side's format. */
  const char *src_formats;
  const char *sink_formats;
  /* An analyser: pictures pass through untouched, with the same caps, and
   * none is ever dropped for QoS. */
  gboolean analysis;

  /* start, once the exec exists: kernels and their buffers. FALSE with
   * `error` set. */
  gboolean (*open) (GpcVkFilter *self, GError **error);
  /* stop, once the GPU is idle: frees what open made (also after an open
   * that failed half-way). */
  void (*close) (GpcVkFilter *self);
  /* Checks and takes the negotiated caps (pictures in flight were pushed
   * out first). FALSE refuses them, with an element error posted. */
  gboolean (*set_info) (GpcVkFilter *self, const GstVideoInfo *in, const GstVideoInfo *out);
  /* Records the work of one picture once its planes (`planes`, as
   * self->planes asks) are readable: sets f->out to the output in Vulkan
   * memory (a new reference: the input itself for an analyser), or writes
   * into the target of gpc_vk_filter_download_target(). FALSE with `error`
   * set and `stage` naming the step, or with `error` unset where the
   * subclass posted its own element error. */
  gboolean (*record) (GpcVkFilter *self, GstBuffer *in, gpc::StoragePlane *planes,
      gpc::PendingFrame *f, const char **stage, GError **error);
  /* Optional: the work recorded for a picture was not submitted, or failed
   * to submit; drop what its recording made for later pictures. */
  void (*abandoned) (GpcVkFilter *self);
  /* Optional: the output of `f` once its fence has signalled (takes `out`,
   * returns the buffer to push: metas, messages). */
  GstBuffer *(*finish) (GpcVkFilter *self, const gpc::PendingFrame *f, GstBuffer *out);
  /* Optional: a sink event after the pictures in flight were pushed out
   * (serialized events) or dropped (FLUSH_STOP), before it goes on. */
  void (*drained) (GpcVkFilter *self, GstEvent *event);
};

GType gpc_vk_filter_get_type (void);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GpcVkFilter, gst_object_unref)

/* class_init: the "sink" and "src" pad templates, with these caps. Takes
 * the caller's reference to each (one reference where both are the same
 * caps). */
void gpc_vk_filter_class_add_pad_templates (GpcVkFilterClass *klass, GstCaps *sink,
    GstCaps *src);

/* record(), system-memory output: a host-visible buffer that the recorded
 * work writes the picture into, laid out as self->out_info; once done the
 * base pushes it as it is (no copy) where downstream offered no pool, else
 * copies it into a buffer of downstream's pool. NULL with `error` set. */
GstVulkanBufferMemory *gpc_vk_filter_download_target (GpcVkFilter *self, gpc::PendingFrame *f,
    GError **error);

G_END_DECLS
