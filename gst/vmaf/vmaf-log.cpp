/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "vmaf-log.h"

#include <errno.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "vmaf-motion-log.h"

namespace gpc {

namespace {

const char *const kPoolNames[4] = { "min", "max", "mean", "harmonic_mean" };
const VmafPoolMethod kPools[4] = { VmafPoolMethod::MIN, VmafPoolMethod::MAX,
  VmafPoolMethod::MEAN, VmafPoolMethod::HARMONIC_MEAN };
const char *const kVersion = "gst-gpucodecs vkvmaf";

/* A new temporary file beside `path` (same file system, so rename() is
 * atomic); NULL with *error. */
FILE *
temp_beside (const std::string &path, std::string *temp, std::string *error)
{
  std::string tmpl = path + ".XXXXXX";
  std::vector<char> name (tmpl.begin (), tmpl.end ());
  name.push_back ('\0');
  int fd = g_mkstemp (name.data ());
  if (fd < 0) {
    *error = path + ": " + g_strerror (errno);
    return nullptr;
  }
  *temp = name.data ();
  FILE *f = fdopen (fd, "w+");
  if (!f) {
    *error = path + ": " + g_strerror (errno);
    ::close (fd);
    g_unlink (temp->c_str ());
  }
  return f;
}

} // namespace

VmafLogWriter::~VmafLogWriter ()
{
  abandon ();
}

void
VmafLogWriter::abandon ()
{
  if (!frames_)
    return;
  fclose (frames_);
  frames_ = nullptr;
  g_unlink (frames_path_.c_str ());
}

bool
VmafLogWriter::open (const std::string &path, VmafLogFormat format,
    const std::vector<std::string> &columns, std::string *error)
{
  abandon ();
  frames_ = temp_beside (path, &frames_path_, error);
  if (!frames_)
    return false;
  path_ = path;
  format_ = format;
  columns_ = columns;
  rows_ = 0;
  return true;
}

void
VmafLogWriter::frame (const VmafFrameResult &r)
{
  if (!frames_)
    return;
  const unsigned long long i = (unsigned long long) r.index;
  switch (format_) {
    case VmafLogFormat::XML:
      fprintf (frames_, "    <frame frameNum=\"%llu\" ", i);
      for (size_t c = 0; c < columns_.size (); c++)
        fprintf (frames_, "%s=\"%s\" ", columns_[c].c_str (), motion_log_number (r.values[c]).c_str ());
      fprintf (frames_, "/>\n");
      break;
    case VmafLogFormat::JSON:
      fprintf (frames_, "%s    {\n      \"frameNum\": %llu,\n      \"metrics\": {\n",
          rows_ ? ",\n" : "\n", i);
      for (size_t c = 0; c < columns_.size (); c++)
        fprintf (frames_, "        \"%s\": %s%s\n", columns_[c].c_str (),
            motion_log_number (r.values[c]).c_str (), c + 1 < columns_.size () ? "," : "");
      fprintf (frames_, "      }\n    }");
      break;
    case VmafLogFormat::CSV:
      fprintf (frames_, "%llu,", i);
      for (size_t c = 0; c < columns_.size (); c++)
        fprintf (frames_, "%s,", motion_log_number (r.values[c]).c_str ());
      fprintf (frames_, "\n");
      break;
  }
  rows_++;
}

bool
VmafLogWriter::close (const VmafScorer &scorer, unsigned width, unsigned height, double fps,
    std::string *error)
{
  if (!frames_)
    return true;
  std::string out_path;
  FILE *out = temp_beside (path_, &out_path, error);
  if (!out) {
    abandon ();
    return false;
  }
  std::string head, tail;
  char buf[256];
  switch (format_) {
    case VmafLogFormat::XML:
      head = std::string ("<VMAF version=\"") + kVersion + "\">\n";
      snprintf (buf, sizeof buf, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n"
          "  <fyi fps=\"%.2f\" />\n  <frames>\n", width, height, fps);
      head += buf;
      tail = "  </frames>\n  <pooled_metrics>\n";
      for (size_t c = 0; c < columns_.size (); c++) {
        tail += "    <metric name=\"" + columns_[c] + "\" ";
        for (int m = 0; m < 4; m++)
          tail += std::string (kPoolNames[m]) + "=\"" + motion_log_number (scorer.pooled (c, kPools[m])) + "\" ";
        tail += "/>\n";
      }
      tail += "  </pooled_metrics>\n  <aggregate_metrics />\n</VMAF>\n";
      break;
    case VmafLogFormat::JSON:
      snprintf (buf, sizeof buf, "{\n  \"version\": \"%s\",\n  \"fps\": %.2f,\n  \"frames\": [",
          kVersion, fps);
      head = buf;
      tail = "\n  ],\n  \"pooled_metrics\": {";
      for (size_t c = 0; c < columns_.size (); c++) {
        tail += std::string (c ? ",\n" : "\n") + "    \"" + columns_[c] + "\": {";
        for (int m = 0; m < 4; m++)
          tail += std::string (m ? ",\n" : "\n") + "      \"" + kPoolNames[m] + "\": "
              + motion_log_number (scorer.pooled (c, kPools[m]));
        tail += "\n    }";
      }
      tail += "\n  },\n  \"aggregate_metrics\": {\n  }\n}\n";
      break;
    case VmafLogFormat::CSV:
      head = "Frame,";
      for (const std::string &c : columns_)
        head += c + ",";
      head += "\n";
      break;
  }
  bool ok = fputs (head.c_str (), out) >= 0;
  rewind (frames_);
  size_t n;
  char chunk[65536];
  while (ok && (n = fread (chunk, 1, sizeof chunk, frames_)) > 0)
    ok = fwrite (chunk, 1, n, out) == n;
  ok = ok && !ferror (frames_) && fputs (tail.c_str (), out) >= 0;
  ok = fflush (out) == 0 && ok;
  ok = fsync (fileno (out)) == 0 && ok;
  ok = fclose (out) == 0 && ok;
  if (ok && g_rename (out_path.c_str (), path_.c_str ()) != 0)
    ok = false;
  if (!ok) {
    *error = path_ + ": " + g_strerror (errno);
    g_unlink (out_path.c_str ());
  }
  abandon ();
  return ok;
}

} // namespace gpc
