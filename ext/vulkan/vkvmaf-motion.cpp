/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * vkvmaf's motion extractor: the SAD kernel of vkvmafmotion on the
 * reference frames, which it keeps for the next one or two frames.
 */
#include "vkvmaf-extractor.h"

#include "compute/gpcvkbuffer.h"
#include "vkmotionkernel.h"

namespace gpc {

namespace {

class MotionExtractor : public VmafExtractor {
 public:
  ~MotionExtractor () override
  {
    reset ();
    if (results_)
      gst_memory_unref (results_);
    delete kernel_;
  }

  bool init (GstVulkanDevice *device, GError **error)
  {
    kernel_ = VkMotionKernel::create (device, error);
    if (kernel_)
      results_ = vk_storage_alloc (device, kVmafSlots * 8, true, error);
    return results_ != nullptr;
  }

  bool begin (VkExec *exec, const VmafPair &pair, const VmafFrameWork &work, uint32_t slot,
      GError **error) override
  {
    stages_ = 0;
    if (work.sad) {
      const StoragePlane &prev = history_[work.sad_distance - 1];
      if (!prev.holder) {
        g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
            "no reference frame %u before this one", work.sad_distance);
        return false;
      }
      exec->keep (GST_MINI_OBJECT_CAST (prev.holder));
      prev_ = { prev.mem, prev.offset, prev.stride };
      cur_ = { pair.ref.mem, pair.ref.offset, pair.ref.stride };
      slot_ = slot;
      width_ = pair.width;
      height_ = pair.height;
      layout_ = pair.layout;
      kernel_->begin (exec, (GstVulkanBufferMemory *) results_, slot);
      stages_ = 1;
    }
    /* This reference is the next frames' previous one. */
    history_[1].clear ();
    history_[1] = history_[0];
    history_[0] = pair.ref;
    if (history_[0].holder)
      gst_buffer_ref (history_[0].holder);
    return true;
  }

  unsigned stages () const override { return stages_; }

  /* The last level: beside VIF's last tail and ADM's last masked sums,
   * small dispatches that leave most of a large GPU idle (on an H200, 0.598
   * ms per 2160p 10-bit frame, against 0.607 ms at level 0 beside VIF's
   * scale 0 and 0.605 ms at level 1). */
  unsigned first_level (unsigned levels) const override { return levels >= 1 ? levels - 1 : 0; }

  /* The SAD reads only the two reference planes: beside any stage. */
  bool record_stage (VkExec *exec, unsigned, GError **error) override
  {
    return kernel_->dispatch (exec, prev_, cur_, (GstVulkanBufferMemory *) results_, slot_,
        width_, height_, layout_, error);
  }

  void end (VkExec *exec) override
  {
    if (stages_)
      kernel_->end (exec, (GstVulkanBufferMemory *) results_);
  }

  void collect (uint32_t slot, const VmafFrameWork &work, uint64_t *sad, VmafSpatial *) override
  {
    *sad = 0;
    GstMapInfo map;
    if (!work.sad || !gst_memory_map (results_, &map, GST_MAP_READ))
      return;
    const guint32 *r = (const guint32 *) map.data;
    *sad = ((guint64) r[2 * slot + 1] << 32) | r[2 * slot];
    gst_memory_unmap (results_, &map);
  }

  void reset () override
  {
    for (StoragePlane &h : history_)
      h.clear ();
  }

 private:
  VkMotionKernel *kernel_ = nullptr;
  GstMemory *results_ = nullptr;  /* kVmafSlots x (lo, hi) */
  StoragePlane history_[2];        /* previous reference frame, the one before */
  /* The frame between begin() and end(). */
  unsigned stages_ = 0;
  MotionPlane prev_ = {}, cur_ = {};
  uint32_t slot_ = 0, width_ = 0, height_ = 0;
  LumaLayout layout_ = {};
};

} // namespace

std::unique_ptr<VmafExtractor>
vmaf_motion_extractor (GstVulkanDevice *device, GError **error)
{
  std::unique_ptr<MotionExtractor> m (new MotionExtractor ());
  if (!m->init (device, error))
    return nullptr;
  return m;
}

} // namespace gpc
