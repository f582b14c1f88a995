/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Writes motion results in the layout of libvmaf's xml / json / csv logs
 * (feature names integer_motion, integer_motion2, integer_motion3), streaming
 * each frame as it completes and the pooled metrics at the end.
 */
#pragma once

#include <stdio.h>

#include <string>

#include "vmaf-motion-scorer.h"

namespace gpc {

enum class MotionLogFormat { XML, JSON, CSV };

/* Parses "xml", "json" or "csv"; false for anything else. */
bool motion_log_format_from_string (const char *s, MotionLogFormat *fmt);

/* libvmaf prints six decimals, or sixteen for values with more than six
 * leading zeros after the decimal point. */
std::string motion_log_number (double v);

class MotionLogWriter {
 public:
  ~MotionLogWriter ();
  /* Returns false (with errno set) when the file cannot be created. */
  bool open (const std::string &path, MotionLogFormat fmt, unsigned width,
      unsigned height);
  bool is_open () const { return f_ != nullptr; }
  void frame (const MotionFrameResult &r);
  /* Writes the pooled metrics and closes; `fps` is the processing rate. */
  bool close (const MotionScorer &scorer, double fps);

 private:
  FILE *f_ = nullptr;
  MotionLogFormat fmt_ = MotionLogFormat::XML;
  unsigned frames_ = 0;
};

} // namespace gpc
