/* SplitMix64 (Steele, Lea, Flood 2014): the one small deterministic generator that benchmark
 * inputs, random grammars and sampling decisions use, so that a seed printed by one program
 * reproduces the same numbers everywhere. Not for cryptographic use. */
#ifndef BULK_UTIL_SPLITMIX_H
#define BULK_UTIL_SPLITMIX_H
#include <stddef.h>
#include <stdint.h>

/* Advances the state *s and returns the next 64-bit output. */
static inline uint64_t bulk_splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A 64-bit hash of the n words w, starting from h (each word mixed in by one SplitMix64 step):
 * the checksums and identities of checkpoint files. Not for cryptographic use. */
static inline uint64_t bulk_hash_words(uint64_t h, const uint64_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t s = h ^ w[i];
        h = bulk_splitmix64(&s);
    }
    return h;
}

#endif
