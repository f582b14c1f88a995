/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A fixed set of worker threads running parallel_for over an index range.
 * Workers pull indices from an atomic counter, so uneven items (FLAC frames
 * of different sizes) balance themselves. The calling thread works too.
 * Host only. Shared by the FLAC CPU backend and locator and by the large
 * copies of gpc-parallel-copy.h.
 */
#pragma once

#include <stddef.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpc {

class ThreadPool {
 public:
  /* threads = 0: one per core. */
  explicit ThreadPool (unsigned threads = 0);
  ~ThreadPool ();
  ThreadPool (const ThreadPool &) = delete;
  ThreadPool &operator= (const ThreadPool &) = delete;

  unsigned size () const { return (unsigned) workers_.size () + 1; }

  /* Runs fn(index, worker) for index in [0, n); worker is in [0, size()). */
  void parallel_for (size_t n, const std::function<void (size_t, unsigned)> &fn);

 private:
  void work (unsigned id);
  void run_items (unsigned id);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_cv_, done_cv_;
  const std::function<void (size_t, unsigned)> *fn_ = nullptr;
  size_t n_ = 0;
  std::atomic<size_t> next_ {0};
  unsigned generation_ = 0;
  unsigned busy_ = 0;
  bool quit_ = false;
};

} // namespace gpc
