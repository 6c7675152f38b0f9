// The GPA version this library reports through GpaGetVersion (the project version, set by CMake).
#ifndef OPENGPA_CORE_VERSION_H_
#define OPENGPA_CORE_VERSION_H_

#ifndef OPENGPA_VERSION_MAJOR
#define OPENGPA_VERSION_MAJOR 3
#endif
#ifndef OPENGPA_VERSION_MINOR
#define OPENGPA_VERSION_MINOR 0
#endif
#ifndef OPENGPA_VERSION_BUILD
#define OPENGPA_VERSION_BUILD 0
#endif
#ifndef OPENGPA_VERSION_UPDATE
#define OPENGPA_VERSION_UPDATE 0
#endif

#endif  // OPENGPA_CORE_VERSION_H_
