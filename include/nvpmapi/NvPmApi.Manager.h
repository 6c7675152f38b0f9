// NvPmApiManager: loads libNvPmApi.Core.so by path and hands out its NvPmApi table, as PerfKit's helper of
// the same name does (the user guide's "Initialize NvPmApi"):
//
//   #define NVPM_INITGUID
//   #include "NvPmApi.Manager.h"
//   static NvPmApiManager S_NVPMManager;
//   if (S_NVPMManager.Construct("/path/to/libNvPmApi.Core.so") != S_OK) { ... }
//   S_NVPMManager.Api()->Init();
//
// Not thread safe (as PerfKit's). Construct returns S_OK, or NVPM_LIBRARY_NOT_FOUND when the library does
// not load and NVPM_NO_IMPLEMENTATION when it has no usable table; LastError() says why.
#ifndef NVPMAPI_NVPMAPI_MANAGER_H_
#define NVPMAPI_NVPMAPI_MANAGER_H_

#include <dlfcn.h>

#include <string>

#include "NvPmApi.h"

#ifndef S_OK
#define S_OK 0
#endif

class NvPmApiManager {
 public:
  NvPmApiManager() = default;
  ~NvPmApiManager() { Release(); }
  NvPmApiManager(const NvPmApiManager&) = delete;
  NvPmApiManager& operator=(const NvPmApiManager&) = delete;

  int Construct(const char* library_path) {
    Release();
    if (library_path == nullptr) {
      last_error_ = "no library path";
      return NVPM_LIBRARY_NOT_FOUND;
    }
    library_ = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (library_ == nullptr) {
      const char* why = dlerror();
      last_error_ = why != nullptr ? why : "dlopen failed";
      return NVPM_LIBRARY_NOT_FOUND;
    }
    auto get_export_table = reinterpret_cast<NVPMGetExportTable_Pfn>(dlsym(library_, "NVPMGetExportTable"));
    void* table = nullptr;
    if (get_export_table == nullptr || get_export_table(&ETID_NvPmApi, &table) != NVPM_OK || table == nullptr) {
      last_error_ = std::string(library_path) + " has no NvPmApi export table";
      Release();
      return NVPM_NO_IMPLEMENTATION;
    }
    api_ = static_cast<const NvPmApi*>(table);
    return S_OK;
  }

  const NvPmApi* Api() const { return api_; }
  const std::string& LastError() const { return last_error_; }

 private:
  void Release() {
    api_ = nullptr;
    if (library_ != nullptr) dlclose(library_);
    library_ = nullptr;
  }

  void* library_ = nullptr;
  const NvPmApi* api_ = nullptr;
  std::string last_error_;
};

#endif  // NVPMAPI_NVPMAPI_MANAGER_H_
