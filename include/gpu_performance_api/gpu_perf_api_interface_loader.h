// OpenGPA: loads libGPUPerfAPI<X>.so at run time and hands out its function table (header-only C++).
//
// Usage, as in GPA's documentation; the client defines the singleton pointer once:
//
//   GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
//   ...
//   if (GpaApiManager::Instance()->LoadApi(kGpaApiVulkan) == kGpaStatusOk) {
//     GpaFunctionTable* gpa = GpaApiManager::Instance()->GetFunctionTable(kGpaApiVulkan);
//     gpa->GpaInitialize(kGpaInitializeDefaultBit);
//   }
//
// LoadApi's library_path may be empty (the dynamic loader's search: LD_LIBRARY_PATH, rpath, ...),
// a directory holding the library, or the path of a library file (which is then loaded for `api_type`).
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_INTERFACE_LOADER_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_INTERFACE_LOADER_H_

#include <dlfcn.h>
#include <sys/stat.h>

#include <map>
#include <memory>
#include <string>

#include "gpu_performance_api/gpu_perf_api.h"

typedef void* LibHandle;
typedef std::string LocaleString;

/// A loaded library and its function table.
typedef struct GpaFuncTableInfo
{
    GpaFunctionTable* gpa_func_table;  ///< owned by GpaApiManager
    LibHandle         lib_handle;      ///< what dlopen returned
} GpaFuncTableInfo;

class GpaApiManager
{
public:
    /// The client defines this pointer (see above); Instance() creates the manager on first use.
    static GpaApiManager* gpa_api_manager_;

    static GpaApiManager* Instance()
    {
        if (gpa_api_manager_ == nullptr)
        {
            Owner().reset(new GpaApiManager());  // private constructor: make_unique cannot reach it
            gpa_api_manager_ = Owner().get();
        }
        return gpa_api_manager_;
    }

    /// Unloads every library and destroys the manager.
    static void DeleteInstance()
    {
        if (gpa_api_manager_ != nullptr && gpa_api_manager_ == Owner().get())
        {
            Owner().reset();
        }
        gpa_api_manager_ = nullptr;
    }

    /// File name of the library for `api_type`, or nullptr when OpenGPA has none (DirectX).
    static const char* GetLibraryFileName(GpaApiType api_type)
    {
        switch (api_type)
        {
        case kGpaApiVulkan: return "libGPUPerfAPIVK.so";
        case kGpaApiOpengl: return "libGPUPerfAPIGL.so";
        case kGpaApiOpencl: return "libGPUPerfAPICL.so";
        case kGpaApiCuda: return "libGPUPerfAPICUDA.so";
        default: return nullptr;
        }
    }

    /// Loads the library for `api_type` and fetches its function table. Loading an API that is
    /// already loaded returns kGpaStatusOk and keeps the first library.
    /// kGpaStatusErrorApiNotSupported: no OpenGPA library exists for `api_type` and no file was named.
    /// kGpaStatusErrorLibLoadFailed: dlopen failed or the library has no GpaGetFuncTable (see GetLastError()).
    /// Otherwise GpaGetFuncTable's status (e.g. a major version mismatch).
    GpaStatus LoadApi(const GpaApiType& api_type, const LocaleString& library_path = LocaleString())
    {
        if (loaded_.count(api_type) != 0)
        {
            return kGpaStatusOk;
        }

        std::string path;
        struct stat info;
        const bool names_file = !library_path.empty() && stat(library_path.c_str(), &info) == 0 && S_ISREG(info.st_mode);
        if (names_file)
        {
            path = library_path;
        }
        else
        {
            const char* file_name = GetLibraryFileName(api_type);
            if (file_name == nullptr)
            {
                last_error_ = "no OpenGPA library exists for API type " + std::to_string(static_cast<int>(api_type));
                return kGpaStatusErrorApiNotSupported;
            }
            path = library_path.empty() ? std::string(file_name) : library_path + "/" + file_name;
        }

        LibraryPtr library(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL));
        if (!library)
        {
            const char* error = dlerror();
            last_error_ = error != nullptr ? error : ("dlopen failed for " + path);
            return kGpaStatusErrorLibLoadFailed;
        }

        auto get_func_table = reinterpret_cast<GpaGetFuncTablePtrType>(dlsym(library.get(), "GpaGetFuncTable"));
        if (get_func_table == nullptr)
        {
            last_error_ = path + " does not export GpaGetFuncTable";
            return kGpaStatusErrorLibLoadFailed;
        }

        auto table = std::make_unique<GpaFunctionTable>();
        table->major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
        table->minor_version = GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
        const GpaStatus status = get_func_table(table.get());
        if (status != kGpaStatusOk)
        {
            last_error_ = path + ": GpaGetFuncTable returned " + std::to_string(static_cast<int>(status));
            return status;
        }

        Loaded& loaded = loaded_[api_type];
        loaded.table = std::move(table);
        loaded.library = std::move(library);
        last_error_.clear();
        return kGpaStatusOk;
    }

    /// Forgets the table and dlcloses the library; the table's pointers must no longer be used.
    void UnloadApi(const GpaApiType& api_type)
    {
        loaded_.erase(api_type);
    }

    /// The function table of a loaded API, or nullptr.
    GpaFunctionTable* GetFunctionTable(const GpaApiType& api_type)
    {
        auto it = loaded_.find(api_type);
        return it == loaded_.end() ? nullptr : it->second.table.get();
    }

    /// The table and dlopen handle of a loaded API (both null when not loaded).
    GpaFuncTableInfo GetFuncTableInfo(const GpaApiType& api_type)
    {
        auto it = loaded_.find(api_type);
        if (it == loaded_.end())
        {
            return GpaFuncTableInfo{nullptr, nullptr};
        }
        return GpaFuncTableInfo{it->second.table.get(), it->second.library.get()};
    }

    /// Why the last LoadApi failed (empty after a success).
    const std::string& GetLastError() const
    {
        return last_error_;
    }

    ~GpaApiManager() = default;

private:
    struct LibraryCloser
    {
        void operator()(void* handle) const
        {
            dlclose(handle);
        }
    };
    using LibraryPtr = std::unique_ptr<void, LibraryCloser>;

    struct Loaded
    {
        // Declared first so it is destroyed last: the table points into the library.
        LibraryPtr                        library;
        std::unique_ptr<GpaFunctionTable> table;
    };

    GpaApiManager() = default;
    GpaApiManager(const GpaApiManager&) = delete;
    GpaApiManager& operator=(const GpaApiManager&) = delete;

    static std::unique_ptr<GpaApiManager>& Owner()
    {
        static std::unique_ptr<GpaApiManager> owner;
        return owner;
    }

    std::map<GpaApiType, Loaded> loaded_;
    std::string                  last_error_;
};

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_INTERFACE_LOADER_H_
