/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Records and submits compute work on a GstVulkanQueue. Barriers on
 * GstVulkanBufferMemory / GstVulkanImageMemory start from, and update, the
 * barrier state stored in the memory, so the next element on the queue
 * (ours or upstream's) synchronises against our commands. Everything a
 * submission uses (command buffer, descriptor sets, GstBuffers) is released
 * only once its fence has signalled.
 */
#pragma once

#include "gpcvk.h"

#include <vector>

#include "gpcvkkernel.h"
#include "gpcvktimer.h"

namespace gpc {

/* How long one submission may take before `device` counts as lost or hung:
 * 10 s on a GPU. A device that runs shaders on the CPU (lavapipe,
 * SwiftShader) shares its cores with everything else on the machine, so a
 * loaded machine slows its submissions down without hanging them: it gets
 * 120 s. */
guint64 hang_limit_ns (GstVulkanDevice *device);

class VkExec {
 public:
  ~VkExec ();
  static VkExec *create (GstVulkanQueue *queue, GError **error);

  GstVulkanDevice *device () const { return queue_->device; }
  GstVulkanQueue *queue () const { return queue_; }
  /* hang_limit_ns() of this queue's device. */
  guint64 hang_limit_ns () const { return hang_limit_ns_; }

  /* One submission: begin(), record, submit(). Not thread-safe: one
   * streaming thread records at a time. */
  bool begin (GError **error);
  VkCommandBuffer cmd () const { return cmd_->cmd; }

  /* Makes earlier work on `mem` visible to (stage, access); records the new
   * state in the memory. */
  void barrier (GstVulkanBufferMemory *mem, VkPipelineStageFlags stage, VkAccessFlags access);
  void barrier (GstVulkanImageMemory *mem, VkPipelineStageFlags stage, VkAccessFlags access,
      VkImageLayout layout);
  /* Execution + memory dependency for everything recorded so far. */
  void global_barrier (VkPipelineStageFlags src_stage, VkAccessFlags src_access,
      VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);

  /* Binds `kernel`, its buffers (binding i = infos[i]) and push constants,
   * and dispatches groups_x * groups_y * groups_z workgroups. */
  bool dispatch (VkKernel *kernel, const VkDescriptorBufferInfo *infos, uint32_t n_infos,
      const void *push, uint32_t push_size, uint32_t groups_x, uint32_t groups_y,
      uint32_t groups_z, GError **error);
  /* The same with storage images after the buffers (the kernel's
   * n_storage_images; each view in VK_IMAGE_LAYOUT_GENERAL, see barrier()). */
  bool dispatch (VkKernel *kernel, const VkDescriptorBufferInfo *infos, uint32_t n_infos,
      const VkDescriptorImageInfo *images, uint32_t n_images, const void *push,
      uint32_t push_size, uint32_t groups_x, uint32_t groups_y, uint32_t groups_z,
      GError **error);

  /* Fills `size` bytes of `mem` at `offset` with the 32-bit `value`
   * (offset and size multiples of 4), after a barrier, as a transfer. */
  void fill (GstVulkanBufferMemory *mem, VkDeviceSize offset, VkDeviceSize size, uint32_t value);
  /* Copies `size` bytes; the caller has made both buffers ready for the
   * transfer (barrier() or its own state tracking). */
  void copy (GstVulkanBufferMemory *src, VkDeviceSize src_offset, GstVulkanBufferMemory *dst,
      VkDeviceSize dst_offset, VkDeviceSize size);

  /* Profiling, for benchmarks: with a timer set, every dispatch is
   * followed by a timestamp at the next index (from `first`), marking the
   * completion of all work recorded before it. nullptr turns it off. */
  void time_dispatches (VkGpuTimer *timer, uint32_t first);
  /* The same with the timestamps before every global_barrier() instead:
   * they mark where the work between two barriers ended, without
   * serialising the dispatches between them. */
  void time_barriers (VkGpuTimer *timer, uint32_t first);
  uint32_t next_stamp () const { return stamp_; }

  /* Keeps a reference (GstBuffer, GstMemory, ...) until the GPU is done. */
  void keep (GstMiniObject *obj);

  /* Submits; returns the submission's fence (a new reference). */
  GstVulkanFence *submit (GError **error);

  /* Waits for `fence` (at most timeout_ns); FALSE with error on time-out or
   * device loss, never a hang. */
  bool wait (GstVulkanFence *fence, guint64 timeout_ns, GError **error);
  /* Waits for every submission (at most timeout_ns) and releases what
   * they used; false when they did not all finish in time. */
  bool wait_idle (guint64 timeout_ns = G_MAXUINT64);
  /* Releases what finished submissions used (non-blocking). */
  void collect () { gst_vulkan_trash_list_gc (trash_); }

 private:
  VkExec () {}

  GstVulkanQueue *queue_ = nullptr;
  GstVulkanCommandPool *pool_ = nullptr;
  GstVulkanTrashList *trash_ = nullptr;
  GstVulkanCommandBuffer *cmd_ = nullptr;
  std::vector<GstMiniObject *> keep_;
  std::vector<std::pair<VkKernel *, VkDescriptorSet>> sets_;
  /* Our fences (not the device's fence cache, see submit()): one is free
   * for reuse when only this list holds it. */
  std::vector<GstVulkanFence *> fences_;
  GstVulkanFence *acquire_fence (GError **error);
  VkGpuTimer *timer_ = nullptr;
  guint64 hang_limit_ns_ = 0;
  bool stamp_barriers_ = false;  /* where timer_ stamps: barriers, else dispatches */
  uint32_t stamp_ = 0;
};

} // namespace gpc
