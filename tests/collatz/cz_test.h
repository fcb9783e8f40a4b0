/* Helpers shared by the Collatz CPU tests (test_collatz_engine.c, test_collatz_converge.c):
 * 128-bit conversions, decimal printing into rotating buffers, and a CPU context of t threads. */
#ifndef BULK_TESTS_COLLATZ_CZ_TEST_H
#define BULK_TESTS_COLLATZ_CZ_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include "bulk/bulk.h"
#include "bulk/collatz.h"
#include "collatz/collatz_internal.h"
#include "collatz/naive.h"

static inline bulk_u128 U(nv_u128 v)
{
    bulk_u128 r = { (uint64_t)v, (uint64_t)(v >> 64) };
    return r;
}
static inline nv_u128 N(bulk_u128 v) { return ((nv_u128)v.hi << 64) | v.lo; }
/* decimal of v; eight calls may be live at once (one printf) */
static inline const char *S(nv_u128 v)
{
    static char buf[8][48];
    static int slot;
    slot = (slot + 1) & 7;
    bulk_cz_u128_str(U(v), buf[slot]);
    return buf[slot];
}

/* a CPU context of t threads (exits on failure) */
static inline bulk_ctx *ctx_threads(int t)
{
    bulk_ctx *c;
    if (bulk_ctx_open(&c, BULK_BACKEND_CPU, t) != BULK_OK) {
        fprintf(stderr, "cannot open a context\n");
        exit(1);
    }
    return c;
}

#endif
