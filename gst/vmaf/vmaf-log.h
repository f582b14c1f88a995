/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A VMAF results file in the layout of libvmaf's xml / json / csv logs: every
 * scored frame's values, then the pooled min / max / mean / harmonic mean of
 * each. Frames stream into a temporary file beside the destination; close()
 * writes the whole log to another temporary file there and renames it over
 * the destination, so readers never see a partial log.
 */
#pragma once

#include <stdio.h>

#include <string>
#include <vector>

#include "vmaf-scorer.h"

namespace gpc {

enum class VmafLogFormat { XML, JSON, CSV };

class VmafLogWriter {
 public:
  ~VmafLogWriter ();
  /* False, with *error, when the temporary file cannot be created. */
  bool open (const std::string &path, VmafLogFormat format, const std::vector<std::string> &columns,
      std::string *error);
  bool is_open () const { return frames_ != nullptr; }
  void frame (const VmafFrameResult &r);
  /* Writes the log (`fps`: frames processed per second) and replaces the
   * destination; false, with *error, when that fails (the destination is
   * then left as it was). */
  bool close (const VmafScorer &scorer, unsigned width, unsigned height, double fps,
      std::string *error);
  /* Drops everything written so far (errors, flushing stops). */
  void abandon ();

 private:
  std::string path_, frames_path_;
  FILE *frames_ = nullptr;
  VmafLogFormat format_ = VmafLogFormat::XML;
  std::vector<std::string> columns_;
  uint64_t rows_ = 0;
};

} // namespace gpc
