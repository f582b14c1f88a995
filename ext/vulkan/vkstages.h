/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GPU work recorded in stages, so that the independent dispatches of several
 * kernels run side by side. A pipeline barrier waits for all earlier work on
 * the queue, not only for what the next dispatch reads: kernels that each
 * put a barrier after every dispatch make one serial chain of all of them,
 * and a large GPU given one small dispatch at a time stays mostly idle.
 * Recorded level by level instead (stage k of every work, one barrier, stage
 * k + 1 of every work), the works' dispatches of one level may overlap.
 */
#pragma once

#include <stddef.h>

#include "compute/gpcvkexec.h"

namespace gpc {

/* One frame's work of a kernel, in stages. The dispatches of stage k read
 * only what was ready for compute shaders before stage 0 (the work's own
 * fills and uploads come with their barriers before it) and what its stages
 * before k wrote, and they neither read nor write what another work's
 * dispatches write: a stage's dispatches may run in any order, or at once
 * with those of other works. */
class VkStaged {
 public:
  virtual ~VkStaged () = default;
  /* Stages of the frame being recorded (0: nothing this frame). */
  virtual unsigned stages () const = 0;
  /* Stage k's dispatches, without barriers. */
  virtual bool record_stage (VkExec *exec, unsigned k, GError **error) = 0;
  /* The level of stage 0 in a frame of `levels` levels (the most stages of
   * its works); first_level + stages() <= levels. A work that depends on
   * no other can move to where the GPU has room. */
  virtual unsigned first_level (unsigned levels) const { (void) levels; return 0; }
};

/* Records levels 0, 1, ... up to the most stages of `works`: a global
 * barrier, then each work's stage of that level (stage k at level
 * first_level + k), in the order given (a GPU
 * starts the first one first: put the longest first, so that the others
 * fill what it leaves idle). The barrier makes the compute writes recorded
 * before it visible to the compute reads and writes after it, and starts
 * those after all earlier dispatches on the queue: before level 0, also
 * those of earlier frames, so that a frame may rewrite scratch memory that
 * the previous one read. */
bool vk_record_levels (VkExec *exec, VkStaged *const *works, size_t n, GError **error);

/* One frame of a kernel alone: kernel->begin (exec, args..., error), its
 * stages (vk_record_levels), kernel->end (exec). */
template <class Kernel, class... Args>
bool vk_record_alone (VkExec *exec, Kernel *kernel, GError **error, const Args &...args)
{
  VkStaged *staged = kernel;
  if (!kernel->begin (exec, args..., error) || !vk_record_levels (exec, &staged, 1, error))
    return false;
  kernel->end (exec);
  return true;
}

} // namespace gpc
