/* What vmaf-bench-libvmaf.c (the command line, libvmaf's CPU runs) and
 * vmaf-bench-libvmaf-cuda.c (libvmaf's CUDA path and its self-test) share. */
#ifndef VMAF_BENCH_LIBVMAF_H
#define VMAF_BENCH_LIBVMAF_H

#include <stddef.h>
#include <stdint.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/model.h>

/* The clip: D distinct frame pairs, frame i being pair i % D. */
typedef struct {
  unsigned w, h, bpc, bytes, distinct;
  size_t plane;
  const uint8_t *ref, *dist;
} Clip;

double now (void);
void die (const char *what);
const uint8_t *clip_frame (const Clip *c, int dist, unsigned i);
VmafContext *open_vmaf (int threads);
VmafModel *open_model (void);
/* libvmaf's CPU extractors on the model, over frames 0..frames-1, flushed;
 * timed when seconds is given. */
void run_cpu (const Clip *c, unsigned frames, int threads, VmafContext **vmaf, VmafModel **model,
    double *seconds);

/* vmaf-bench-libvmaf-cuda.c, built when libvmaf has its CUDA API. The timed
 * CUDA run (3 without a driver or device), and the self-test (--cuda-selftest). */
int run_cuda (const Clip *c, unsigned frames, VmafContext **vmaf, VmafModel **model,
    double *seconds);
int cuda_selftest (const Clip *c, unsigned frames);

#endif
