/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GPC_HD marks functions that are compiled for the host and, under nvcc, for
 * CUDA devices too, so that one source holds the logic both backends run.
 */
#pragma once

#if defined(__CUDACC__)
#define GPC_HD __host__ __device__ __forceinline__
#else
#define GPC_HD inline
#endif

#include <stdint.h>

/* Count of leading zero bits of a non-zero 32-bit word. */
GPC_HD unsigned gpc_clz32 (uint32_t w)
{
#if defined(__CUDA_ARCH__)
  return (unsigned) __clz ((int) w);
#else
  return (unsigned) __builtin_clz (w);
#endif
}
