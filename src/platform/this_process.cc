#include "platform/this_process.h"

#include <unistd.h>

#include <array>
#include <climits>

namespace opengpa {

std::string HostName() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0) return {};
  return name.data();
}

std::string ExecutablePath() {
  std::array<char, PATH_MAX> path{};
  const ssize_t length = readlink("/proc/self/exe", path.data(), path.size() - 1);
  if (length <= 0) return {};
  return {path.data(), static_cast<std::size_t>(length)};
}

}  // namespace opengpa
