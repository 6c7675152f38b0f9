// flock(2) that does not give up when a signal interrupts it: the lock files of processes that share a GPU (a
// program's processes taking turns, profilers and the monitor handing counters over) are locked this way.
#ifndef OPENGPA_PLATFORM_FILE_LOCK_H_
#define OPENGPA_PLATFORM_FILE_LOCK_H_

namespace opengpa {

// flock(fd, operation), retried while it fails with EINTR; its result (0, or -1 with errno set).
int FlockRetryingOnSignals(int fd, int operation);

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_FILE_LOCK_H_
