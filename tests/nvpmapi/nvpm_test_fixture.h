// Fixture for NvPmApi tests: libNvPmApi.Core.so loaded through NvPmApiManager (as PerfKit clients load it),
// Init in SetUp and Shutdown in TearDown, and helpers that name a result code in a failure message.
#ifndef OPENGPA_TESTS_NVPMAPI_NVPM_TEST_FIXTURE_H_
#define OPENGPA_TESTS_NVPMAPI_NVPM_TEST_FIXTURE_H_

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "nvpmapi/NvPmApi-OpenGPA.h"
#include "nvpmapi/NvPmApi.Manager.h"

namespace opengpa::testing {

class NvPmTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(manager_.Construct(OPENGPA_NVPMAPI_LIBRARY), S_OK) << manager_.LastError();
    api_ = manager_.Api();
    ASSERT_EQ(api_->Init(), NVPM_OK);
    library_ = dlopen(OPENGPA_NVPMAPI_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
  }

  void TearDown() override {
    if (api_ != nullptr) api_->Shutdown();
    if (library_ != nullptr) dlclose(library_);
  }

  // The library's message about the last failed call (OpenGpaNvPmGetLastMessage).
  std::string LastMessage() const {
    auto get = reinterpret_cast<OpenGpaNvPmGetLastMessage_Pfn>(dlsym(library_, "OpenGpaNvPmGetLastMessage"));
    NVPMUINT length = 0;
    if (get == nullptr || get(nullptr, &length) != NVPM_OK) return {};
    std::string text(length, '\0');
    get(text.data(), &length);
    text.resize(length > 0 ? length - 1 : 0);
    return text;
  }

  NVPMRESULT CreateChipContext(const char* chip, NVPMContext* context) const {
    auto create = reinterpret_cast<OpenGpaNvPmCreateContextFromChipName_Pfn>(
        dlsym(library_, "OpenGpaNvPmCreateContextFromChipName"));
    return create != nullptr ? create(chip, context) : NVPM_NO_IMPLEMENTATION;
  }

  std::vector<std::string> CounterNames(NVPMContext context) const {
    std::vector<std::string> names;
    api_->EnumCountersByContextUserData(
        context,
        [](NVPMCounterID, const char* name, void* user) {
          static_cast<std::vector<std::string>*>(user)->push_back(name);
          return static_cast<int>(NVPM_OK);
        },
        &names);
    return names;
  }

  NVPMCounterID Id(NVPMContext context, const char* name) const {
    NVPMCounterID id = 0;
    EXPECT_EQ(api_->GetCounterIDByContext(context, name, &id), NVPM_OK) << name;
    return id;
  }

  NvPmApiManager manager_;
  const NvPmApi* api_ = nullptr;
  void* library_ = nullptr;
};

}  // namespace opengpa::testing

#endif  // OPENGPA_TESTS_NVPMAPI_NVPM_TEST_FIXTURE_H_
