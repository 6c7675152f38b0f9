// Plays a profiler in another process for handover_watcher_test.cc: takes a GPU's counters through
// nvidia::CounterClaim as `opengpa profile` does, prints when it got them, holds them, and exits.
//   handover_claimer FOLDER GPU WAIT_MS HOLD_MS
// Prints one line "claimed holds=<0|1> waited_ms=<ms> at_ns=<CLOCK_REALTIME ns> note=<text>" once Acquire returns.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <thread>

#include "nvidia/counter_handover.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s FOLDER GPU WAIT_MS HOLD_MS\n", argv[0]);
    return 2;
  }
  std::string note;
  std::chrono::milliseconds waited{0};
  auto claim = opengpa::nvidia::CounterClaim::Acquire(argv[1], argv[2], std::chrono::milliseconds(std::atol(argv[3])),
                                                      &note, &waited);
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  std::printf("claimed holds=%d waited_ms=%lld at_ns=%lld note=%s\n", claim->Holds() ? 1 : 0,
              static_cast<long long>(waited.count()), static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec,
              note.c_str());
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::milliseconds(std::atol(argv[4])));
  return 0;
}
