// What the running process knows of itself, read the one way the project reads it: the host's name and the
// executable's path (profiles and metrics name their host; library searches start beside the executable).
#ifndef OPENGPA_PLATFORM_THIS_PROCESS_H_
#define OPENGPA_PLATFORM_THIS_PROCESS_H_

#include <string>

namespace opengpa {

// gethostname; "" when it cannot be read.
std::string HostName();

// /proc/self/exe resolved; "" when it cannot be read.
std::string ExecutablePath();

}  // namespace opengpa

#endif  // OPENGPA_PLATFORM_THIS_PROCESS_H_
