#include "platform/file_lock.h"

#include <sys/file.h>

#include <cerrno>

namespace opengpa {

int FlockRetryingOnSignals(int fd, int operation) {
  int result = 0;
  do {
    result = flock(fd, operation);
  } while (result != 0 && errno == EINTR);
  return result;
}

}  // namespace opengpa
