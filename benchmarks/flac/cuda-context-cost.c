/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the CUDA driver's fixed costs are on this machine: cuInit, creating a
 * context (cuCtxCreate, as GstCudaContext does, or the device's primary
 * context), pinned host memory of cudaflacdec's size, and tearing down
 * (freeing, destroying the context), or leaving it to process exit.
 * The teardown bounds how short a CUDA-decoded file can be; run under
 * `time` to see what exit adds. No GStreamer, libcuda dlopen'ed.
 * Usage: cuda-context-cost [create|primary] [destroy|exit] [PINNED_MIB]
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef unsigned long long CUdeviceptr;

static double now_ms (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

#define LOAD(name) \
  if (!(name = dlsym (lib, #name))) { fprintf (stderr, "no %s\n", #name); return 1; }

int main (int argc, char **argv)
{
  const char *how = argc > 1 ? argv[1] : "create";
  const char *end = argc > 2 ? argv[2] : "destroy";
  size_t pinned_mib = argc > 3 ? (size_t) atoi (argv[3]) : 128;
  double t0 = now_ms ();
  void *lib = dlopen ("libcuda.so.1", RTLD_NOW);
  if (!lib) {
    fprintf (stderr, "libcuda.so.1 not loadable\n");
    return 77;
  }
  CUresult (*cuInit) (unsigned);
  CUresult (*cuDeviceGet) (CUdevice *, int);
  CUresult (*cuCtxCreate_v2) (CUcontext *, unsigned, CUdevice);
  CUresult (*cuCtxDestroy_v2) (CUcontext);
  CUresult (*cuDevicePrimaryCtxRetain) (CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease_v2) (CUdevice);
  CUresult (*cuCtxSetCurrent) (CUcontext);
  CUresult (*cuMemHostAlloc) (void **, size_t, unsigned);
  CUresult (*cuMemFreeHost) (void *);
  CUresult (*cuMemAlloc_v2) (CUdeviceptr *, size_t);
  CUresult (*cuMemFree_v2) (CUdeviceptr);
  LOAD (cuInit) LOAD (cuDeviceGet) LOAD (cuCtxCreate_v2) LOAD (cuCtxDestroy_v2)
  LOAD (cuDevicePrimaryCtxRetain) LOAD (cuDevicePrimaryCtxRelease_v2) LOAD (cuCtxSetCurrent)
  LOAD (cuMemHostAlloc) LOAD (cuMemFreeHost) LOAD (cuMemAlloc_v2) LOAD (cuMemFree_v2)
  double t1 = now_ms ();
  if (cuInit (0)) {
    fprintf (stderr, "cuInit failed\n");
    return 77;
  }
  double t2 = now_ms ();
  CUdevice dev;
  CUcontext ctx;
  cuDeviceGet (&dev, 0);
  int primary = strcmp (how, "primary") == 0;
  if (primary) {
    cuDevicePrimaryCtxRetain (&ctx, dev);
    cuCtxSetCurrent (ctx);
  } else {
    cuCtxCreate_v2 (&ctx, 0, dev);
  }
  double t3 = now_ms ();
  void *host;
  CUdeviceptr d;
  if (cuMemHostAlloc (&host, pinned_mib << 20, 0) || cuMemAlloc_v2 (&d, pinned_mib << 20)) {
    fprintf (stderr, "allocation failed\n");
    return 1;
  }
  memset (host, 1, pinned_mib << 20);
  double t4 = now_ms ();
  cuMemFreeHost (host);
  cuMemFree_v2 (d);
  double t5 = now_ms ();
  if (strcmp (end, "destroy") == 0) {
    if (primary)
      cuDevicePrimaryCtxRelease_v2 (dev);
    else
      cuCtxDestroy_v2 (ctx);
  }
  double t6 = now_ms ();
  printf ("%s context, %s: dlopen %.1f ms, cuInit %.1f ms, context %.1f ms, %zu MiB pinned + device "
      "allocated and touched %.1f ms, freed %.1f ms, %s %.1f ms\n", how, end, t1 - t0, t2 - t1, t3 - t2,
      pinned_mib, t4 - t3, t5 - t4, strcmp (end, "destroy") == 0 ? "context destroyed" : "not destroyed",
      t6 - t5);
  return 0;
}
