// GH100's GPU periodic sampler metrics without a GPU (PerfWorks' host library from the CUDA toolkit), for tests that
// plan or describe sampler counters offline: made once per test process and kept, as the backends and the layer keep
// theirs; null, with the reason in *problem, where the library is missing (the test then skips).
#ifndef OPENGPA_TESTS_NVIDIA_GH100_OFFLINE_SOURCE_H_
#define OPENGPA_TESTS_NVIDIA_GH100_OFFLINE_SOURCE_H_

#include <string>

#include "nvidia/graphics_counter_source.h"

namespace opengpa::testing {

inline const nvidia::GraphicsCounterSource* Gh100OfflineSource(std::string* problem) {
  static std::string why;
  static const nvidia::GraphicsCounterSource* const source =
      nvidia::GraphicsCounterSource::ForChip("GH100", &why).release();
  if (source == nullptr) *problem = why;
  return source;
}

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_NVIDIA_GH100_OFFLINE_SOURCE_H_
