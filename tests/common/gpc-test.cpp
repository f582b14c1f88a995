/* gst-gpucodecs
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gpc-test.h"

#include <execinfo.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <random>

namespace gpc_test {

/* A write to a pipe whose reader is gone ends a test with SIGPIPE and
 * nothing in its log to say which write: print the writing thread's
 * backtrace first (addresses resolve with addr2line against the build),
 * then end as before. */
static void
on_sigpipe (int sig)
{
  void *frames[64];
  const int n = backtrace (frames, 64);
  const char *m = "\ngpc-test: SIGPIPE (a write to a pipe that nothing reads), backtrace:\n";
  if (write (2, m, strlen (m)) > 0)
    backtrace_symbols_fd (frames, n, 2);
  signal (sig, SIG_DFL);
  raise (sig);
}

void report_sigpipe ()
{
  /* backtrace() loads what it needs on its first call: not in the
   * handler. */
  void *frame;
  backtrace (&frame, 1);
  signal (SIGPIPE, on_sigpipe);
}

uint64_t seed ()
{
  static uint64_t s = [] {
    report_sigpipe ();
    uint64_t v;
    const char *env = getenv ("GPC_TEST_SEED");
    if (env && *env) {
      v = strtoull (env, nullptr, 0);
    } else {
      std::random_device rd;
      v = ((uint64_t) rd () << 32) ^ rd () ^ (uint64_t) time (nullptr) ^ ((uint64_t) getpid () << 16);
    }
    printf ("gpc-test: random seed %llu (rerun with GPC_TEST_SEED=%llu)\n",
        (unsigned long long) v, (unsigned long long) v);
    fflush (stdout);
    return v;
  }();
  return s;
}

Rng rng (const char *name)
{
  uint64_t h = 1469598103934665603ull; /* FNV-1a of the name, mixed with the seed */
  for (const char *p = name; *p; p++)
    h = (h ^ (uint8_t) *p) * 1099511628211ull;
  return Rng (seed () ^ h);
}

std::string vectors_dir ()
{
  const char *env = getenv ("GPC_VECTORS_DIR");
  return env ? env : "";
}

std::string vector_path (const std::string &relative)
{
  std::string dir = vectors_dir ();
  if (dir.empty ())
    return "";
  std::string p = dir + "/" + relative;
  struct stat st;
  return stat (p.c_str (), &st) == 0 ? p : "";
}

std::string media_dir ()
{
  const char *env = getenv ("GPC_MEDIA_DIR");
  return env ? env : "";
}

bool read_zstd (const std::string &path, std::vector<uint8_t> &out)
{
  std::string cmd = "zstd -dcq '" + path + "'";
  FILE *f = popen (cmd.c_str (), "r");
  if (!f)
    return false;
  out.clear ();
  uint8_t buf[1 << 16];
  size_t n;
  while ((n = fread (buf, 1, sizeof (buf), f)) > 0)
    out.insert (out.end (), buf, buf + n);
  return pclose (f) == 0;
}

bool have_zstd ()
{
  return system ("zstd --version > /dev/null 2>&1") == 0;
}

void skip (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("SKIP: ", stdout);
  vprintf (fmt, ap);
  fputc ('\n', stdout);
  va_end (ap);
  fflush (stdout);
  exit (77);
}

} // namespace gpc_test
