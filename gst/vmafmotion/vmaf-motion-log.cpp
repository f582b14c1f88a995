/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-motion-log.h"

#include <math.h>
#include <string.h>

namespace gpc {

static const char *const kFeature[3] = { "integer_motion", "integer_motion2", "integer_motion3" };
static const char *const kPoolName[4] = { "min", "max", "mean", "harmonic_mean" };

bool motion_log_format_from_string (const char *s, MotionLogFormat *fmt)
{
  if (!s)
    return false;
  if (!strcmp (s, "xml"))
    *fmt = MotionLogFormat::XML;
  else if (!strcmp (s, "json"))
    *fmt = MotionLogFormat::JSON;
  else if (!strcmp (s, "csv"))
    *fmt = MotionLogFormat::CSV;
  else
    return false;
  return true;
}

std::string motion_log_number (double v)
{
  if (!isfinite (v))
    return "null";
  double frac = fabs (v) - (double) (long long) fabs (v);
  int zeros = 0;
  while (frac != 0 && frac < 1.0) {
    frac *= 10;
    zeros++;
  }
  char buf[64];
  snprintf (buf, sizeof buf, zeros <= 6 ? "%.6f" : "%.16f", v);
  return buf;
}

MotionLogWriter::~MotionLogWriter ()
{
  if (f_)
    fclose (f_);
}

bool MotionLogWriter::open (const std::string &path, MotionLogFormat fmt,
    unsigned width, unsigned height)
{
  f_ = fopen (path.c_str (), "w");
  if (!f_)
    return false;
  fmt_ = fmt;
  frames_ = 0;
  switch (fmt_) {
    case MotionLogFormat::XML:
      fprintf (f_, "<VMAF version=\"gst-gpucodecs vkvmafmotion\">\n");
      fprintf (f_, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n", width, height);
      fprintf (f_, "  <frames>\n");
      break;
    case MotionLogFormat::JSON:
      fprintf (f_, "{\n  \"version\": \"gst-gpucodecs vkvmafmotion\",\n  \"frames\": [");
      break;
    case MotionLogFormat::CSV:
      fprintf (f_, "Frame,%s,%s,%s,\n", kFeature[0], kFeature[1], kFeature[2]);
      break;
  }
  return true;
}

void MotionLogWriter::frame (const MotionFrameResult &r)
{
  if (!f_)
    return;
  const double v[3] = { r.motion, r.motion2, r.motion3 };
  switch (fmt_) {
    case MotionLogFormat::XML:
      fprintf (f_, "    <frame frameNum=\"%llu\" ", (unsigned long long) r.index);
      for (int k = 0; k < 3; k++)
        fprintf (f_, "%s=\"%s\" ", kFeature[k], motion_log_number (v[k]).c_str ());
      fprintf (f_, "/>\n");
      break;
    case MotionLogFormat::JSON:
      fprintf (f_, "%s    {\n      \"frameNum\": %llu,\n      \"metrics\": {\n",
          frames_ ? ",\n" : "\n", (unsigned long long) r.index);
      for (int k = 0; k < 3; k++)
        fprintf (f_, "        \"%s\": %s%s\n", kFeature[k], motion_log_number (v[k]).c_str (),
            k < 2 ? "," : "");
      fprintf (f_, "      }\n    }");
      break;
    case MotionLogFormat::CSV:
      fprintf (f_, "%llu,", (unsigned long long) r.index);
      for (int k = 0; k < 3; k++)
        fprintf (f_, "%s,", motion_log_number (v[k]).c_str ());
      fprintf (f_, "\n");
      break;
  }
  frames_++;
}

bool MotionLogWriter::close (const MotionScorer &scorer, double fps)
{
  if (!f_)
    return true;
  auto pooled = [&] (int k, int m) {
    const MotionPool &p = scorer.pool (k);
    double v = m == 0 ? p.min : m == 1 ? p.max : m == 2 ? p.mean () : p.harmonic_mean ();
    return motion_log_number (v);
  };
  switch (fmt_) {
    case MotionLogFormat::XML:
      fprintf (f_, "  </frames>\n  <fyi fps=\"%.2f\" />\n  <pooled_metrics>\n", fps);
      for (int k = 0; k < 3; k++) {
        fprintf (f_, "    <metric name=\"%s\" ", kFeature[k]);
        for (int m = 0; m < 4; m++)
          fprintf (f_, "%s=\"%s\" ", kPoolName[m], pooled (k, m).c_str ());
        fprintf (f_, "/>\n");
      }
      fprintf (f_, "  </pooled_metrics>\n  <aggregate_metrics />\n</VMAF>\n");
      break;
    case MotionLogFormat::JSON:
      fprintf (f_, "\n  ],\n  \"fps\": %.2f,\n  \"pooled_metrics\": {", fps);
      for (int k = 0; k < 3; k++) {
        fprintf (f_, "%s    \"%s\": {", k ? ",\n" : "\n", kFeature[k]);
        for (int m = 0; m < 4; m++)
          fprintf (f_, "%s      \"%s\": %s", m ? ",\n" : "\n", kPoolName[m], pooled (k, m).c_str ());
        fprintf (f_, "\n    }");
      }
      fprintf (f_, "\n  },\n  \"aggregate_metrics\": {\n  }\n}\n");
      break;
    case MotionLogFormat::CSV:
      break;
  }
  bool ok = !ferror (f_);
  ok = fclose (f_) == 0 && ok;
  f_ = nullptr;
  return ok;
}

} // namespace gpc
