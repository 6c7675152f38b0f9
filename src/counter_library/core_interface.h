// The two pieces of the core this library uses directly, the backend contract and logging, wherever the
// re-layout (issue 10) has put them: src/backends/backend.h and src/core/logging.h before it,
// src/core/backend.h and src/platform/logging.h after. The one place to simplify once both are on main.
#ifndef OPENGPA_COUNTER_LIBRARY_CORE_INTERFACE_H_
#define OPENGPA_COUNTER_LIBRARY_CORE_INTERFACE_H_

#if __has_include("core/backend.h")
#include "core/backend.h"
#else
#include "backends/backend.h"
#endif

#if __has_include("platform/logging.h")
#include "platform/logging.h"
#else
#include "core/logging.h"
#endif

#endif  // OPENGPA_COUNTER_LIBRARY_CORE_INTERFACE_H_
