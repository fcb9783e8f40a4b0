/* 32-bit word strings (the device kernels' bg_word, least significant first, stride 1) to and
 * from GMP, for the simulated-lane tests against GMP. */
#ifndef BULK_TEST_INT_GPU_WORDS_MPZ_H
#define BULK_TEST_INT_GPU_WORDS_MPZ_H

#include <gmp.h>
#include <string.h>

#include "int/cuda/core/words.h"

static inline void to_mpz(mpz_t z, const bg_word *w, int nw) { mpz_import(z, (size_t)nw, -1, 4, 0, 0, w); }

/* w (nw words) = z, zero above z's words (z < 2^(32 nw)). */
static inline void from_mpz(bg_word *w, const mpz_t z, int nw)
{
    memset(w, 0, sizeof(bg_word) * (size_t)nw);
    mpz_export(w, NULL, -1, 4, 0, 0, z);
}

#endif
