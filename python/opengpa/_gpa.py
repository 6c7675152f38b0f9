"""GPA v3's C functions as exported by libGPUPerfAPI<X>.so, typed for ctypes.

Only what the package calls is declared; the names, argument types and statuses are AMD's GPA v3.17 ABI
(include/gpu_performance_api/gpu_perf_api_function_types.h), so this is also a client of that ABI.
"""

import ctypes
from ctypes import POINTER, c_char_p, c_double, c_int, c_size_t, c_uint32, c_uint64, c_void_p

from . import _library

GpaStatus = c_int
Handle = c_void_p  # GpaContextId, GpaSessionId, GpaCommandListId: opaque pointers

# gpu_perf_api_types.h / opengpa_ext.h
OPEN_CONTEXT_DEFAULT = 0
OPEN_CONTEXT_ENABLE_HARDWARE_COUNTERS = 0x80
SESSION_SAMPLE_TYPE_DISCRETE_COUNTER = 0
COMMAND_LIST_NONE = 0
DATA_TYPE_FLOAT64 = 0
DATA_TYPE_UINT64 = 1
API_OPENGL = 2
API_OPENCL = 3
API_VULKAN = 5
API_CUDA = 0x100

USAGE_NAMES = ("ratio", "percentage", "cycles", "milliseconds", "bytes", "items", "kilobytes", "nanoseconds")
DATA_TYPE_NAMES = ("float64", "uint64")

_u32p = POINTER(c_uint32)
_strp = POINTER(c_char_p)

SIGNATURES = {
    "GpaInitialize": ([c_int], GpaStatus),
    "GpaRegisterLoggingCallback": ([c_int, _library.LoggingCallback], GpaStatus),
    "GpaGetVersion": ([_u32p, _u32p, _u32p, _u32p], GpaStatus),
    "GpaOpenContext": ([c_void_p, c_int, POINTER(Handle)], GpaStatus),
    "GpaCloseContext": ([Handle], GpaStatus),
    "GpaGetDeviceName": ([Handle, _strp], GpaStatus),
    "GpaGetDeviceAndRevisionId": ([Handle, _u32p, _u32p], GpaStatus),
    "GpaGetNumCounters": ([Handle, _u32p], GpaStatus),
    "GpaGetCounterName": ([Handle, c_uint32, _strp], GpaStatus),
    "GpaGetCounterIndex": ([Handle, c_char_p, _u32p], GpaStatus),
    "GpaGetCounterGroup": ([Handle, c_uint32, _strp], GpaStatus),
    "GpaGetCounterDescription": ([Handle, c_uint32, _strp], GpaStatus),
    "GpaGetCounterDataType": ([Handle, c_uint32, POINTER(c_int)], GpaStatus),
    "GpaGetCounterUsageType": ([Handle, c_uint32, POINTER(c_int)], GpaStatus),
    "OpenGpaGetCounterFormula": ([Handle, c_uint32, _strp], GpaStatus),
    "OpenGpaGetCounterHardwareUnit": ([Handle, c_uint32, _strp], GpaStatus),
    "GpaCreateSession": ([Handle, c_int, POINTER(Handle)], GpaStatus),
    "GpaDeleteSession": ([Handle], GpaStatus),
    "GpaBeginSession": ([Handle], GpaStatus),
    "GpaEndSession": ([Handle], GpaStatus),
    "GpaEnableCounter": ([Handle, c_uint32], GpaStatus),
    "GpaGetPassCount": ([Handle, _u32p], GpaStatus),
    "GpaBeginCommandList": ([Handle, c_uint32, c_void_p, c_int, POINTER(Handle)], GpaStatus),
    "GpaEndCommandList": ([Handle], GpaStatus),
    "GpaBeginSample": ([c_uint32, Handle], GpaStatus),
    "GpaEndSample": ([Handle], GpaStatus),
    "GpaGetSampleCount": ([Handle, _u32p], GpaStatus),
    "GpaIsSessionComplete": ([Handle], GpaStatus),
    "GpaGetSampleResultSize": ([Handle, c_uint32, POINTER(c_size_t)], GpaStatus),
    "GpaGetSampleResult": ([Handle, c_uint32, c_size_t, c_void_p], GpaStatus),
}

LIBRARY_FILES = {
    "cuda": "libGPUPerfAPICUDA.so",
    "vulkan": "libGPUPerfAPIVK.so",
    "opengl": "libGPUPerfAPIGL.so",
    "opencl": "libGPUPerfAPICL.so",
}


class GpaCudaContextOpenInfo(ctypes.Structure):
    """gpu_perf_api_cuda.h's open-info: a live CUcontext, or a chip name for an offline context."""

    _fields_ = [
        ("type", c_uint32),
        ("struct_size", c_uint32),
        ("context", c_void_p),
        ("chip_name", c_char_p),
        ("max_samples_per_pass", c_uint32),
    ]
    TYPE = 0x5543474F  # GPA_CUDA_CONTEXT_OPEN_INFO_TYPE, "OGCU"

    @classmethod
    def make(cls, context=None, chip_name=None, max_samples_per_pass=0):
        return cls(cls.TYPE, ctypes.sizeof(cls), context, chip_name.encode() if chip_name else None,
                   max_samples_per_pass)


def _initialize(library):
    # GpaInitialize once per process and library; "already initialised" is fine (another client did it).
    library.call("GpaInitialize", 0, allow=(0, -32))


def gpa_library(api):
    """The loaded libGPUPerfAPI<X>.so of `api` ("cuda", "vulkan", "opengl", "opencl"), or the GPA v3
    library file `api` names ("libGPUPerfAPITest.so": the tests' fake backend)."""
    if api.endswith(".so"):
        file_name = api
    elif api in LIBRARY_FILES:
        file_name = LIBRARY_FILES[api]
    else:
        raise ValueError(f"api {api!r} is not one of {', '.join(LIBRARY_FILES)}")
    return _library.load(file_name, SIGNATURES, register_logging="GpaRegisterLoggingCallback",
                         initialize=_initialize)


def get_string(library, function, *args):
    value = c_char_p()
    library.call(function, *args, ctypes.byref(value))
    return value.value.decode("utf-8", "replace") if value.value is not None else ""


def get_u32(library, function, *args):
    value = c_uint32()
    library.call(function, *args, ctypes.byref(value))
    return value.value


def get_enum(library, function, *args):
    value = c_int()
    library.call(function, *args, ctypes.byref(value))
    return value.value


def decode_results(raw, data_types):
    """One sample's result buffer (a GpaUInt64 per enabled counter) as Python floats.

    float64 counters are a double's bits in the GpaUInt64 slot, uint64 ones the integer itself.
    """
    words = (c_uint64 * len(data_types)).from_buffer_copy(raw)
    doubles = (c_double * len(data_types)).from_buffer_copy(raw)
    return [float(doubles[i]) if kind == DATA_TYPE_FLOAT64 else float(words[i])
            for i, kind in enumerate(data_types)]
