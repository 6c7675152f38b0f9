// The derived-counter catalogs of the CUDA backend: every catalogs/cuda*.json, embedded at build time
// (the list is generated from cuda_catalogs.cc.in by this folder's CMakeLists.txt, so adding a catalog
// needs no code change).
#ifndef OPENGPA_CUDA_COUNTERS_CUDA_CATALOGS_H_
#define OPENGPA_CUDA_COUNTERS_CUDA_CATALOGS_H_

#include <string_view>
#include <vector>

namespace opengpa::cuda {

struct EmbeddedCatalog {
  std::string_view file;  // e.g. "cuda.json"
  const char* text;
};

// In file-name order: cuda.json first, then cuda_*.json.
const std::vector<EmbeddedCatalog>& EmbeddedCatalogs();

}  // namespace opengpa::cuda

#endif  // OPENGPA_CUDA_COUNTERS_CUDA_CATALOGS_H_
