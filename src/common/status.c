/* Status code strings. */
#include "bulk/bulk.h"

const char *bulk_status_string(int status)
{
    switch (status) {
    case BULK_OK: return "ok";
    case BULK_ERR_ARG: return "invalid argument";
    case BULK_ERR_NOMEM: return "out of memory";
    case BULK_ERR_DIVZERO: return "division by zero";
    case BULK_ERR_EVEN_MODULUS: return "modulus must be odd";
    case BULK_ERR_NO_BACKEND: return "backend not available";
    case BULK_ERR_CUDA: return "CUDA error";
    case BULK_ERR_IO: return "input/output error";
    case BULK_ERR_PARSE: return "malformed input";
    case BULK_ERR_OVERFLOW: return "value too wide";
    case BULK_ERR_NOT_INVERTIBLE: return "not invertible";
    case BULK_ERR_UNSUPPORTED: return "not supported on this backend";
    case BULK_ERR_INTERNAL: return "internal error";
    case BULK_ERR_CANCELLED: return "cancelled";
    default: return "unknown status";
    }
}

const char *bulk_version(void)
{
#define BULK_STR2(x) #x
#define BULK_STR(x) BULK_STR2(x)
    return BULK_STR(BULK_VERSION_MAJOR) "." BULK_STR(BULK_VERSION_MINOR) "." BULK_STR(BULK_VERSION_PATCH);
}
