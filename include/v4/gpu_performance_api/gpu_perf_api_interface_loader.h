// OpenGPA: loads libGPUPerfAPI<X>.so at run time and hands out its function table. Header-only; the C API
// (GpaInterfaceLoader*) compiles as C and C++, and GpaApiManager wraps it for C++, both as GPA 4 offers
// them. A program that includes this header defines, in exactly one of its files, the list head the C
// functions keep (and, in C++, the manager's singleton pointer):
//
//   #ifdef __cplusplus
//   GpaApiManager* GpaApiManager::gpa_api_manager_ = nullptr;
//   #endif
//   GpaFuncTableInfo* gpa_function_table_info = NULL;
//
// C:
//   if (GpaInterfaceLoaderLoadApi(kGpaApiVulkan, NULL) == kGpaStatusOk) {
//     const GpaFunctionTable* gpa = GpaInterfaceLoaderGetFunctionTable(kGpaApiVulkan);
//     gpa->GpaInitialize(kGpaInitializeDefaultBit);
//     ...
//   }
//   GpaInterfaceLoaderClearLoader();
// C++:
//   if (GpaApiManager::Instance()->LoadApi(kGpaApiVulkan) == kGpaStatusOk) {
//     GpaFunctionTable* gpa = GpaApiManager::Instance()->GetFunctionTable(kGpaApiVulkan);
//     ...
//   }
//   GpaApiManager::DeleteInstance();
//
// Where LoadApi looks (lib_path):
//   - NULL (or "" in C++): the folder of the running executable, as GPA does; when the library is not
//     there, the dynamic loader's search (LD_LIBRARY_PATH, the executable's rpath, ldconfig's cache);
//   - a folder: the library of that name in it;
//   - OpenGPA extension: the path of a library file, loaded for `api_type` whatever its name.
// APIs: kGpaApiVulkan (libGPUPerfAPIVK.so), kGpaApiOpengl (libGPUPerfAPIGL.so) and kGpaApiCuda (opengpa_ext.h:
// libGPUPerfAPICUDA.so); GPA 4 has no OpenCL (the v3 header set loads libGPUPerfAPICL.so). Every other API type is
// kGpaStatusErrorApiNotSupported. Loading an API that is loaded already is kGpaStatusErrorLibAlreadyLoaded
// (the first table stays). Why the last load failed: OpenGpaInterfaceLoaderGetLastError().
//
// The functions are static inline, as GPA's: each file that calls them has its own copy, sharing the
// program's one gpa_function_table_info list. Not thread-safe: load and unload from one thread.
#ifndef GPU_PERFORMANCE_API_GPU_PERF_API_INTERFACE_LOADER_H_
#define GPU_PERFORMANCE_API_GPU_PERF_API_INTERFACE_LOADER_H_

#ifdef _WIN32
#error "OpenGPA's interface loader is for Linux (dlopen)"
#endif

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#ifdef __cplusplus
#include <string>
#else
// unistd.h declares readlink only for POSIX builds; a strict ISO C build (-std=c11) gets it here.
extern ssize_t readlink(const char* path, char* buffer, size_t size);
#endif

#include "gpu_performance_api/gpu_perf_api.h"
#include "gpu_performance_api/opengpa_ext.h"

#define GPA_MAX_PATH 4096  ///< Longest path the loader builds (Linux PATH_MAX).
#ifdef __x86_64__
#define GPA_IS_64_BIT  ///< A 64-bit build: library names carry no architecture suffix.
#else
#define GPA_IS_32_BIT  ///< A 32-bit build.
#endif

typedef char LocaleChar;  ///< Paths are narrow strings on Linux.
#ifdef __cplusplus
typedef std::string LocaleString;  ///< A path, in C++.
#endif

#define TFORMAT(x) (x)  ///< A string literal of LocaleChar (narrow on Linux).

#define GPA_OPENGL_LIB TFORMAT("GPUPerfAPIGL")       ///< Base name of the OpenGL library.
#define GPA_DIRECTX11_LIB TFORMAT("GPUPerfAPIDX11")  ///< Base name of GPA's DirectX 11 library (none in OpenGPA).
#define GPA_DIRECTX12_LIB TFORMAT("GPUPerfAPIDX12")  ///< Base name of GPA's DirectX 12 library (none in OpenGPA).
#define GPA_VULKAN_LIB TFORMAT("GPUPerfAPIVK")       ///< Base name of the Vulkan library.
#define OPENGPA_CUDA_LIB TFORMAT("GPUPerfAPICUDA")   ///< OpenGPA extension: base name of the CUDA library.

#define GPA_LIB_PREFIX TFORMAT("lib")      ///< File name prefix of a library.
#define GPA_LIB_SUFFIX TFORMAT(".so")      ///< File name suffix of a library.
#define GPA_X64_ARCH_SUFFIX TFORMAT("")    ///< Architecture suffix of a 64-bit library (none).
#define GPA_X86_ARCH_SUFFIX TFORMAT("32")  ///< Architecture suffix of GPA's 32-bit libraries (OpenGPA builds none).
#define GPA_DEBUG_SUFFIX TFORMAT("-d")             ///< Suffix of GPA's debug libraries (OpenGPA builds none).
#define GPA_INTERNAL_SUFFIX TFORMAT("-Internal")  ///< Suffix of GPA's internal builds (OpenGPA builds none).

// The string helpers GPA's loader declares for its clients (over the shims of gpu_perf_api_types.h).
#define STR_CAT(dest, dest_size, src) strcat_s(dest, dest_size, src)
#define STR_COPY(dest, dest_size, src) strcpy_s(dest, dest_size, src)
#define STR_NCOPY(dest, dest_size, src, count) strncpy_s(dest, dest_size, src, count)
#define STR_LEN(str, str_length) strnlen_s(str, str_length)
#define MEM_CPY(dest, src, count) memcpy(dest, src, count)
#define MEM_SET(ptr, value, num) memset(ptr, value, num)

#define GPA_GET_FUNCTION_TABLE_FUNCTION_NAME "GpaGetFuncTable"  ///< The one symbol the loader looks up.

#ifndef ARRAY_LENGTH
#define ARRAY_LENGTH(x) (sizeof(x) / sizeof(x[0]))  ///< Elements of an array.
#endif

/// One loaded library: a node of the list gpa_function_table_info heads.
typedef struct _GpaFuncTableInfo
{
    GpaApiType        gpa_api_type;          ///< The API it serves (kGpaApiNoSupport: an unloaded node).
    GpaFunctionTable* gpa_func_table;        ///< Its function table (malloc'ed by the loader).
    LibHandle         lib_handle;            ///< What dlopen returned.
    void*             next_func_table_info;  ///< The next node (a GpaFuncTableInfo*), or NULL.
} GpaFuncTableInfo;

/// The loader's list of loaded libraries; the program defines it once (see above).
extern GpaFuncTableInfo* gpa_function_table_info;

/// OpenGPA extension: this file's buffer for the reason of the last failed GpaInterfaceLoaderLoadApi.
static inline char* OpenGpaInterfaceLoaderErrorBuffer(void)
{
    static char error[GPA_MAX_PATH + 256];
    return error;
}

/// OpenGPA extension: why the last GpaInterfaceLoaderLoadApi called from this file failed ("" after a success).
static inline const char* OpenGpaInterfaceLoaderGetLastError(void)
{
    return OpenGpaInterfaceLoaderErrorBuffer();
}

/// Turns Windows separators into '/' in place; *last_separator_position (if not NULL) gets the index of the
/// last '/' (0 when there is none).
static inline void Win2UnixPathSeparator(LocaleChar* file_path, unsigned int* last_separator_position)
{
    unsigned int last = 0;
    unsigned int i;
    for (i = 0; file_path[i] != '\0'; ++i)
    {
        if (file_path[i] == '\\')
        {
            file_path[i] = '/';
        }
        if (file_path[i] == '/')
        {
            last = i;
        }
    }
    if (last_separator_position != NULL)
    {
        *last_separator_position = last;
    }
}

/// The folder of the running executable, without a trailing '/' ("" when it cannot be read).
static inline const LocaleChar* GpaInterfaceLoaderGetWorkingDirectoryPath(void)
{
    static LocaleChar folder[GPA_MAX_PATH];
    unsigned int      last_slash = 0;
    ssize_t           length     = readlink("/proc/self/exe", folder, sizeof folder - 1);
    if (length < 0)
    {
        length = 0;
    }
    folder[length] = '\0';
    Win2UnixPathSeparator(folder, &last_slash);
    folder[last_slash] = '\0';
    return folder;
}

/// The file name of the library for `gpa_api_type` ("libGPUPerfAPIVK.so", ...), or "" when OpenGPA has none.
static inline const LocaleChar* GpaInterfaceLoaderGetLibraryFileName(GpaApiType gpa_api_type)
{
    static LocaleChar file_name[GPA_MAX_PATH];
    const LocaleChar* base = NULL;
    switch ((int)gpa_api_type)
    {
    case kGpaApiOpengl:
        base = GPA_OPENGL_LIB;
        break;
    case kGpaApiVulkan:
        base = GPA_VULKAN_LIB;
        break;
    case (int)kGpaApiCuda:
        base = OPENGPA_CUDA_LIB;
        break;
    default:
        break;
    }
    file_name[0] = '\0';
    if (base != NULL)
    {
        snprintf(file_name, sizeof file_name, "%s%s%s", GPA_LIB_PREFIX, base, GPA_LIB_SUFFIX);
    }
    return file_name;
}

/// The path LoadApi tries first: `lib_path` (the executable's folder when NULL), a '/', and the library's
/// file name. "" when OpenGPA has no library for the API.
static inline const LocaleChar* GpaInterfaceLoaderGetLibraryFullPath(GpaApiType gpa_api_type, const LocaleChar* lib_path)
{
    static LocaleChar full_path[2 * GPA_MAX_PATH + 2];
    LocaleChar        folder[GPA_MAX_PATH];
    const LocaleChar* file_name = GpaInterfaceLoaderGetLibraryFileName(gpa_api_type);
    size_t            length;
    full_path[0] = '\0';
    if (file_name[0] == '\0')
    {
        return full_path;
    }
    snprintf(folder, sizeof folder, "%s", lib_path != NULL ? lib_path : GpaInterfaceLoaderGetWorkingDirectoryPath());
    Win2UnixPathSeparator(folder, NULL);
    length = strlen(folder);
    snprintf(full_path, sizeof full_path, "%s%s%s", folder, (length == 0 || folder[length - 1] != '/') ? "/" : "", file_name);
    return full_path;
}

/// The node of a loaded API, or NULL.
static inline GpaFuncTableInfo* OpenGpaInterfaceLoaderFind(GpaApiType api_type)
{
    GpaFuncTableInfo* node = gpa_function_table_info;
    while (node != NULL)
    {
        if (node->gpa_func_table != NULL && node->gpa_api_type == api_type)
        {
            return node;
        }
        node = (GpaFuncTableInfo*)node->next_func_table_info;
    }
    return NULL;
}

/// dlopen with the loader's flags; records dlerror() as the last error when it fails.
static inline LibHandle OpenGpaInterfaceLoaderOpen(const char* path)
{
    LibHandle handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL)
    {
        const char* reason = dlerror();
        snprintf(OpenGpaInterfaceLoaderErrorBuffer(), GPA_MAX_PATH + 256, "%s", reason != NULL ? reason : path);
    }
    return handle;
}

/// Loads the library for `api_type` (see the top of this file for where it looks) and fetches its function
/// table.
/// kGpaStatusOk; kGpaStatusErrorApiNotSupported: OpenGPA has no library for `api_type`;
/// kGpaStatusErrorLibAlreadyLoaded: `api_type` is loaded (the first table stays);
/// kGpaStatusErrorLibLoadFailed: dlopen failed or the library has no GpaGetFuncTable;
/// kGpaStatusErrorFailed: out of memory; otherwise GpaGetFuncTable's status (a version mismatch).
static inline GpaStatus GpaInterfaceLoaderLoadApi(GpaApiType api_type, const LocaleChar* lib_path)
{
    char*                  error          = OpenGpaInterfaceLoaderErrorBuffer();
    LibHandle              handle         = NULL;
    GpaGetFuncTablePtrType get_func_table = NULL;
    GpaFunctionTable*      table          = NULL;
    GpaFuncTableInfo*      node           = NULL;
    const LocaleChar*      file_name      = NULL;
    GpaStatus              status;

    error[0] = '\0';
    if (OpenGpaInterfaceLoaderFind(api_type) != NULL)
    {
        snprintf(error, GPA_MAX_PATH + 256, "API type %d is already loaded", (int)api_type);
        return kGpaStatusErrorLibAlreadyLoaded;
    }
#if DISABLE_GPA
    // GPA compiled out: the "library" is gpu_perf_api_stub.h's stubs, whatever the API.
    UNREFERENCED_PARAMETER(lib_path);
    UNREFERENCED_PARAMETER(file_name);
    get_func_table = GpaGetFuncTable;
#else
    {
        struct stat info;
        const int   names_file = lib_path != NULL && lib_path[0] != '\0' && stat(lib_path, &info) == 0 && S_ISREG(info.st_mode);
        file_name              = names_file ? lib_path : GpaInterfaceLoaderGetLibraryFileName(api_type);
        if (file_name[0] == '\0')
        {
            snprintf(error, GPA_MAX_PATH + 256, "OpenGPA has no library for API type %d", (int)api_type);
            return kGpaStatusErrorApiNotSupported;
        }
        if (names_file)
        {
            handle = OpenGpaInterfaceLoaderOpen(lib_path);  // OpenGPA extension: a library file named by the caller
        }
        else if (lib_path != NULL && lib_path[0] != '\0')
        {
            handle = OpenGpaInterfaceLoaderOpen(GpaInterfaceLoaderGetLibraryFullPath(api_type, lib_path));
        }
        else
        {
            // Beside the executable, as GPA; then wherever the dynamic loader finds it.
            const LocaleChar* beside = GpaInterfaceLoaderGetLibraryFullPath(api_type, NULL);
            struct stat       beside_info;
            if (stat(beside, &beside_info) == 0)
            {
                handle = OpenGpaInterfaceLoaderOpen(beside);
            }
            if (handle == NULL)
            {
                handle = OpenGpaInterfaceLoaderOpen(file_name);
            }
        }
        if (handle == NULL)
        {
            return kGpaStatusErrorLibLoadFailed;
        }
        {
            void* symbol = dlsym(handle, GPA_GET_FUNCTION_TABLE_FUNCTION_NAME);
            memcpy(&get_func_table, &symbol, sizeof symbol);  // object to function pointer, as POSIX allows
        }
        if (get_func_table == NULL)
        {
            snprintf(error, GPA_MAX_PATH + 256, "%s does not export " GPA_GET_FUNCTION_TABLE_FUNCTION_NAME, file_name);
            dlclose(handle);
            return kGpaStatusErrorLibLoadFailed;
        }
    }
#endif

    table = (GpaFunctionTable*)calloc(1, sizeof(GpaFunctionTable));
    if (table == NULL)
    {
        if (handle != NULL)
        {
            dlclose(handle);
        }
        return kGpaStatusErrorFailed;
    }
    table->major_version = GPA_FUNCTION_TABLE_MAJOR_VERSION_NUMBER;
    table->minor_version = (GpaUInt32)GPA_FUNCTION_TABLE_MINOR_VERSION_NUMBER;
    status               = get_func_table(table);
    if (status != kGpaStatusOk)
    {
        snprintf(error, GPA_MAX_PATH + 256, "GpaGetFuncTable of API type %d returned %d", (int)api_type, (int)status);
        free(table);
        if (handle != NULL)
        {
            dlclose(handle);
        }
        return status;
    }

    // Reuse a node left by GpaInterfaceLoaderUnLoadApi, else append one.
    for (node = gpa_function_table_info; node != NULL; node = (GpaFuncTableInfo*)node->next_func_table_info)
    {
        if (node->gpa_func_table == NULL)
        {
            break;
        }
    }
    if (node == NULL)
    {
        node = (GpaFuncTableInfo*)calloc(1, sizeof(GpaFuncTableInfo));
        if (node == NULL)
        {
            free(table);
            if (handle != NULL)
            {
                dlclose(handle);
            }
            return kGpaStatusErrorFailed;
        }
        if (gpa_function_table_info == NULL)
        {
            gpa_function_table_info = node;
        }
        else
        {
            GpaFuncTableInfo* last = gpa_function_table_info;
            while (last->next_func_table_info != NULL)
            {
                last = (GpaFuncTableInfo*)last->next_func_table_info;
            }
            last->next_func_table_info = node;
        }
    }
    node->gpa_api_type   = api_type;
    node->gpa_func_table = table;
    node->lib_handle     = handle;
    return kGpaStatusOk;
}

/// The function table of a loaded API, or NULL.
static inline const GpaFunctionTable* GpaInterfaceLoaderGetFunctionTable(GpaApiType gpa_api_type)
{
    const GpaFuncTableInfo* node = OpenGpaInterfaceLoaderFind(gpa_api_type);
    return node != NULL ? node->gpa_func_table : NULL;
}

/// Frees the table and dlcloses the library of `gpa_api_type`; its pointers must no longer be used.
/// kGpaStatusOk, or kGpaStatusErrorFailed when the API is not loaded.
static inline GpaStatus GpaInterfaceLoaderUnLoadApi(GpaApiType gpa_api_type)
{
    GpaFuncTableInfo* node = OpenGpaInterfaceLoaderFind(gpa_api_type);
    if (node == NULL)
    {
        return kGpaStatusErrorFailed;
    }
    free(node->gpa_func_table);
    if (node->lib_handle != NULL)
    {
        dlclose(node->lib_handle);
    }
    node->gpa_func_table = NULL;
    node->lib_handle     = NULL;
    node->gpa_api_type   = kGpaApiNoSupport;
    return kGpaStatusOk;
}

/// Unloads every library and frees the whole list (gpa_function_table_info becomes NULL).
static inline void GpaInterfaceLoaderClearLoader(void)
{
    GpaFuncTableInfo* node = gpa_function_table_info;
    while (node != NULL)
    {
        GpaFuncTableInfo* next = (GpaFuncTableInfo*)node->next_func_table_info;
        free(node->gpa_func_table);
        if (node->lib_handle != NULL)
        {
            dlclose(node->lib_handle);
        }
        free(node);
        node = next;
    }
    gpa_function_table_info = NULL;
}

#ifdef __cplusplus
/// The C++ face of the loader: a singleton over the functions above.
class GpaApiManager
{
public:
    /// The manager, created on first use and stored in the program's gpa_api_manager_.
    static GpaApiManager* Instance()
    {
        if (gpa_api_manager_ == nullptr)
        {
            static GpaApiManager manager;  // no heap: DeleteInstance only forgets it (and unloads)
            gpa_api_manager_ = &manager;
        }
        return gpa_api_manager_;
    }

    /// Unloads every library and forgets the manager.
    static void DeleteInstance()
    {
        if (gpa_api_manager_ != nullptr)
        {
            GpaInterfaceLoaderClearLoader();
            gpa_api_manager_ = nullptr;
        }
    }

    /// GpaInterfaceLoaderLoadApi; an empty lib_path means the executable's folder, then the loader's search.
    GpaStatus LoadApi(const GpaApiType& api_type, const LocaleString lib_path = LocaleString()) const
    {
        return GpaInterfaceLoaderLoadApi(api_type, lib_path.empty() ? nullptr : lib_path.c_str());
    }

    /// GpaInterfaceLoaderUnLoadApi.
    void UnloadApi(const GpaApiType& api_type) const
    {
        GpaInterfaceLoaderUnLoadApi(api_type);
    }

    /// The function table of a loaded API, or nullptr.
    GpaFunctionTable* GetFunctionTable(const GpaApiType& api_type) const
    {
        return const_cast<GpaFunctionTable*>(GpaInterfaceLoaderGetFunctionTable(api_type));
    }

    /// The library's file name ("" when OpenGPA has none for the API).
    static LocaleString GetLibraryFileName(const GpaApiType& api_type)
    {
        return LocaleString(GpaInterfaceLoaderGetLibraryFileName(api_type));
    }

    /// The path LoadApi tries first for `lib_path` (the executable's folder when empty).
    static LocaleString GetLibraryFullPath(const GpaApiType& api_type, const LocaleString lib_path = LocaleString())
    {
        return LocaleString(GpaInterfaceLoaderGetLibraryFullPath(api_type, lib_path.empty() ? nullptr : lib_path.c_str()));
    }

    /// OpenGPA extension: the loaded API's list node (api type, table, dlopen handle); all null when not loaded.
    GpaFuncTableInfo GetFuncTableInfo(const GpaApiType& api_type) const
    {
        const GpaFuncTableInfo* node = OpenGpaInterfaceLoaderFind(api_type);
        return node != nullptr ? *node : GpaFuncTableInfo{kGpaApiNoSupport, nullptr, nullptr, nullptr};
    }

    /// OpenGPA extension: why the last LoadApi failed ("" after a success).
    std::string GetLastError() const
    {
        return OpenGpaInterfaceLoaderGetLastError();
    }

private:
    GpaApiManager() = default;
    ~GpaApiManager()
    {
        if (gpa_api_manager_ == this)
        {
            DeleteInstance();
        }
    }
    GpaApiManager(const GpaApiManager&)            = delete;
    GpaApiManager& operator=(const GpaApiManager&) = delete;

    static GpaApiManager* gpa_api_manager_;  ///< The program defines it (see above).
};
#endif  // __cplusplus

#endif  // GPU_PERFORMANCE_API_GPU_PERF_API_INTERFACE_LOADER_H_
