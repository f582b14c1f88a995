/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * How vkproresdec's decoded frames leave it: which memory the source pad
 * negotiates (output-memory), the allocation it decides for that memory,
 * where the GPU writes each frame, and how a finished frame becomes its
 * output buffer. A plain object: the element tells it the stream's output
 * configuration and hands it the frames the scheduler finished.
 */
#pragma once

#include <gst/video/video.h>
#include "compute/gpcvk.h"

#include "vkproresoutput.h"
#include "vkproresscheduler.h"

namespace gpc {

class ParallelCopy;

/* The output-memory property. */
enum ProResOutputMemory {
  PRORES_OUTPUT_MEMORY_AUTO,
  PRORES_OUTPUT_MEMORY_VULKAN,
  PRORES_OUTPUT_MEMORY_SYSTEM,
};

class ProResDelivery {
 public:
  /* `copier` (not owned) copies downloads where a copy is needed. */
  ProResDelivery (GstVulkanDevice *device, ParallelCopy *copier);
  ~ProResDelivery ();
  ProResDelivery (const ProResDelivery &) = delete;
  ProResDelivery &operator= (const ProResDelivery &) = delete;

  /* A new output configuration, before negotiation: frames of `c` laid
   * out as `info`, with the system-memory `caps` (taken), which become
   * memory:VulkanBuffer
   * caps where the peer of `src` takes those under `mode` (auto: only when
   * downstream names the feature, not through ANY caps). Returns the caps
   * to negotiate. Drops what the old configuration kept. */
  GstCaps *configure (const ProResOutConfig &c, const GstVideoInfo *info, GstPad *src,
      ProResOutputMemory mode, GstCaps *caps);
  bool vulkan () const { return vulkan_; }

  /* decide_allocation for memory:VulkanBuffer: our pool of storage
   * buffers, at least `min_buffers`, replacing downstream's. */
  bool decide_vulkan (GstQuery *query, GstVulkanDevice *device, guint min_buffers);
  /* decide_allocation for system memory, once the base class has set up
   * the pool in `query`; `offered`: downstream's answer held a pool. */
  void decide_system (GstObject *element, GstQuery *query, bool offered);

  /* Where the GPU writes `frame`. memory:VulkanBuffer: its output buffer,
   * allocated now (our pool has no upper limit), in *vk_out. System memory,
   * in *download (its buffer a new reference): a free buffer of
   * downstream's pool when that holds host-visible Vulkan memory of our
   * device (the GPU writes the picture there, as its GstVideoMeta lays it
   * out), else a host-visible buffer of ours in the host layout, which
   * becomes the output buffer when the download completes; never waiting
   * for downstream's pool, so that one with few buffers cannot block us
   * while we hold frames in flight. GST_FLOW_ERROR with `error` set where
   * no download buffer could be had. */
  GstFlowReturn prepare (GstVideoDecoder *dec, GstVideoCodecFrame *frame, GstBuffer **vk_out,
      ProResDownload *download, GError **error);
  /* The finished `download` of `frame` made its output buffer: a buffer of
   * downstream's pool as it is; one of ours copied into a buffer of
   * downstream's pool where downstream offered one, else lent as it is
   * where it can be (else copied into the negotiated pool's buffer).
   * Errors are posted; the caller drops the frame on failure. */
  GstFlowReturn output (GstVideoDecoder *dec, GstVideoCodecFrame *frame, GstBuffer *download);

  /* Flags of an output buffer of this configuration (interlacing). */
  void set_flags (GstBuffer *out) const;

  /* Lets go of our Vulkan pool (stop). */
  void release_pool ();

 private:
  static bool peer_wants_vulkan (GstPad *src, ProResOutputMemory mode, GstCaps *vkcaps);
  /* Where `buf`'s planes are, when the GPU can write them there. */
  bool gpu_writable (GstBuffer *buf, ProResDownload *d) const;

  GstVulkanDevice *device_;
  ProResDownloads downloads_;
  ParallelCopy *copier_;
  ProResOutConfig config_;
  GstVideoInfo info_;
  bool vulkan_ = false;
  /* System memory: downstream reads GstVideoMeta (our downloads lent go
   * out in their own layout), or offered a pool (frames go into its
   * buffers), of which we know whether the GPU can write its buffers once
   * we have had one. */
  bool video_meta_ = false;
  bool downstream_pool_ = false;
  enum class Direct { kUnknown, kYes, kNo } direct_ = Direct::kUnknown;
  GstBufferPool *vk_pool_ = nullptr;
};

} // namespace gpc
