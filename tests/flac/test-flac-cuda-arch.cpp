/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Which GPUs the kernel module of cudaflacdec runs on (flac-cuda-arch.h):
 * the decision behind the element's error ("compute capability X.Y, built
 * for ...") checked for every NVIDIA generation, without a GPU.
 */
#include <stdio.h>

#include "flac-cuda-arch.h"
#include "flac-test-util.h"

using namespace gpc::flac;

int main ()
{
  const char *def = "75;80;86;89;90";
  struct Case {
    int major, minor;
    bool runs;
    const char *gpu;
  } cases[] = {
    { 5, 2, false, "Maxwell" }, { 6, 1, false, "Pascal" }, { 7, 0, false, "Volta" },
    { 7, 2, false, "Xavier" }, { 7, 5, true, "Turing (T4, RTX 20)" }, { 8, 0, true, "A100" },
    { 8, 6, true, "A10, RTX 30" }, { 8, 7, true, "Orin (sm_86 code)" }, { 8, 9, true, "L4, RTX 40" },
    { 9, 0, true, "H100, H200" }, { 10, 0, true, "B200 (PTX)" }, { 12, 0, true, "RTX 50 (PTX)" },
  };
  for (const Case &c : cases)
    CHECK (cuda_module_runs_on (def, 90, c.major, c.minor) == c.runs, "%s: %d.%d", c.gpu, c.major, c.minor);
  /* without PTX, nothing newer than the SASS of the same major */
  CHECK (!cuda_module_runs_on (def, 0, 10, 0), "no PTX: 10.0");
  CHECK (cuda_module_runs_on (def, 0, 9, 0), "no PTX: 9.0");
  /* a build for Hopper only (the old default) */
  CHECK (!cuda_module_runs_on ("90", 90, 8, 6), "sm_90 only: 8.6");
  CHECK (cuda_module_runs_on ("90", 90, 9, 0), "sm_90 only: 9.0");
  /* SASS of a later minor does not run on an earlier one */
  CHECK (!cuda_module_runs_on ("86", 0, 8, 0), "sm_86 on 8.0");
  CHECK (cuda_arch_list (" 75;x;;80 ").size () == 1, "list parsing: %zu", cuda_arch_list (" 75;x;;80 ").size ());
  CHECK (cuda_arch_list ("75;80").size () == 2, "list parsing");
  std::string d = cuda_archs_description (def, 90);
  CHECK (d == "sm_75 sm_80 sm_86 sm_89 sm_90, PTX compute_90", "description '%s'", d.c_str ());
#ifdef GPC_CUDA_ARCHS
  /* what this build holds (tests/flac/check-fatbin-archs.py reads the module itself) */
  printf ("this build: %s\n", cuda_archs_description (GPC_CUDA_ARCHS, GPC_CUDA_PTX_ARCH).c_str ());
  CHECK (cuda_module_runs_on (GPC_CUDA_ARCHS, GPC_CUDA_PTX_ARCH, GPC_CUDA_PTX_ARCH / 10, GPC_CUDA_PTX_ARCH % 10),
      "this build does not run on its own newest architecture");
#endif
  printf ("%s\n", flac_test::failures ? "FAILED" : "all cases pass");
  return flac_test::failures ? 1 : 0;
}
