/* BULK_API: marks a function of the public API. libbulk is compiled with hidden visibility
 * (CMakeLists.txt), so a function is exported from the shared library exactly when its
 * declaration in include/bulk/ carries this macro; everything else stays internal. The test
 * tests/install/exports.sh compares the shared library's exports with these declarations. */
#ifndef BULK_EXPORT_H
#define BULK_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define BULK_API __attribute__((visibility("default")))
#else
#define BULK_API
#endif

#endif
