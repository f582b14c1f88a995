/* vmaf-bench-libvmaf: times libvmaf (the user's build) on raw luma frames
 * that benchmarks/vmaf wrote, so that vkvmaf and libvmaf are measured on the
 * same frames in the same run, and prints libvmaf's scores of the first
 * frames for the benchmark to compare with vkvmaf's.
 *
 * A development tool: tools/build-libvmaf.sh builds it against a libvmaf the
 * user built from source; nothing of libvmaf is part of the project. Only
 * libvmaf's public API is used.
 *
 * Usage: vmaf-bench-libvmaf WIDTH HEIGHT BPC FRAMES REF DIST [--threads N]
 *                           [--cuda] [--scores K]
 *   REF/DIST: D raw luma frames each (D from the file size), one byte per
 *   sample at 8 bit, two (little-endian) above; frame i is frame i % D.
 *   --threads N  libvmaf's thread pool (default: every online CPU; none with
 *                --cuda)
 *   --cuda       libvmaf's CUDA extractors (libvmaf_cuda.h) on CUDA device 0's
 *                primary context, with the frames on the GPU as in vkvmaf's
 *                pipeline: the distinct frames are uploaded to device memory
 *                before the clock starts, and each frame is then copied device
 *                to device into one of libvmaf's preallocated device pictures
 *                (VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE), as an
 *                application holding decoded frames on the GPU feeds libvmaf.
 *                libvmaf's host-upload path (host pictures that it uploads) is
 *                not what is timed. No thread pool: libvmaf 3.2 runs its CUDA
 *                extractors from the calling thread, and its pool path neither
 *                handles nor releases device pictures, so --threads must be 0.
 *   --scores K   print the first K frames' scores (default 4)
 * Output: "libvmaf MODE threads N frames F seconds S ms_per_frame M", then
 * "score I VALUE" (%.17g) lines; exit status 0, 3 when --cuda is not
 * available (a libvmaf without CUDA, no driver or device), 1 on other failures. */

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/model.h>

/* Set by tools/build-libvmaf.sh when the library exports the CUDA API. */
#ifdef VMAF_BENCH_CUDA
#include <cuda.h>
#include <dlfcn.h>
#include <libvmaf/libvmaf_cuda.h>
#endif

static double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void
die (const char *what)
{
  fprintf (stderr, "vmaf-bench-libvmaf: %s\n", what);
  exit (1);
}

static uint8_t *
read_all (const char *path, size_t *size)
{
  struct stat st;
  FILE *f = fopen (path, "rb");
  if (!f || fstat (fileno (f), &st))
    die (strerror (errno));
  uint8_t *data = malloc (st.st_size);
  if (!data || fread (data, 1, st.st_size, f) != (size_t) st.st_size)
    die ("short read");
  fclose (f);
  *size = st.st_size;
  return data;
}

static void
fill (VmafPicture *pic, const uint8_t *plane, unsigned w, unsigned h, unsigned bytes)
{
  for (unsigned y = 0; y < h; y++)
    memcpy ((uint8_t *) pic->data[0] + y * pic->stride[0], plane + (size_t) y * w * bytes,
        (size_t) w * bytes);
}

#ifdef VMAF_BENCH_CUDA
/* The driver is opened at run time (as libvmaf does), so that the CPU runs
 * need no NVIDIA driver. */
static struct {
  CUresult (*init) (unsigned);
  CUresult (*device_get) (CUdevice *, int);
  CUresult (*primary_ctx_retain) (CUcontext *, CUdevice);
  CUresult (*ctx_push) (CUcontext);
  CUresult (*mem_alloc) (CUdeviceptr *, size_t);
  CUresult (*memcpy_htod) (CUdeviceptr, const void *, size_t);
  CUresult (*mem_free) (CUdeviceptr);
  CUresult (*memcpy_2d) (const CUDA_MEMCPY2D *);
} cu;

static int
load_driver (void)
{
  void *lib = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib)
    return 0;
  *(void **) &cu.init = dlsym (lib, "cuInit");
  *(void **) &cu.device_get = dlsym (lib, "cuDeviceGet");
  *(void **) &cu.primary_ctx_retain = dlsym (lib, "cuDevicePrimaryCtxRetain");
  *(void **) &cu.ctx_push = dlsym (lib, "cuCtxPushCurrent_v2");
  *(void **) &cu.mem_alloc = dlsym (lib, "cuMemAlloc_v2");
  *(void **) &cu.memcpy_htod = dlsym (lib, "cuMemcpyHtoD_v2");
  *(void **) &cu.mem_free = dlsym (lib, "cuMemFree_v2");
  *(void **) &cu.memcpy_2d = dlsym (lib, "cuMemcpy2D_v2");
  return cu.init && cu.device_get && cu.primary_ctx_retain && cu.ctx_push && cu.mem_alloc
      && cu.memcpy_htod && cu.mem_free && cu.memcpy_2d;
}

/* The distinct frames in device memory, and the copies into libvmaf's
 * preallocated device pictures. The copy runs on the legacy default stream:
 * libvmaf's device pictures carry blocking streams (CU_STREAM_DEFAULT), on
 * which its extractors read the pictures, so their kernels start after the
 * copy; and fetching a picture waits until libvmaf has finished with its
 * previous frame. */
static CUdeviceptr
upload (const uint8_t *host, size_t size)
{
  CUdeviceptr d;
  if (cu.mem_alloc (&d, size) || cu.memcpy_htod (d, host, size))
    die ("cuMemAlloc / cuMemcpyHtoD failed");
  return d;
}

static void
copy_plane (VmafPicture *pic, CUdeviceptr src, unsigned w, unsigned h, unsigned bytes)
{
  CUDA_MEMCPY2D c;
  memset (&c, 0, sizeof c);
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = src;
  c.srcPitch = (size_t) w * bytes;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = (CUdeviceptr) pic->data[0];
  c.dstPitch = pic->stride[0];
  c.WidthInBytes = (size_t) w * bytes;
  c.Height = h;
  if (cu.memcpy_2d (&c))
    die ("cuMemcpy2D failed");
}
#endif

int
main (int argc, char **argv)
{
  const int help = argc == 2 && (!strcmp (argv[1], "--help") || !strcmp (argv[1], "-h"));
  if (argc < 7) {
    fprintf (help ? stdout : stderr, "usage: %s WIDTH HEIGHT BPC FRAMES REF DIST [--threads N] "
        "[--cuda] [--scores K]\nlibvmaf %s, CUDA extractors: %s\n", argv[0], vmaf_version (),
#ifdef VMAF_BENCH_CUDA
        "built in"
#else
        "not built in"
#endif
        );
    return help ? 0 : 2;
  }
  const unsigned w = atoi (argv[1]), h = atoi (argv[2]), bpc = atoi (argv[3]);
  const unsigned frames = atoi (argv[4]);
  unsigned n_scores = 4;
  int threads = -1, cuda = 0;
  for (int i = 7; i < argc; i++) {
    if (!strcmp (argv[i], "--threads") && i + 1 < argc)
      threads = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--scores") && i + 1 < argc)
      n_scores = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--cuda"))
      cuda = 1;
  }
  if (threads < 0)
    threads = cuda ? 0 : (int) sysconf (_SC_NPROCESSORS_ONLN);
  if (cuda && threads > 0) {
    fprintf (stderr, "vmaf-bench-libvmaf: libvmaf's CUDA path runs without a thread pool "
        "(--threads 0)\n");
    return 2;
  }
  const unsigned bytes = bpc > 8 ? 2 : 1;
  const size_t plane = (size_t) w * h * bytes;
  size_t ref_size, dist_size;
  uint8_t *ref = read_all (argv[5], &ref_size), *dist = read_all (argv[6], &dist_size);
  const unsigned distinct = ref_size / plane;
  if (!frames || !distinct || ref_size != dist_size || ref_size % plane)
    die ("the files do not hold whole frames of that size");

  VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = threads,
    .n_subsample = 0, .cpumask = 0, .gpumask = 0 };
  VmafContext *vmaf = NULL;
  VmafModel *model = NULL;
  VmafModelConfig mcfg = { .name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT };
  if (vmaf_init (&vmaf, cfg) || vmaf_model_load (&model, &mcfg, "vmaf_v0.6.1"))
    die ("vmaf_init / the built-in model vmaf_v0.6.1 failed");

#ifdef VMAF_BENCH_CUDA
  CUcontext ctx = NULL;
  CUdeviceptr *dref = NULL, *ddist = NULL;
  if (cuda) {
    CUdevice dev;
    VmafCudaState *state = NULL;
    if (!load_driver ()) {
      fprintf (stderr, "vmaf-bench-libvmaf: no CUDA driver (libcuda.so.1)\n");
      return 3;
    }
    if (cu.init (0) || cu.device_get (&dev, 0) || cu.primary_ctx_retain (&ctx, dev)
        || cu.ctx_push (ctx)) {
      fprintf (stderr, "vmaf-bench-libvmaf: no CUDA device\n");
      return 3;
    }
    VmafCudaConfiguration ccfg = { .cu_ctx = ctx };
    VmafCudaPictureConfiguration pcfg = { .pic_params = { w, h, bpc, VMAF_PIX_FMT_YUV400P },
      .pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE };
    if (vmaf_cuda_state_init (&state, ccfg) || vmaf_cuda_import_state (vmaf, state)
        || vmaf_cuda_preallocate_pictures (vmaf, pcfg))
      die ("libvmaf's CUDA state failed");
    /* libvmaf copied the state into its context. */
    free (state);
    dref = calloc (distinct, sizeof *dref);
    ddist = calloc (distinct, sizeof *ddist);
    if (!dref || !ddist)
      die ("out of memory");
    for (unsigned d = 0; d < distinct; d++) {
      dref[d] = upload (ref + d * plane, plane);
      ddist[d] = upload (dist + d * plane, plane);
    }
  }
#else
  if (cuda) {
    fprintf (stderr, "vmaf-bench-libvmaf: built without libvmaf's CUDA API\n");
    return 3;
  }
#endif
  if (vmaf_use_features_from_model (vmaf, model))
    die ("vmaf_use_features_from_model failed");

  /* The CPU's pictures are filled before the clock starts: libvmaf takes
   * ownership of each, so every frame needs its own. */
  VmafPicture *pics = NULL;
  if (!cuda) {
    pics = calloc ((size_t) frames * 2, sizeof *pics);
    for (unsigned i = 0; i < frames; i++) {
      if (vmaf_picture_alloc (&pics[2 * i], VMAF_PIX_FMT_YUV400P, bpc, w, h)
          || vmaf_picture_alloc (&pics[2 * i + 1], VMAF_PIX_FMT_YUV400P, bpc, w, h))
        die ("vmaf_picture_alloc failed");
      fill (&pics[2 * i], ref + (i % distinct) * plane, w, h, bytes);
      fill (&pics[2 * i + 1], dist + (i % distinct) * plane, w, h, bytes);
    }
  }

  const double t0 = now ();
  for (unsigned i = 0; i < frames; i++) {
    VmafPicture r, d;
    if (!cuda) {
      r = pics[2 * i];
      d = pics[2 * i + 1];
    }
#ifdef VMAF_BENCH_CUDA
    else {
      if (vmaf_cuda_fetch_preallocated_picture (vmaf, &r)
          || vmaf_cuda_fetch_preallocated_picture (vmaf, &d))
        die ("no preallocated picture");
      copy_plane (&r, dref[i % distinct], w, h, bytes);
      copy_plane (&d, ddist[i % distinct], w, h, bytes);
    }
#endif
    if (vmaf_read_pictures (vmaf, &r, &d, i))
      die ("vmaf_read_pictures failed");
  }
  if (vmaf_read_pictures (vmaf, NULL, NULL, 0))
    die ("flush failed");
  const double secs = now () - t0;

  printf ("libvmaf %s %s threads %d frames %u seconds %.6f ms_per_frame %.4f\n", vmaf_version (),
      cuda ? "cuda" : "cpu", threads, frames, secs, secs * 1000.0 / frames);
  for (unsigned i = 0; i < n_scores && i < frames; i++) {
    double s;
    if (vmaf_score_at_index (vmaf, model, &s, i))
      die ("no score");
    printf ("score %u %.17g\n", i, s);
  }
  vmaf_model_destroy (model);
  vmaf_close (vmaf);
#ifdef VMAF_BENCH_CUDA
  for (unsigned d = 0; cuda && d < distinct; d++) {
    cu.mem_free (dref[d]);
    cu.mem_free (ddist[d]);
  }
  free (dref);
  free (ddist);
#endif
  free (pics);
  free (ref);
  free (dist);
  return 0;
}
