#include "profiler/sampled_gate.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace opengpa::profiling {
namespace {

constexpr const char* kSampling = "sampling";
constexpr const char* kNotSampling = "not sampling: ";

}  // namespace

SampledGate::SampledGate(const std::string& folder) {
  static std::atomic<unsigned> made{0};
  path_ = folder + "/opengpa-sampled-gate-" + std::to_string(getpid()) + "-" + std::to_string(made++);
  std::remove(path_.c_str());
}

SampledGate::~SampledGate() { std::remove(path_.c_str()); }

bool SampledGate::Open(bool sampling, const std::string& why) {
  const std::string staged = path_ + ".part";
  {
    std::ofstream file(staged, std::ios::trunc);
    if (!file) return false;
    file << (sampling ? std::string(kSampling) : kNotSampling + why);
    if (!file.flush()) return false;
  }
  return std::rename(staged.c_str(), path_.c_str()) == 0;
}

bool GateSaysNotSampling(const std::string& why) { return why.rfind(kNotSampling, 0) == 0; }

bool WaitAtSampledGate(const std::string& path, std::chrono::milliseconds limit, std::string* why) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    std::ifstream file(path);
    if (file) {
      std::stringstream said;
      said << file.rdbuf();
      if (said.str() == kSampling) return true;
      *why = said.str();
      return false;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      *why = "opengpa did not say within " + std::to_string(limit.count()) + " ms whether PM sampling runs";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace opengpa::profiling
