// The one translation unit that defines ETID_NvPmApi (NvPmApi.h: NVPM_INITGUID before the first include).
#define NVPM_INITGUID
#include "nvpmapi/NvPmApi.h"
