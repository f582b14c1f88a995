/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Scoped locking of GLib mutexes: every return path releases the lock, so
 * an error in the middle of a locked section cannot leave it held for the
 * next caller.
 */
#pragma once

#include <glib.h>

namespace gpc {

class MutexGuard {
 public:
  explicit MutexGuard (GMutex *m) : m_ (m) { g_mutex_lock (m_); }
  ~MutexGuard () { g_mutex_unlock (m_); }
  MutexGuard (const MutexGuard &) = delete;
  MutexGuard &operator= (const MutexGuard &) = delete;

 private:
  GMutex *m_;
};

} // namespace gpc
