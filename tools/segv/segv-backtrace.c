/* LD_PRELOAD helper for the GPU machine (no gdb there): prints a backtrace
 * of the faulting thread on SIGSEGV/SIGABRT/SIGBUS, then dies. Use with
 * gst-launch-1.0 --no-fault. Addresses resolve with addr2line
 * against the unstripped build. */
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_fault (int sig)
{
  void *frames[64];
  int n = backtrace (frames, 64);
  const char *m = "\n*** fatal signal, backtrace:\n";
  write (2, m, strlen (m));
  backtrace_symbols_fd (frames, n, 2);
  signal (sig, SIG_DFL);
  raise (sig);
}

__attribute__ ((constructor)) static void install (void)
{
  signal (SIGSEGV, on_fault);
  signal (SIGABRT, on_fault);
  signal (SIGBUS, on_fault);
}
