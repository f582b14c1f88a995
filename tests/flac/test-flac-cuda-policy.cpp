/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * backend=auto's choice between the CPU and CUDA for a one-shot decode
 * (flac-cuda-policy.h), on the cases measured on the H200 host (16 cores)
 * and on a machine of a few cores, without a GPU; and what the streaming
 * thread does while the CUDA start-up thread runs, for backend=cuda and auto.
 */
#include <stdio.h>

#include "flac-cuda-policy.h"
#include "flac-test-util.h"

using namespace gpc::flac;

int main ()
{
  const double stereo16 = 4, six24 = 24; /* output bytes per sample, all channels */
  const uint64_t min77 = 4620ull * 48000, song = 180ull * 44100, six = 600ull * 96000;
  /* 16 cores: 77 minutes of 16-bit stereo decode in about 0.85 s; the
   * first 2% measured */
  CudaChoice c = choose_cuda (0.017, min77 / 50, min77, stereo16, false);
  CHECK (!c.decided, "too short a measure");
  c = choose_cuda (0.06, min77 * 6 / 100, min77, stereo16, false);
  CHECK (c.decided && !c.start, "16 cores, 77 min, no MD5: CPU %.2f s, GPU %.2f s", c.cpu_left_s, c.gpu_bound_s);
  /* 4 cores: four times as slow */
  c = choose_cuda (0.06, min77 * 6 / 400, min77, stereo16, false);
  CHECK (c.decided && c.start, "4 cores, 77 min, no MD5: CPU %.2f s, GPU %.2f s", c.cpu_left_s, c.gpu_bound_s);
  /* with the MD5, hashing bounds both on 16 cores; on 4 cores the GPU still pays */
  c = choose_cuda (0.06, min77 * 6 / 100, min77, stereo16, true);
  CHECK (c.decided && !c.start, "16 cores, MD5: CPU %.2f s, bound %.2f s", c.cpu_left_s, c.gpu_bound_s);
  c = choose_cuda (0.06, min77 * 6 / 400, min77, stereo16, true);
  CHECK (c.decided && c.start, "4 cores, MD5: CPU %.2f s, bound %.2f s", c.cpu_left_s, c.gpu_bound_s);
  /* a 3-minute song never pays for CUDA's start, even on 2 cores */
  c = choose_cuda (0.06, song / 2, song, stereo16, false);
  CHECK (c.decided && !c.start, "song: CPU %.2f s", c.cpu_left_s);
  /* 24-bit 6 channels, 10 minutes, 16 cores: 1.2 s on the CPU, about as long as moving the PCM */
  c = choose_cuda (0.06, six / 20, six, six24, false);
  CHECK (c.decided && !c.start, "6 ch, 16 cores: CPU %.2f s, GPU %.2f s", c.cpu_left_s, c.gpu_bound_s);
  /* length unknown: CUDA after a second of CPU decoding */
  c = choose_cuda (0.5, 1000000, 0, stereo16, false);
  CHECK (!c.decided, "unknown length, 0.5 s");
  c = choose_cuda (1.0, 2000000, 0, stereo16, false);
  CHECK (c.decided && c.start, "unknown length, 1 s");
  /* at the end of the stream: nothing left to win */
  c = choose_cuda (1.0, min77, min77, stereo16, false);
  CHECK (c.decided && !c.start, "at the end");
  printf ("backend=auto's CPU/CUDA choice: all cases as measured\n");

  /* While the CUDA start-up thread runs: backend=cuda never decodes on the
   * CPU but for live input before CUDA is ready, and never falls back */
  using S = CudaStartup;
  using T = CudaStartStep;
  struct Case {
    bool required, live, at_eos;
    S s;
    T want;
  } cases[] = {
    { true, false, false, S::kUnderWay, T::kWait },   /* as if made in start() */
    { true, true, false, S::kUnderWay, T::kCpu },     /* live: the first buffers at once */
    { true, true, true, S::kUnderWay, T::kWait },     /* a live stream's end hears the outcome */
    { true, false, false, S::kReady, T::kAdopt },
    { true, true, false, S::kReady, T::kAdopt },      /* live too: CUDA was asked for */
    { true, false, false, S::kFailed, T::kFail },
    { true, true, false, S::kFailed, T::kFail },
    { true, true, true, S::kFailed, T::kFail },
    { false, false, false, S::kUnderWay, T::kCpu },   /* auto: the CPU while it starts */
    { false, false, true, S::kUnderWay, T::kCpu },
    { false, false, false, S::kReady, T::kAdopt },
    { false, false, false, S::kFailed, T::kFallBack },
    { false, true, false, S::kReady, T::kCpu },       /* auto, live: the CPU */
    { false, true, false, S::kFailed, T::kCpu },
  };
  for (const Case &k : cases) {
    T got = cuda_start_step (k.required, k.live, k.at_eos, k.s);
    CHECK (got == k.want, "backend=%s live %d eos %d startup %d: step %d, want %d", k.required ? "cuda" : "auto",
        k.live, k.at_eos, (int) k.s, (int) got, (int) k.want);
  }
  printf ("CUDA start-up steps: all %zu cases as specified\n", sizeof cases / sizeof cases[0]);
  return 0;
}
