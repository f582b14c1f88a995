/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Which GPUs the FLAC kernel module can run on. The module holds real code
 * (SASS) for each architecture of the meson option cuda-archs and PTX of the
 * newest: SASS built for sm_XY runs on compute capability X.Z for Z >= Y
 * (the same major version), and the driver compiles PTX of compute_XY for
 * any GPU of capability XY or later. Plain host code, so that the decision
 * and the message a user sees are tested without a GPU.
 */
#pragma once

#include <stdlib.h>

#include <string>
#include <vector>

namespace gpc {
namespace flac {

/* "75;80;86" -> {75, 80, 86}; entries that are not numbers are left out. */
inline std::vector<int> cuda_arch_list (const char *archs)
{
  std::vector<int> out;
  std::string s (archs ? archs : "");
  size_t pos = 0;
  while (pos <= s.size ()) {
    size_t end = s.find (';', pos);
    if (end == std::string::npos)
      end = s.size ();
    std::string item = s.substr (pos, end - pos);
    char *rest = nullptr;
    long v = strtol (item.c_str (), &rest, 10);
    if (!item.empty () && rest && *rest == '\0' && v > 0)
      out.push_back ((int) v);
    pos = end + 1;
  }
  return out;
}

/* Can a module of SASS for `archs` and PTX of `ptx_arch` (0: none) run on
 * a GPU of compute capability major.minor? */
inline bool cuda_module_runs_on (const char *archs, int ptx_arch, int major, int minor)
{
  const int cc = major * 10 + minor;
  for (int a : cuda_arch_list (archs))
    if (a / 10 == major && a % 10 <= minor)
      return true;
  return ptx_arch > 0 && cc >= ptx_arch;
}

/* "sm_75 sm_80 sm_86 sm_89 sm_90, PTX compute_90" */
inline std::string cuda_archs_description (const char *archs, int ptx_arch)
{
  std::string d;
  for (int a : cuda_arch_list (archs))
    d += (d.empty () ? "sm_" : " sm_") + std::to_string (a);
  if (ptx_arch > 0)
    d += (d.empty () ? "PTX compute_" : ", PTX compute_") + std::to_string (ptx_arch);
  return d;
}

} // namespace flac
} // namespace gpc
