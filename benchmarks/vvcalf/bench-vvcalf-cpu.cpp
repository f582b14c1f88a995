/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Single-thread timing of the CPU reference ALF (luma + chroma ALF + CC-ALF
 * on every CTB) at 1080p and 2160p, 10-bit 4:2:0. The baseline that the
 * vkvvcalf benchmark will compare against.
 *
 *   bench-vvcalf-cpu [frames per size (default 5)]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <vector>

#include "vvcalf-builder.h"
#include "vvcalf-ref.h"

static double now_s ()
{
  timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Deterministic natural-ish content: smooth gradients plus texture. */
static void fill (std::vector<uint16_t> &p, int w, int h, int seed)
{
  uint32_t s = 0x9e3779b9u * (uint32_t) (seed + 1);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      s = s * 1664525u + 1013904223u;
      int v = 512 + ((x * 3 + y * 2 + seed * 97) % 256) - 128 + (int) ((s >> 24) & 31) - 16;
      if ((x / 37 + y / 23) & 1)
        v += ((x + y) & 4) ? 60 : -60;
      p[(size_t) y * w + x] = (uint16_t) (v < 0 ? 0 : v > 1023 ? 1023 : v);
    }
}

static int run (unsigned width, unsigned height, int frames)
{
  gpc::VvcAlfSyntheticConfig cfg;
  cfg.width = width;
  cfg.height = height;
  cfg.chroma_format = GST_VVC_ALF_CHROMA_420;
  cfg.bit_depth = 10;
  cfg.ctb_size = 128;
  cfg.fixed_set = 5;
  cfg.y = cfg.cb = cfg.cr = cfg.cc_cb = cfg.cc_cr = true;
  gpc::VvcAlfParams params;
  std::string err;
  if (!gpc::vvc_alf_build_synthetic (cfg, params, err)) {
    fprintf (stderr, "parameters: %s\n", err.c_str ());
    return 1;
  }
  const int w[3] = { (int) width, (int) width / 2, (int) width / 2 };
  const int h[3] = { (int) height, (int) height / 2, (int) height / 2 };
  std::vector<uint16_t> in[3], out[3];
  gpc::VvcAlfPlane ip[3];
  gpc::VvcAlfOutPlane op[3];
  for (int i = 0; i < 3; i++) {
    in[i].resize ((size_t) w[i] * h[i]);
    out[i].resize ((size_t) w[i] * h[i]);
    fill (in[i], w[i], h[i], i);
    ip[i] = { in[i].data (), w[i] };
    op[i] = { out[i].data (), w[i] };
  }
  gpc::vvc_alf_apply (params, ip, op);  /* warm-up */
  double best = 1e9, total = 0;
  for (int f = 0; f < frames; f++) {
    double t0 = now_s ();
    gpc::vvc_alf_apply (params, ip, op);
    double dt = now_s () - t0;
    total += dt;
    best = dt < best ? dt : best;
  }
  const double samples = (double) width * height * 1.5;
  printf ("cpu-reference %ux%u 10-bit 4:2:0 Y+Cb+Cr+CC-ALF: %d frames, mean %.1f ms, best %.1f ms, "
      "%.1f fps, %.1f Msamples/s\n", width, height, frames, total / frames * 1e3, best * 1e3,
      frames / total, samples * frames / total / 1e6);
  return 0;
}

int main (int argc, char **argv)
{
  int frames = argc > 1 ? atoi (argv[1]) : 5;
  if (frames < 1)
    frames = 1;
  int rc = run (1920, 1080, frames);
  rc |= run (3840, 2160, frames);
  return rc;
}
