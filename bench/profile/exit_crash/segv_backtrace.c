// A SIGSEGV/SIGBUS/SIGABRT handler, preloaded into a profiled program, that prints the backtrace (addresses to
// resolve with addr2line against unstripped libraries) and re-raises: how the exit crash of `opengpa profile` was found.
#define _GNU_SOURCE
#include <execinfo.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>
static void on_segv(int sig, siginfo_t* info, void* ctx) {
  void* frames[64];
  int n = backtrace(frames, 64);
  char msg[128];
  int len = 0;
  const char* head = "SEGV backtrace:\n";
  write(2, head, strlen(head));
  backtrace_symbols_fd(frames, n, 2);
  (void)len; (void)msg; (void)info; (void)ctx;
  signal(sig, SIG_DFL);
  raise(sig);
}
__attribute__((constructor)) static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, 0);
  sigaction(SIGBUS, &sa, 0);
  sigaction(SIGABRT, &sa, 0);
}
