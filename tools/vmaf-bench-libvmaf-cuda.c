/* vmaf-bench-libvmaf's CUDA path: libvmaf's CUDA extractors fed device to
 * device (--cuda), and the self-test of that path (--cuda-selftest); see
 * vmaf-bench-libvmaf.c for both. Built only against a libvmaf with its CUDA
 * API; the NVIDIA driver is opened at run time. */

#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda.h>
#include <dlfcn.h>
#include <libvmaf/libvmaf_cuda.h>

#include "vmaf-bench-libvmaf.h"

/* The self-test's rows: vmaf_v0.6.1's features, then its score. */
enum { N_FEATURES = 6, ROW_VMAF = N_FEATURES, N_ROWS, SELFTEST_MAX_FRAMES = 32 };
static const char *const feature_names[N_FEATURES] = {
  "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score",
  "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
  "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
};

typedef struct {
  double v[N_ROWS][SELFTEST_MAX_FRAMES];
  int have[N_ROWS][SELFTEST_MAX_FRAMES];
} Scores;

/* Rows [first, last) of a flushed context's scores (ROW_VMAF needs model). */
static void
collect (VmafContext *vmaf, VmafModel *model, unsigned frames, int first, int last, Scores *out)
{
  for (int r = first; r < last; r++)
    for (unsigned i = 0; i < frames; i++)
      out->have[r][i] = r == ROW_VMAF ? !vmaf_score_at_index (vmaf, model, &out->v[r][i], i)
          : !vmaf_feature_score_at_index (vmaf, feature_names[r], &out->v[r][i], i);
}

/* The driver is opened at run time (as libvmaf does), so that the CPU runs
 * need no NVIDIA driver. Members carry the calls' names (cuda.h maps some to
 * their _v2 symbols), so that CU() can name a failing call. */
static struct {
  CUresult (*cuInit) (unsigned);
  CUresult (*cuDriverGetVersion) (int *);
  CUresult (*cuDeviceGet) (CUdevice *, int);
  CUresult (*cuDeviceGetName) (char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute) (int *, CUdevice_attribute, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain) (CUcontext *, CUdevice);
  CUresult (*cuCtxPushCurrent) (CUcontext);
  CUresult (*cuCtxSynchronize) (void);
  CUresult (*cuMemAlloc) (CUdeviceptr *, size_t);
  CUresult (*cuMemcpyHtoD) (CUdeviceptr, const void *, size_t);
  CUresult (*cuMemFree) (CUdeviceptr);
  CUresult (*cuMemcpy2D) (const CUDA_MEMCPY2D *);
  CUresult (*cuGetErrorName) (CUresult, const char **);
  CUresult (*cuGetErrorString) (CUresult, const char **);
} cu;

static int
load_driver (void)
{
  void *lib = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib)
    return 0;
  static const char *const symbols[] = { "cuInit", "cuDriverGetVersion", "cuDeviceGet",
    "cuDeviceGetName", "cuDeviceGetAttribute", "cuDevicePrimaryCtxRetain", "cuCtxPushCurrent_v2",
    "cuCtxSynchronize", "cuMemAlloc_v2", "cuMemcpyHtoD_v2", "cuMemFree_v2", "cuMemcpy2D_v2",
    "cuGetErrorName", "cuGetErrorString" };
  void **slot = (void **) &cu;
  for (size_t i = 0; i < sizeof symbols / sizeof *symbols; i++)
    if (!(slot[i] = dlsym (lib, symbols[i])))
      return 0;
  return 1;
}

static void
cu_check (CUresult r, const char *call, const char *when)
{
  if (r == CUDA_SUCCESS)
    return;
  const char *name = "?", *text = "";
  cu.cuGetErrorName (r, &name);
  cu.cuGetErrorString (r, &text);
  fprintf (stderr, "vmaf-bench-libvmaf: %s%s%s failed: %s (%d): %s\n", call, when ? " " : "",
      when ? when : "", name, (int) r, text);
  exit (1);
}
#define CU(call, ...) cu_check (cu.call (__VA_ARGS__), #call, NULL)

/* Device 0's primary context, current on this thread; 0 without one. */
static int
open_device (CUcontext *ctx, int verbose)
{
  CUdevice dev;
  if (!load_driver () || cu.cuInit (0) || cu.cuDeviceGet (&dev, 0)
      || cu.cuDevicePrimaryCtxRetain (ctx, dev) || cu.cuCtxPushCurrent (*ctx))
    return 0;
  if (verbose) {
    char name[256] = "?";
    int version = 0, major = 0, minor = 0;
    CU (cuDriverGetVersion, &version);
    CU (cuDeviceGetName, name, sizeof name, dev);
    CU (cuDeviceGetAttribute, &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    CU (cuDeviceGetAttribute, &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    printf ("device 0: %s, compute capability %d.%d, CUDA driver API %d.%d\n", name, major, minor,
        version / 1000, version % 1000 / 10);
  }
  return 1;
}

/* libvmaf's CUDA state on ctx and its ring of device pictures. */
static void
attach_cuda (VmafContext *vmaf, CUcontext ctx, const Clip *c)
{
  VmafCudaState *state = NULL;
  VmafCudaConfiguration ccfg = { .cu_ctx = ctx };
  VmafCudaPictureConfiguration pcfg = { .pic_params = { c->w, c->h, c->bpc,
      VMAF_PIX_FMT_YUV400P }, .pic_prealloc_method = VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE };
  if (vmaf_cuda_state_init (&state, ccfg) || vmaf_cuda_import_state (vmaf, state)
      || vmaf_cuda_preallocate_pictures (vmaf, pcfg))
    die ("libvmaf's CUDA state failed");
  /* libvmaf copied the state into its context. */
  free (state);
}

/* The distinct frames in device memory, and the copies into libvmaf's
 * preallocated device pictures. The copy runs on the legacy default stream:
 * libvmaf's device pictures carry blocking streams (CU_STREAM_DEFAULT), on
 * which its extractors read the pictures, so their kernels start after the
 * copy; and fetching a picture waits until libvmaf has finished with its
 * previous frame. */
static CUdeviceptr *
upload (const Clip *c)
{
  CUdeviceptr *d = calloc (2 * c->distinct, sizeof *d);
  if (!d)
    die ("out of memory");
  for (unsigned i = 0; i < 2 * c->distinct; i++) {
    CU (cuMemAlloc, &d[i], c->plane);
    CU (cuMemcpyHtoD, d[i], clip_frame (c, i & 1, i / 2), c->plane);
  }
  return d;
}

static void
release (const Clip *c, CUdeviceptr *d)
{
  for (unsigned i = 0; i < 2 * c->distinct; i++)
    CU (cuMemFree, d[i]);
  free (d);
}

static void
copy_plane (VmafPicture *pic, CUdeviceptr src, const Clip *c)
{
  CUDA_MEMCPY2D m;
  memset (&m, 0, sizeof m);
  m.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  m.srcDevice = src;
  m.srcPitch = (size_t) c->w * c->bytes;
  m.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  m.dstDevice = (CUdeviceptr) pic->data[0];
  m.dstPitch = pic->stride[0];
  m.WidthInBytes = (size_t) c->w * c->bytes;
  m.Height = c->h;
  CU (cuMemcpy2D, &m);
}

/* Fetches frame i's two device pictures and fills them. */
static void
feed_frame (VmafContext *vmaf, const Clip *c, const CUdeviceptr *d, unsigned i, VmafPicture *r,
    VmafPicture *dp)
{
  if (vmaf_cuda_fetch_preallocated_picture (vmaf, r)
      || vmaf_cuda_fetch_preallocated_picture (vmaf, dp))
    die ("no preallocated picture");
  copy_plane (r, d[2 * (i % c->distinct)], c);
  copy_plane (dp, d[2 * (i % c->distinct) + 1], c);
}

int
run_cuda (const Clip *c, unsigned frames, VmafContext **vmaf_out, VmafModel **model_out,
    double *seconds)
{
  CUcontext ctx;
  if (!open_device (&ctx, 0))
    return 3;
  VmafContext *vmaf = open_vmaf (0);
  VmafModel *model = open_model ();
  attach_cuda (vmaf, ctx, c);
  if (vmaf_use_features_from_model (vmaf, model))
    die ("vmaf_use_features_from_model failed");
  CUdeviceptr *d = upload (c);
  const double t0 = now ();
  for (unsigned i = 0; i < frames; i++) {
    VmafPicture r, dp;
    feed_frame (vmaf, c, d, i, &r, &dp);
    if (vmaf_read_pictures (vmaf, &r, &dp, i))
      die ("vmaf_read_pictures failed");
  }
  if (vmaf_read_pictures (vmaf, NULL, NULL, 0))
    die ("flush failed");
  *seconds = now () - t0;
  /* An asynchronous fault in libvmaf's kernels would otherwise pass
   * unnoticed when it came after libvmaf's last checked call. */
  cu_check (cu.cuCtxSynchronize (), "cuCtxSynchronize", "after the flush");
  release (c, d);
  *vmaf_out = vmaf;
  *model_out = model;
  return 0;
}

/* Self-test: the device picture, read back, must equal the host frame. */
static void
verify_picture (const VmafPicture *pic, const uint8_t *host, const Clip *c, const char *what,
    unsigned i, int describe)
{
  if (describe)
    printf ("  device picture: %ux%u, %u bpc, pix_fmt %d, stride %td bytes, planes 1/2 %s\n",
        pic->w[0], pic->h[0], pic->bpc, (int) pic->pix_fmt, pic->stride[0],
        pic->data[1] || pic->data[2] ? "allocated" : "absent");
  if (pic->w[0] != c->w || pic->h[0] != c->h || pic->bpc != c->bpc
      || pic->stride[0] < (ptrdiff_t) (c->w * c->bytes)) {
    printf ("  frame %u %s: the device picture's geometry is not the clip's\n", i, what);
    exit (1);
  }
  uint8_t *back = malloc (c->plane);
  if (!back)
    die ("out of memory");
  CUDA_MEMCPY2D m;
  memset (&m, 0, sizeof m);
  m.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  m.srcDevice = (CUdeviceptr) pic->data[0];
  m.srcPitch = pic->stride[0];
  m.dstMemoryType = CU_MEMORYTYPE_HOST;
  m.dstHost = back;
  m.dstPitch = (size_t) c->w * c->bytes;
  m.WidthInBytes = (size_t) c->w * c->bytes;
  m.Height = c->h;
  CU (cuMemcpy2D, &m);
  for (size_t k = 0; k < c->plane; k++)
    if (back[k] != host[k]) {
      printf ("  frame %u %s: device picture differs from the host frame at byte %zu (row %zu)\n",
          i, what, k, k / (c->w * c->bytes));
      exit (1);
    }
  free (back);
}

/* One self-test part, in a child: libvmaf's CUDA extractor `feature` alone
 * (NULL: the model's), rows [first, last) into out. */
static int
cuda_part (const Clip *c, unsigned frames, const char *feature, int first, int last, int describe,
    Scores *out)
{
  CUcontext ctx;
  if (!open_device (&ctx, describe))
    die ("no CUDA driver or device");
  VmafContext *vmaf = open_vmaf (0);
  VmafModel *model = feature ? NULL : open_model ();
  attach_cuda (vmaf, ctx, c);
  if (feature ? vmaf_use_feature (vmaf, feature, NULL) : vmaf_use_features_from_model (vmaf, model))
    die ("libvmaf's CUDA extractors failed to register");
  CUdeviceptr *d = upload (c);
  char when[64];
  for (unsigned i = 0; i < frames; i++) {
    VmafPicture r, dp;
    feed_frame (vmaf, c, d, i, &r, &dp);
    snprintf (when, sizeof when, "after frame %u's copies", i);
    cu_check (cu.cuCtxSynchronize (), "cuCtxSynchronize", when);
    verify_picture (&r, clip_frame (c, 0, i), c, "reference", i, i == 0 && describe);
    verify_picture (&dp, clip_frame (c, 1, i), c, "distorted", i, 0);
    if (vmaf_read_pictures (vmaf, &r, &dp, i))
      die ("vmaf_read_pictures failed");
    /* An extractor's out-of-bounds access surfaces here, named, rather than
     * in a later libvmaf call (as a failed cuModuleLoadData, say). */
    snprintf (when, sizeof when, "after libvmaf's frame %u", i);
    cu_check (cu.cuCtxSynchronize (), "cuCtxSynchronize", when);
  }
  printf ("  %u frames' device pictures equal the host frames; no CUDA error\n", frames);
  if (vmaf_read_pictures (vmaf, NULL, NULL, 0))
    die ("flush failed");
  cu_check (cu.cuCtxSynchronize (), "cuCtxSynchronize", "after the flush");
  collect (vmaf, model, frames, first, last, out);
  if (model)
    vmaf_model_destroy (model);
  vmaf_close (vmaf);
  release (c, d);
  return 0;
}

/* Prints rows [first, last) of cuda beside cpu; 1 when all were there and
 * agreed: a VMAF score within 0.01, a feature within 1e-3 of its value.
 * libvmaf's CUDA extractors are not bit-exact with its CPU ones (their
 * borders differ a little), so the bounds are loose enough for that and
 * tight enough for a real fault, which costs whole VMAF points. */
static int
compare (const Scores *cuda, const Scores *cpu, unsigned frames, int first, int last)
{
  int ok = 1;
  for (int r = first; r < last; r++) {
    const char *name = r == ROW_VMAF ? "VMAF score" : feature_names[r];
    double worst = 0;
    for (unsigned i = 0; i < frames; i++) {
      if (!cuda->have[r][i] || !cpu->have[r][i]) {
        printf ("  %-40s frame %2u: %s\n", name, i, cuda->have[r][i] ? "no CPU score"
            : "no CUDA score");
        ok = 0;
        continue;
      }
      /* A NaN counts as the worst difference. */
      const double diff = fabs (cuda->v[r][i] - cpu->v[r][i]);
      if (!(diff <= worst))
        worst = diff;
      printf ("  %-40s frame %2u: cuda %.10f  cpu %.10f  diff %.3g\n", name, i, cuda->v[r][i],
          cpu->v[r][i], diff);
      if (!(diff <= (r == ROW_VMAF ? 1e-2 : 1e-3 * fmax (1.0, fabs (cpu->v[r][i])))))
        ok = 0;
    }
    printf ("  %-40s largest |cuda - cpu| %.3g\n", name, worst);
  }
  return ok;
}

int
cuda_selftest (const Clip *c, unsigned frames)
{
  static const struct {
    const char *feature;
    int first, last;
  } parts[] = {
    { "adm_cuda", 0, 1 }, { "motion_cuda", 1, 2 }, { "vif_cuda", 2, N_FEATURES },
    { NULL, 0, N_ROWS },
  };
  if (frames > SELFTEST_MAX_FRAMES)
    frames = SELFTEST_MAX_FRAMES;
  /* Only dlopen here: the parent never initialises CUDA (see below). */
  if (!load_driver ()) {
    fprintf (stderr, "vmaf-bench-libvmaf: no CUDA driver (libcuda.so.1)\n");
    return 3;
  }
  printf ("libvmaf %s CUDA self-test: %ux%u, %u bpc, luma only (YUV400P), %u frames "
      "(%u distinct)\n", vmaf_version (), c->w, c->h, c->bpc, frames, c->distinct);
  /* The CPU reference first, in this process, which never opens CUDA (the
   * children do, after the fork). */
  Scores *cpu = calloc (1, sizeof *cpu);
  VmafContext *vmaf;
  VmafModel *model;
  if (!cpu)
    die ("out of memory");
  run_cpu (c, frames, 0, &vmaf, &model, NULL);
  collect (vmaf, model, frames, 0, N_ROWS, cpu);
  vmaf_model_destroy (model);
  vmaf_close (vmaf);
  Scores *cuda = mmap (NULL, sizeof *cuda, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
      -1, 0);
  if (cuda == MAP_FAILED)
    die ("mmap failed");
  int all_ok = 1;
  for (size_t p = 0; p < sizeof parts / sizeof *parts; p++) {
    const char *label = parts[p].feature ? parts[p].feature : "the model (adm, motion, vif)";
    printf ("[%s]\n", label);
    memset (cuda, 0, sizeof *cuda);
    fflush (NULL);
    const pid_t pid = fork ();
    if (pid < 0)
      die ("fork failed");
    if (!pid)
      _exit (cuda_part (c, frames, parts[p].feature, parts[p].first, parts[p].last, p == 0,
          cuda));
    int status;
    if (waitpid (pid, &status, 0) != pid)
      die ("waitpid failed");
    if (WIFSIGNALED (status) || WEXITSTATUS (status)) {
      if (WIFSIGNALED (status))
        printf ("  FAILED: killed by signal %d (%s; libvmaf's \"code: N; description: NAME\" "
            "line above names the CUDA error it asserted on)\n", WTERMSIG (status),
            strsignal (WTERMSIG (status)));
      else
        printf ("  FAILED: exit status %d (the message above)\n", WEXITSTATUS (status));
      all_ok = 0;
      continue;
    }
    const int ok = compare (cuda, cpu, frames, parts[p].first, parts[p].last);
    printf ("  %s\n", ok ? "ok: CUDA agrees with the CPU" : "DIFFERS from the CPU");
    all_ok &= ok;
  }
  printf ("self-test: %s\n", all_ok ? "passed" : "FAILED");
  munmap (cuda, sizeof *cuda);
  free (cpu);
  return all_ok ? 0 : 1;
}
