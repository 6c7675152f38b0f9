"""Finding and loading OpenGPA's C libraries with ctypes.

The package is a Python face over the C ABI, never a second engine: every counter, pass count and value
comes from the same libGPUPerfAPI<X>.so, libGPUPerfAPICounters.so and libOpenGPAMonitor.so that C programs
load. A library is looked for in, in order:

1. $OPENGPA_LIBRARY_DIR (a build tree's lib/ folder, or an install's);
2. the package's own _libs/ folder (where `pip install .` puts the libraries it built);
3. the dynamic loader's path (LD_LIBRARY_PATH, ldconfig), as the interface loader does in C.
"""

import ctypes
import logging
import os
import threading

from ._status import OpenGpaError

_log = logging.getLogger("opengpa")

# gpu_perf_api_types.h
LOGGING_ERROR = 0x01
LOGGING_MESSAGE = 0x02
LOGGING_ERROR_AND_MESSAGE = LOGGING_ERROR | LOGGING_MESSAGE
STATUS_OK = 0
STATUS_RESULT_NOT_READY = 1

LoggingCallback = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p)

_PACKAGE_LIBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_libs")


def library_search_path():
    """The folders searched before the dynamic loader's own path, in order."""
    folders = []
    if os.environ.get("OPENGPA_LIBRARY_DIR"):
        folders.append(os.environ["OPENGPA_LIBRARY_DIR"])
    folders.append(_PACKAGE_LIBS)
    return folders


def find_library(file_name):
    """The path of `file_name` in the search path, else the bare name for the dynamic loader."""
    for folder in library_search_path():
        candidate = os.path.join(folder, file_name)
        if os.path.exists(candidate):
            return candidate
    return file_name


class CLibrary:
    """One loaded OpenGPA library: typed entry points, and its log routed to Python.

    Every call goes through `call`, which raises OpenGpaError with the library's error messages of that
    call when the status is not OK; messages that are not errors go to the "opengpa" logger at DEBUG.
    """

    def __init__(self, file_name, signatures, register_logging=None):
        self.file_name = file_name
        self.path = find_library(file_name)
        try:
            self._dll = ctypes.CDLL(self.path)
        except OSError as error:
            raise OpenGpaError(
                f"loading {file_name}", -28,
                detail=f"{error} (searched {', '.join(library_search_path())} and the loader's path; "
                "set OPENGPA_LIBRARY_DIR to the folder holding the OpenGPA libraries)") from None
        self._functions = {}
        for name, (argtypes, restype) in signatures.items():
            function = getattr(self._dll, name, None)
            if function is None:
                continue
            function.argtypes = argtypes
            function.restype = restype
            self._functions[name] = function
        self._errors = threading.local()
        self._lock = threading.Lock()
        # Kept referenced: the library calls it for as long as it is loaded.
        self._callback = LoggingCallback(self._on_message)
        if register_logging:
            self.call(register_logging, LOGGING_ERROR_AND_MESSAGE, self._callback)

    def _on_message(self, message_type, message):
        text = message.decode("utf-8", "replace") if message else ""
        if message_type & LOGGING_ERROR:
            errors = getattr(self._errors, "list", None)
            if errors is not None:
                errors.append(text)
            _log.info("%s: %s", self.file_name, text)  # also in the OpenGpaError the call raises
        else:
            _log.debug("%s: %s", self.file_name, text)

    def has(self, name):
        return name in self._functions

    def function(self, name):
        try:
            return self._functions[name]
        except KeyError:
            raise OpenGpaError(name, 0, detail=f"{self.path} does not export it") from None

    def call(self, name, *args, allow=(STATUS_OK,)):
        """Calls `name`; returns its status when it is in `allow`, else raises OpenGpaError."""
        function = self.function(name)
        self._errors.list = []
        try:
            status = function(*args)
        finally:
            errors, self._errors.list = self._errors.list, None
        if status not in allow:
            raise OpenGpaError(name, status, errors)
        return status


_loaded = {}
_loaded_lock = threading.Lock()


def load(file_name, signatures, register_logging=None, initialize=None):
    """The process-wide CLibrary for `file_name`, loaded (and GpaInitialize'd) on first use."""
    with _loaded_lock:
        library = _loaded.get(file_name)
        if library is None:
            library = CLibrary(file_name, signatures, register_logging)
            if initialize:
                initialize(library)
            _loaded[file_name] = library
        return library
