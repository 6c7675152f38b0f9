"""The CUDA context to measure: the calling thread's current one (what PyTorch, CuPy, JAX and Triton use),
through the driver API in libcuda.so.1, loaded only when a live context is asked for."""

import ctypes

from ._status import OpenGpaError

DRIVER_LIBRARY = "libcuda.so.1"
_driver = None


def _load_driver():
    global _driver
    if _driver is None:
        try:
            _driver = ctypes.CDLL(DRIVER_LIBRARY)
        except OSError as error:
            raise OpenGpaError(f"loading {DRIVER_LIBRARY}", -25,
                               detail=f"{error}: no NVIDIA driver on this machine; open an offline context "
                               "with opengpa.open_context(chip='GH100') to list counters without a GPU") from None
        for name, argtypes in {
            "cuInit": [ctypes.c_uint],
            "cuCtxGetCurrent": [ctypes.POINTER(ctypes.c_void_p)],
            "cuCtxSetCurrent": [ctypes.c_void_p],
            "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
            "cuDevicePrimaryCtxRetain": [ctypes.POINTER(ctypes.c_void_p), ctypes.c_int],
            "cuCtxSynchronize": [],
        }.items():
            function = getattr(_driver, name)
            function.argtypes = argtypes
            function.restype = ctypes.c_int
    return _driver


def _check(function, result):
    if result != 0:
        raise OpenGpaError(function, 0, detail=f"CUresult {result}")


def current_context(device=0):
    """The thread's current CUcontext; when there is none, device `device`'s primary context made current
    (the context the CUDA runtime, hence PyTorch and CuPy, uses)."""
    driver = _load_driver()
    _check("cuInit", driver.cuInit(0))
    context = ctypes.c_void_p()
    _check("cuCtxGetCurrent", driver.cuCtxGetCurrent(ctypes.byref(context)))
    if context.value:
        return context.value
    handle = ctypes.c_int()
    _check("cuDeviceGet", driver.cuDeviceGet(ctypes.byref(handle), device))
    _check("cuDevicePrimaryCtxRetain", driver.cuDevicePrimaryCtxRetain(ctypes.byref(context), handle.value))
    _check("cuCtxSetCurrent", driver.cuCtxSetCurrent(context))
    return context.value


def synchronize():
    """Waits for the current context's work (so host timing and replays see finished passes)."""
    driver = _load_driver()
    _check("cuCtxSynchronize", driver.cuCtxSynchronize())
