/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-threadpool.h"

namespace gpc {

ThreadPool::ThreadPool (unsigned threads)
{
  if (threads == 0)
    threads = std::thread::hardware_concurrency ();
  if (threads == 0)
    threads = 1;
  for (unsigned i = 1; i < threads; i++)
    workers_.emplace_back ([this, i] { work (i); });
}

ThreadPool::~ThreadPool ()
{
  {
    std::lock_guard<std::mutex> lk (mutex_);
    quit_ = true;
  }
  start_cv_.notify_all ();
  for (auto &t : workers_)
    t.join ();
}

void ThreadPool::run_items (unsigned id)
{
  for (;;) {
    size_t i = next_.fetch_add (1, std::memory_order_relaxed);
    if (i >= n_)
      break;
    (*fn_) (i, id);
  }
}

void ThreadPool::work (unsigned id)
{
  unsigned seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lk (mutex_);
      start_cv_.wait (lk, [&] { return quit_ || generation_ != seen; });
      if (quit_)
        return;
      seen = generation_;
    }
    run_items (id);
    {
      std::lock_guard<std::mutex> lk (mutex_);
      if (--busy_ == 0)
        done_cv_.notify_all ();
    }
  }
}

void ThreadPool::parallel_for (size_t n, const std::function<void (size_t, unsigned)> &fn)
{
  if (n == 0)
    return;
  if (workers_.empty () || n == 1) {
    for (size_t i = 0; i < n; i++)
      fn (i, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lk (mutex_);
    fn_ = &fn;
    n_ = n;
    next_.store (0);
    busy_ = (unsigned) workers_.size ();
    generation_++;
  }
  start_cv_.notify_all ();
  run_items (0);
  std::unique_lock<std::mutex> lk (mutex_);
  done_cv_.wait (lk, [&] { return busy_ == 0; });
  fn_ = nullptr;
}

} // namespace gpc
