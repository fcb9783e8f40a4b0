/* u128: the library's one name for an unsigned 128-bit integer (GNU C's unsigned __int128; the
 * build enables the GNU extensions, CMakeLists.txt, and nvcc accepts the type in host and in
 * device code). Every source file that computes in 128 bits uses this name, not a local typedef
 * of its own. A repeated identical typedef is valid C11 and C++, so a test or benchmark that
 * declares its own `typedef unsigned __int128 u128;` may include this header too. */
#ifndef BULK_COMMON_U128_H
#define BULK_COMMON_U128_H

typedef unsigned __int128 u128;

#endif
