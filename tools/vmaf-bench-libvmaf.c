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
 *                           [--cuda | --cuda-selftest] [--scores K]
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
 *   --cuda-selftest  checks that path on the first FRAMES frames (at most 32)
 *                instead of timing it: every device picture read back and
 *                compared with its host frame, the device synchronised after
 *                each frame (a failing CUDA call is named, with its error),
 *                and libvmaf's CUDA scores printed beside its CPU's: each CUDA
 *                extractor alone (adm_cuda, motion_cuda, vif_cuda), then the
 *                model. Each CUDA part runs in a child process, so that one
 *                that libvmaf aborts (its CHECK_CUDA asserts) leaves the others.
 *                Exit status 0 when every part ran and agreed with the CPU
 *                (VMAF within 0.01, each feature within 1e-3 of its value).
 *   --scores K   print the first K frames' scores (default 4)
 * Output: "libvmaf MODE threads N frames F seconds S ms_per_frame M", then
 * "score I VALUE" (%.17g) lines; exit status 0, 3 when --cuda is not
 * available (a libvmaf without CUDA, no driver or device), 1 on other failures.
 * stdout is line-buffered, so that libvmaf's own report of a failed CUDA call
 * ("code: N; description: NAME", printed before it aborts) is not lost. */

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "vmaf-bench-libvmaf.h"

double
now (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

void
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

const uint8_t *
clip_frame (const Clip *c, int dist, unsigned i)
{
  return (dist ? c->dist : c->ref) + (size_t) (i % c->distinct) * c->plane;
}

static void
fill (VmafPicture *pic, const uint8_t *plane, unsigned w, unsigned h, unsigned bytes)
{
  for (unsigned y = 0; y < h; y++)
    memcpy ((uint8_t *) pic->data[0] + y * pic->stride[0], plane + (size_t) y * w * bytes,
        (size_t) w * bytes);
}

VmafContext *
open_vmaf (int threads)
{
  VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_WARNING, .n_threads = threads,
    .n_subsample = 0, .cpumask = 0, .gpumask = 0 };
  VmafContext *vmaf = NULL;
  if (vmaf_init (&vmaf, cfg))
    die ("vmaf_init failed");
  return vmaf;
}

VmafModel *
open_model (void)
{
  VmafModel *model = NULL;
  VmafModelConfig mcfg = { .name = "vmaf", .flags = VMAF_MODEL_FLAGS_DEFAULT };
  if (vmaf_model_load (&model, &mcfg, "vmaf_v0.6.1"))
    die ("the built-in model vmaf_v0.6.1 failed to load");
  return model;
}

void
run_cpu (const Clip *c, unsigned frames, int threads, VmafContext **vmaf_out,
    VmafModel **model_out, double *seconds)
{
  VmafContext *vmaf = open_vmaf (threads);
  VmafModel *model = open_model ();
  if (vmaf_use_features_from_model (vmaf, model))
    die ("vmaf_use_features_from_model failed");
  /* The pictures are filled before the clock starts: libvmaf takes
   * ownership of each, so every frame needs its own. */
  VmafPicture *pics = calloc ((size_t) frames * 2, sizeof *pics);
  if (!pics)
    die ("out of memory");
  for (unsigned i = 0; i < 2 * frames; i++) {
    if (vmaf_picture_alloc (&pics[i], VMAF_PIX_FMT_YUV400P, c->bpc, c->w, c->h))
      die ("vmaf_picture_alloc failed");
    fill (&pics[i], clip_frame (c, i & 1, i / 2), c->w, c->h, c->bytes);
  }
  const double t0 = now ();
  for (unsigned i = 0; i < frames; i++)
    if (vmaf_read_pictures (vmaf, &pics[2 * i], &pics[2 * i + 1], i))
      die ("vmaf_read_pictures failed");
  if (vmaf_read_pictures (vmaf, NULL, NULL, 0))
    die ("flush failed");
  if (seconds)
    *seconds = now () - t0;
  free (pics);
  *vmaf_out = vmaf;
  *model_out = model;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  const int help = argc == 2 && (!strcmp (argv[1], "--help") || !strcmp (argv[1], "-h"));
  if (argc < 7) {
    fprintf (help ? stdout : stderr, "usage: %s WIDTH HEIGHT BPC FRAMES REF DIST [--threads N] "
        "[--cuda | --cuda-selftest] [--scores K]\nlibvmaf %s, CUDA extractors: %s\n", argv[0],
        vmaf_version (),
#ifdef VMAF_BENCH_CUDA
        "built in"
#else
        "not built in"
#endif
        );
    return help ? 0 : 2;
  }
  Clip c = { .w = atoi (argv[1]), .h = atoi (argv[2]), .bpc = atoi (argv[3]) };
  const unsigned frames = atoi (argv[4]);
  unsigned n_scores = 4;
  int threads = -1, cuda = 0, test = 0;
  for (int i = 7; i < argc; i++) {
    if (!strcmp (argv[i], "--threads") && i + 1 < argc)
      threads = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--scores") && i + 1 < argc)
      n_scores = atoi (argv[++i]);
    else if (!strcmp (argv[i], "--cuda"))
      cuda = 1;
    else if (!strcmp (argv[i], "--cuda-selftest"))
      cuda = test = 1;
  }
  if (threads < 0)
    threads = cuda ? 0 : (int) sysconf (_SC_NPROCESSORS_ONLN);
  if (cuda && threads > 0) {
    fprintf (stderr, "vmaf-bench-libvmaf: libvmaf's CUDA path runs without a thread pool "
        "(--threads 0)\n");
    return 2;
  }
  c.bytes = c.bpc > 8 ? 2 : 1;
  c.plane = (size_t) c.w * c.h * c.bytes;
  size_t ref_size, dist_size;
  uint8_t *ref = read_all (argv[5], &ref_size), *dist = read_all (argv[6], &dist_size);
  c.ref = ref;
  c.dist = dist;
  c.distinct = c.plane ? ref_size / c.plane : 0;
  if (!frames || !c.distinct || ref_size != dist_size || ref_size % c.plane)
    die ("the files do not hold whole frames of that size");

#ifndef VMAF_BENCH_CUDA
  if (cuda) {
    fprintf (stderr, "vmaf-bench-libvmaf: built without libvmaf's CUDA API\n");
    return 3;
  }
#else
  if (test) {
    const int status = cuda_selftest (&c, frames);
    free (ref);
    free (dist);
    return status;
  }
#endif

  VmafContext *vmaf = NULL;
  VmafModel *model = NULL;
  double secs = 0;
  if (!cuda)
    run_cpu (&c, frames, threads, &vmaf, &model, &secs);
#ifdef VMAF_BENCH_CUDA
  else if (run_cuda (&c, frames, &vmaf, &model, &secs)) {
    fprintf (stderr, "vmaf-bench-libvmaf: no CUDA driver (libcuda.so.1) or device\n");
    return 3;
  }
#endif

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
  free (ref);
  free (dist);
  return 0;
}
