/* NvPmApi: the interface of NVIDIA PerfKit's libNvPmApi.Core.so, as the PerfKit 4.5 user guide describes it
   (the seed nvidia-perfkit-nvpmapi.txt), served by OpenGPA's engine (docs/nvpmapi.md).

   A program loads the library by path, asks NVPMGetExportTable for the table named ETID_NvPmApi, and calls
   everything through that table (NvPmApi.Manager.h does the loading). Linux has two kinds of context:
   CreateContextFromOGLContext (the current EGL/GLX context) and CreateContextFromCudaContext (a CUcontext).

   Binary layout: the table's slot order, the result codes up to NVPM_INCORRECT_VALUE_TYPE, the enums and the
   table id are PerfKit 4.x's, so a program built against NVIDIA's header finds the same functions in the same
   slots. The codes after NVPM_INCORRECT_VALUE_TYPE are the ones the user guide documents that PerfKit's 4.x
   header never numbered (NVPM_ERROR_NO_COUNTERS, the warnings of the experiment calls, ...); the two getters
   by name with a value type, which the guide documents, are appended at the end of the table. */
#ifndef NVPMAPI_NVPMAPI_H_
#define NVPMAPI_NVPMAPI_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t NVPMUINT8;
typedef uint16_t NVPMUINT16;
typedef uint32_t NVPMUINT32;
typedef uint32_t NVPMUINT;
typedef uint64_t NVPMUINT64;
typedef double NVPMFLOAT64;

/* An NvPmApi context: one per API context measured. 0 is never a valid context. */
typedef NVPMUINT64 NVPMContext;
/* A CUcontext or an EGLContext/GLXContext, as an integer. */
typedef NVPMUINT64 APIContextHandle;
/* A counter's id: the same in every context of one process (GetCounterName takes no context), consecutive
   from 1, and not stable across releases or processes: look ids up by name. */
typedef NVPMUINT NVPMCounterID;

#ifndef NVPMRESULT_DEFINED
typedef enum {
    NVPM_FAILURE_DISABLED = -5,
    NVPM_FAILURE_32BIT_ON_64BIT = -4,
    NVPM_NO_IMPLEMENTATION = -3,      /* the library is not loaded (NvPmApi.Manager.h) */
    NVPM_LIBRARY_NOT_FOUND = -2,      /* libNvPmApi.Core.so was not found (NvPmApi.Manager.h) */
    NVPM_FAILURE = -1,
    NVPM_OK = 0,
    NVPM_ERROR_INVALID_PARAMETER,     /* a NULL pointer or a value out of range */
    NVPM_ERROR_DRIVER_MISMATCH,
    NVPM_ERROR_NOT_INITIALIZED,       /* Init not called (or Shutdown called) */
    NVPM_ERROR_ALREADY_INITIALIZED,   /* Init called twice */
    NVPM_ERROR_BAD_ENUMERATOR,        /* a NULL enumeration callback */
    NVPM_ERROR_STRING_TOO_SMALL,      /* the buffer is smaller than *punLen says is needed */
    NVPM_ERROR_INVALID_COUNTER,       /* no counter has that id or name in this context */
    NVPM_ERROR_OUT_OF_MEMORY,         /* ReserveObjects: more objects than a pass can hold */
    NVPM_ERROR_EXPERIMENT_INCOMPLETE, /* EndExperiment before every pass BeginExperiment asked for ended */
    NVPM_ERROR_INVALID_PASS,          /* a pass number at or past the experiment's pass count */
    NVPM_ERROR_INVALID_OBJECT,        /* an object id not reserved, or not measured */
    NVPM_ERROR_COUNTER_NOT_ENABLED,   /* a value asked for a counter that is not added */
    NVPM_ERROR_COUNTER_NOT_FOUND,     /* GetCounterIDByContext: no counter of that name */
    NVPM_ERROR_EXPERIMENT_NOT_RUN,    /* no experiment or sample has measured this counter since it was added */
    NVPM_ERROR_32BIT_ON_64BIT,
    NVPM_ERROR_STATE_MACHINE,
    NVPM_ERROR_INTERNAL,              /* the engine failed (logged; NvPmApi.Manager.h's callers see why on stderr) */
    NVPM_WARNING_ENDED_EARLY,         /* an enumeration callback stopped the enumeration */
    NVPM_ERROR_TIME_OUT,              /* results did not arrive (the GPU never finished the work) */
    NVPM_WARNING_DUPLICATE,           /* the counter is already added */
    NVPM_ERROR_COUNTERS_ENABLED,
    NVPM_ERROR_CONTEXT_NOT_SUPPORTED, /* the API context cannot be measured (not current, no driver, ...) */
    NVPM_ERROR_INVALID_CONTEXT,       /* no NvPmApi context has that handle */
    NVPM_ERROR_GPU_UNSUPPORTED,
    NVPM_INCORRECT_VALUE_TYPE,        /* ...Uint64 / ...Float64 getter of a counter of the other value type */
    /* Documented by the user guide, not numbered by PerfKit 4.x's header: */
    NVPM_ERROR_NO_COUNTERS,           /* BeginExperiment with no counter added */
    NVPM_ERROR_NOT_IN_EXPERIMENT,     /* a pass or object call outside BeginExperiment/EndExperiment */
    NVPM_ERROR_NOT_IN_PASS,           /* an object call outside a pass, or EndPass of another pass */
    NVPM_ERROR_PASS_SKIPPED,          /* BeginPass with a pass other than the next one */
    NVPM_ERROR_EXPERIMENT_RUNNING,    /* a value, Sample or counter change while an experiment runs */
    NVPM_WARNING_COUNTER_NOT_ENABLED, /* RemoveCounter* of a counter that is not added (nothing changes) */
    NVPM_WARNING_NO_COUNTERS,         /* RemoveAllCounters with no counter added */
    NVPM_WARNING_PASS_NOT_ENDED,      /* BeginPass while a pass is open (refused: the open pass goes on) */
    NVPM_WARNING_OBJECT_NOT_ENDED,    /* BeginObject or EndPass while an object is open (refused) */
    NVPM_WARNING_PASS_INCOMPLETE,     /* EndPass (the pass ends) before every reserved object was measured in it */
    NVPM_WARNING_DRAW_COUNT_CHANGED,  /* EndObject (the object ends) of an object pass 0 did not measure: no values */
    NVPM_ERROR_MAX
} NVPMRESULT;
#define NVPMRESULT_DEFINED
#endif

/* The guide's names for two codes above. */
#define NVPM_OUT_OF_MEMORY NVPM_ERROR_OUT_OF_MEMORY
#define NVPM_ERROR_UNKNOWN_OBJECT NVPM_ERROR_INVALID_OBJECT

#define NVCALL

typedef enum {
    NVPM_CT_GPU,       /* a raw GPU counter */
    NVPM_CT_OGL,       /* an OpenGL driver counter */
    NVPM_CT_D3D,       /* a Direct3D driver counter */
    NVPM_CT_SIMEXP,    /* a simplified experiment ("<unit> SOL", "GPU Bottleneck"): experiment mode only */
    NVPM_CT_USER,
    NVPM_CT_AGGREGATE  /* computed from several raw counters */
} NVPMCOUNTERTYPE;

typedef enum {
    NVPM_CD_RATIO,  /* show value / cycles */
    NVPM_CD_RAW     /* show value */
} NVPMCOUNTERDISPLAY;

typedef enum {
    NVPM_VALUE_TYPE_UINT64,
    NVPM_VALUE_TYPE_FLOAT64
} NVPMCOUNTERVALUETYPE;

typedef enum {
    NVPMA_COUNTER_TYPE,        /* NVPMCOUNTERTYPE */
    NVPMA_COUNTER_DISPLAY,     /* NVPMCOUNTERDISPLAY */
    NVPMA_COUNTER_DOMAIN,      /* not offered: NVPM_ERROR_INVALID_PARAMETER */
    NVPMA_COUNTER_VALUE_TYPE,  /* NVPMCOUNTERVALUETYPE */
    NVPMA_COUNTER_MAX          /* not offered: NVPM_ERROR_INVALID_PARAMETER */
} NVPMATTRIBUTE;
/* The guide's name for the display attribute. */
#define NVPMA_COUNTER_DISPLAY_HINT NVPMA_COUNTER_DISPLAY

typedef struct _NVPMSampleValue {
    NVPMCounterID unCounterID;
    NVPMUINT64 ulValue;
    NVPMUINT64 ulCycles;
} NVPMSampleValue;

typedef struct _NVPMSampleValueEx {
    NVPMUINT32 ulVersion; /* NVPMSAMPLEVALUEEX_VERSION() */
    NVPMCounterID unCounterID;
    union {
        NVPMUINT64 ulValue;
        NVPMFLOAT64 dValue;
    };
    NVPMUINT64 ulCycles;
    NVPMUINT64 ulFlags; /* NVPMSAMPLEEX_FLAG_*; the value type in NVPMSAMPLEEX_FLAG_VALUE_TYPE_MASK */
} NVPMSampleValueEx;

#define NVPMSAMPLEEX_FLAG_OVERFLOW 0x0000000000000001ull
#define NVPMSAMPLEEX_FLAG_UPDATED 0x0000000000000002ull
#define NVPMSAMPLEEX_FLAG_VALUE_TYPE_MASK 0x000000000000FF00ull
#define NVPMSAMPLEEX_FLAG_VALUE_TYPE_SHIFT 8
#define NVPMSAMPLEEX_FLAG_VALUE_TYPE(flag) \
    ((NVPMCOUNTERVALUETYPE)(((flag) & NVPMSAMPLEEX_FLAG_VALUE_TYPE_MASK) >> NVPMSAMPLEEX_FLAG_VALUE_TYPE_SHIFT))
#define MAKE_NVPMSAMPLEVALUEEX_VERSION(VERSION, STRUCT_SIZE) (NVPMUINT32)(((VERSION) << 16) | (STRUCT_SIZE))
#define NVPMSAMPLEVALUEEX_VER 2
#define NVPMSAMPLEVALUEEX_VERSION() MAKE_NVPMSAMPLEVALUEEX_VERSION(NVPMSAMPLEVALUEEX_VER, sizeof(NVPMSampleValueEx))

/* GetGPUBottleneckName writes at most this many bytes, the terminating NUL included. */
#define NVPM_BOTTLENECK_NAME_MAX 64

typedef int (*NVPMEnumFunc)(NVPMCounterID unCounterID, const char* pcCounterName);
typedef int (*NVPMEnumFuncUserData)(NVPMCounterID unCounterID, const char* pcCounterName, void* pUserData);
typedef NVPMUINT64 (*FuncPtrNewDataProvider)(void);

typedef NVPMRESULT(NVCALL* NVPMSetWarningLevel_Pfn)(NVPMUINT unLevel);
typedef NVPMRESULT(NVCALL* NVPMGetExtendedError_Pfn)(NVPMUINT* pnError);
typedef NVPMRESULT(NVCALL* NVPMInit_Pfn)(void);
typedef NVPMRESULT(NVCALL* NVPMShutdown_Pfn)(void);
typedef NVPMRESULT(NVCALL* NVPMCreateContextFromOGLContext_Pfn)(APIContextHandle hglrc, NVPMContext* perfCtx);
typedef NVPMRESULT(NVCALL* NVPMCreateContextFromCudaContext_Pfn)(APIContextHandle cuCtx, NVPMContext* perfCtx);
typedef NVPMRESULT(NVCALL* NVPMDestroyContext_Pfn)(NVPMContext perfCtx);
typedef NVPMRESULT(NVCALL* NVPMEnumCountersByContext_Pfn)(NVPMContext perfCtx, NVPMEnumFunc pEnumFunction);
typedef NVPMRESULT(NVCALL* NVPMEnumCountersByContextUserData_Pfn)(NVPMContext perfCtx,
                                                                  NVPMEnumFuncUserData pEnumFunction,
                                                                  void* pUserData);
/* *punLen: in, the size of pcString; out, the size needed (terminating NUL included). pcString NULL: the
   size only. A buffer too small: NVPM_ERROR_STRING_TOO_SMALL and nothing written. */
typedef NVPMRESULT(NVCALL* NVPMGetCounterName_Pfn)(NVPMCounterID unCounterID, char* pcString, NVPMUINT* punLen);
typedef NVPMRESULT(NVCALL* NVPMGetCounterDescription_Pfn)(NVPMCounterID unCounterID, char* pcString,
                                                          NVPMUINT* punLen);
typedef NVPMRESULT(NVCALL* NVPMGetCounterIDByContext_Pfn)(NVPMContext perfCtx, const char* pcString,
                                                          NVPMCounterID* punCounterID);
typedef NVPMRESULT(NVCALL* NVPMGetCounterClockRateByContext_Pfn)(NVPMContext perfCtx, const char* pcString,
                                                                 float* pfValue);
typedef NVPMRESULT(NVCALL* NVPMGetCounterAttribute_Pfn)(NVPMCounterID unCounterID, NVPMATTRIBUTE nvAttribute,
                                                        NVPMUINT64* punValue);
typedef NVPMRESULT(NVCALL* NVPMAddCounterByName_Pfn)(NVPMContext perfCtx, const char* pcName);
typedef NVPMRESULT(NVCALL* NVPMAddCounter_Pfn)(NVPMContext perfCtx, NVPMCounterID unCounterID);
typedef NVPMRESULT(NVCALL* NVPMAddCounters_Pfn)(NVPMContext perfCtx, NVPMUINT unCount, NVPMCounterID* punCounterIDs);
typedef NVPMRESULT(NVCALL* NVPMRemoveCounterByName_Pfn)(NVPMContext perfCtx, const char* pcName);
typedef NVPMRESULT(NVCALL* NVPMRemoveCounter_Pfn)(NVPMContext perfCtx, NVPMCounterID unCounterID);
typedef NVPMRESULT(NVCALL* NVPMRemoveCounters_Pfn)(NVPMContext perfCtx, NVPMUINT unCount,
                                                   NVPMCounterID* punCounterIDs);
typedef NVPMRESULT(NVCALL* NVPMRemoveAllCounters_Pfn)(NVPMContext perfCtx);
typedef NVPMRESULT(NVCALL* NVPMReserveObjects_Pfn)(NVPMContext perfCtx, NVPMUINT objNum);
typedef NVPMRESULT(NVCALL* NVPMDeleteObjects_Pfn)(NVPMContext perfCtx);
typedef NVPMRESULT(NVCALL* NVPMBeginExperiment_Pfn)(NVPMContext perfCtx, NVPMUINT* pnNumPasses);
typedef NVPMRESULT(NVCALL* NVPMEndExperiment_Pfn)(NVPMContext perfCtx);
typedef NVPMRESULT(NVCALL* NVPMBeginPass_Pfn)(NVPMContext perfCtx, NVPMUINT nPass);
typedef NVPMRESULT(NVCALL* NVPMEndPass_Pfn)(NVPMContext perfCtx, NVPMUINT nPass);
typedef NVPMRESULT(NVCALL* NVPMBeginObject_Pfn)(NVPMContext perfCtx, NVPMUINT nObjectID);
typedef NVPMRESULT(NVCALL* NVPMEndObject_Pfn)(NVPMContext perfCtx, NVPMUINT nObjectID);
/* Real-time mode: ends the interval since the previous Sample (or since the counters changed) and reads
   its values. pSamples NULL: values kept, none copied, *punCount (if given) set to 0. Otherwise
   *punCount = min(*punCount, counters read) entries are copied. */
typedef NVPMRESULT(NVCALL* NVPMSample_Pfn)(NVPMContext perfCtx, NVPMSampleValue* pSamples, NVPMUINT* punCount);
typedef NVPMRESULT(NVCALL* NVPMSampleEx_Pfn)(NVPMContext perfCtx, NVPMSampleValueEx* pSamples, NVPMUINT* punCount);
typedef NVPMRESULT(NVCALL* NVPMGetCounterValueByName_Pfn)(NVPMContext perfCtx, const char* pcName,
                                                          NVPMUINT nObjectID, NVPMUINT64* pulValue,
                                                          NVPMUINT64* pulCycles);
typedef NVPMRESULT(NVCALL* NVPMGetCounterValue_Pfn)(NVPMContext perfCtx, NVPMCounterID unCounterID,
                                                    NVPMUINT nObjectID, NVPMUINT64* pulValue,
                                                    NVPMUINT64* pulCycles);
typedef NVPMRESULT(NVCALL* NVPMGetCounterValueUint64_Pfn)(NVPMContext perfCtx, NVPMCounterID unCounterID,
                                                          NVPMUINT nObjectID, NVPMUINT64* pulValue,
                                                          NVPMUINT64* pulCycles, NVPMUINT8* pOverflow);
typedef NVPMRESULT(NVCALL* NVPMGetCounterValueFloat64_Pfn)(NVPMContext perfCtx, NVPMCounterID unCounterID,
                                                           NVPMUINT nObjectID, NVPMFLOAT64* pdValue,
                                                           NVPMUINT64* pulCycles, NVPMUINT8* pOverflow);
typedef NVPMRESULT(NVCALL* NVPMGetCounterValueByNameUint64_Pfn)(NVPMContext perfCtx, const char* pcName,
                                                                NVPMUINT nObjectID, NVPMUINT64* pulValue,
                                                                NVPMUINT64* pulCycles, NVPMUINT8* pOverflow);
typedef NVPMRESULT(NVCALL* NVPMGetCounterValueByNameFloat64_Pfn)(NVPMContext perfCtx, const char* pcName,
                                                                 NVPMUINT nObjectID, NVPMFLOAT64* pdValue,
                                                                 NVPMUINT64* pulCycles, NVPMUINT8* pOverflow);
/* pcName: at least NVPM_BOTTLENECK_NAME_MAX bytes. */
typedef NVPMRESULT(NVCALL* NVPMGetGPUBottleneckName_Pfn)(NVPMContext perfCtx, NVPMUINT64 ulValue, char* pcName);
typedef NVPMRESULT(NVCALL* NVPMRegisterNewDataProviderCallback_Pfn)(FuncPtrNewDataProvider fpNewDP);

typedef struct NVPM_UUID {
    NVPMUINT Data1;
    NVPMUINT16 Data2;
    NVPMUINT16 Data3;
    NVPMUINT8 Data4[8];
} NVPM_UUID;

/* Define NVPM_INITGUID in one translation unit before including this header, as with PerfKit. (C++ needs
   `extern` on the definition for the id to be seen by other translation units; C must not have it.) */
#ifdef NVPM_INITGUID
#ifdef __cplusplus
#define NVPM_DEFINE_GUID(name, a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) \
    extern const NVPM_UUID name = {a, b, c, {d0, d1, d2, d3, d4, d5, d6, d7}}
#else
#define NVPM_DEFINE_GUID(name, a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) \
    const NVPM_UUID name = {a, b, c, {d0, d1, d2, d3, d4, d5, d6, d7}}
#endif
#else
#define NVPM_DEFINE_GUID(name, a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) extern const NVPM_UUID name
#endif

/* The id of the NvPmApi table (PerfKit's value). */
NVPM_DEFINE_GUID(ETID_NvPmApi, 0x243e8da1, 0x4bf8, 0x44b9, 0x98, 0xc4, 0xf9, 0x84, 0xd0, 0x6b, 0xdf, 0x46);

/* Functions in PerfKit 4.x's slot order (Linux: no Direct3D slots); struct_size is the table's size, so a
   table only grows at its end. */
typedef struct _NvPmApi {
    NVPMUINT struct_size;
    NVPMSetWarningLevel_Pfn SetWarningLevel;
    NVPMGetExtendedError_Pfn GetExtendedError;
    NVPMInit_Pfn Init;
    NVPMShutdown_Pfn Shutdown;
    NVPMCreateContextFromOGLContext_Pfn CreateContextFromOGLContext;
    NVPMCreateContextFromCudaContext_Pfn CreateContextFromCudaContext;
    NVPMDestroyContext_Pfn DestroyContext;
    NVPMEnumCountersByContext_Pfn EnumCountersByContext;
    NVPMGetCounterName_Pfn GetCounterName;
    NVPMGetCounterDescription_Pfn GetCounterDescription;
    NVPMGetCounterIDByContext_Pfn GetCounterIDByContext;
    NVPMGetCounterClockRateByContext_Pfn GetCounterClockRateByContext;
    NVPMGetCounterAttribute_Pfn GetCounterAttribute;
    NVPMAddCounterByName_Pfn AddCounterByName;
    NVPMAddCounter_Pfn AddCounter;
    NVPMAddCounters_Pfn AddCounters;
    NVPMRemoveCounterByName_Pfn RemoveCounterByName;
    NVPMRemoveCounter_Pfn RemoveCounter;
    NVPMRemoveCounters_Pfn RemoveCounters;
    NVPMRemoveAllCounters_Pfn RemoveAllCounters;
    NVPMReserveObjects_Pfn ReserveObjects;
    NVPMDeleteObjects_Pfn DeleteObjects;
    NVPMBeginExperiment_Pfn BeginExperiment;
    NVPMEndExperiment_Pfn EndExperiment;
    NVPMBeginPass_Pfn BeginPass;
    NVPMEndPass_Pfn EndPass;
    NVPMBeginObject_Pfn BeginObject;
    NVPMEndObject_Pfn EndObject;
    NVPMSample_Pfn Sample;
    NVPMSampleEx_Pfn SampleEx;
    NVPMGetCounterValueByName_Pfn GetCounterValueByName;
    NVPMGetCounterValue_Pfn GetCounterValue;
    NVPMGetGPUBottleneckName_Pfn GetGPUBottleneckName;
    NVPMRegisterNewDataProviderCallback_Pfn RegisterNewDataProviderCallback;
    NVPMGetCounterValueUint64_Pfn GetCounterValueUint64;
    NVPMGetCounterValueFloat64_Pfn GetCounterValueFloat64;
    NVPMEnumCountersByContextUserData_Pfn EnumCountersByContextUserData;
    /* Appended (the guide documents them; PerfKit 4.x's table ends above). */
    NVPMGetCounterValueByNameUint64_Pfn GetCounterValueByNameUint64;
    NVPMGetCounterValueByNameFloat64_Pfn GetCounterValueByNameFloat64;
} NvPmApi;

/* The library's one exported function: *ppExportTable = the table named by pExportTableId.
   NVPM_ERROR_INVALID_PARAMETER for a NULL argument or an unknown id. */
typedef NVPMRESULT(NVCALL* NVPMGetExportTable_Pfn)(const NVPM_UUID* pExportTableId, void** ppExportTable);

#ifdef __cplusplus
}
#endif

#endif /* NVPMAPI_NVPMAPI_H_ */
