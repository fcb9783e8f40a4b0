/* Shared by the libFuzzer targets of tests/fuzz: every target defines LLVMFuzzerTestOneInput,
 * reads the bytes with one of the library's readers and frees everything it got. A broken
 * property (a round trip that changes the data, a reader that reports success with an invalid
 * result) is a finding like a crash: FUZZ_REQUIRE aborts with a message, which libFuzzer
 * records as a crash and saves the input. */
#ifndef BULK_TESTS_FUZZ_UTIL_H
#define BULK_TESTS_FUZZ_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_REQUIRE(cond, ...)                                                                  \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "%s:%d: property broken: ", __FILE__, __LINE__);                     \
            fprintf(stderr, __VA_ARGS__);                                                         \
            fputc('\n', stderr);                                                                  \
            abort();                                                                              \
        }                                                                                         \
    } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
