/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The kernel-on-host test again, but with the device-only branches of the
 * shared per-frame code selected (__CUDA_ARCH__ defined, CUDA intrinsics
 * shimmed, everything forced inline): the word-wise cache refill, __clz /
 * __clzll and the __constant__/__device__ CRC tables. These branches never
 * run on a machine without a GPU otherwise.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#define GPC_KERNELS_SCRATCH "kernels-devpath"
#define __CUDACC__ 1
#define __CUDA_ARCH__ 900
#define __host__
#define __device__
#define __constant__
#define __forceinline__ inline __attribute__ ((always_inline))
static inline int __clz (int x) { return x ? __builtin_clz ((unsigned) x) : 32; }
static inline int __clzll (long long x) { return x ? __builtin_clzll ((unsigned long long) x) : 64; }
static inline unsigned __byte_perm (unsigned x, unsigned y, unsigned s)
{
  uint64_t v = ((uint64_t) y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; i++)
    r |= (unsigned) ((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}

#include "test-flac-kernels-host.cpp"
