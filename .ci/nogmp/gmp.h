/* Stands in for an absent GMP in the no-GMP build of .ci/run (first on the include path): any
 * file of libbulk or the CLI that includes <gmp.h> fails to compile there. */
#error "gmp.h included in a build configured without GMP: libbulk and the bulk CLI must not use GMP"
