#!/bin/sh
# bulk int isprime / nextprime: known answers (small numbers, negatives, hex, Carmichael and
# strong pseudoprimes, Mersenne numbers, the largest primes below 2^64 and 2^128), --rounds,
# --hex and the result's extra limb; bad input is in int_errors.sh.
. "$(dirname "$0")/int_lib.sh"

printf '%s\n' 0 1 2 3 4 5 9 -7 -2 97 561 2047 3215031751 0x11 \
    18446744073709551557 18446744073709551559 3825123056546413051 \
    170141183460469231731687303715884105727 340282366920938463463374607431768211297 \
    2305843009213693951 2305843009213693953 >"$S/p.in"
printf '%s\n' 0 0 1 1 0 1 0 0 0 1 0 0 0 1 1 0 0 1 1 1 0 >"$S/p.expect"
run_ok "isprime" int isprime --in "$S/p.in"
same "isprime known answers" "$S/p.expect" "$S/out"
run_ok "isprime --rounds 20 --bits 192" int isprime --rounds 20 --bits 192 --in "$S/p.in"
same "isprime with 20 more rounds at 192 bits" "$S/p.expect" "$S/out"
run_ok "isprime --threads 1" int isprime --threads 1 --in "$S/p.in"
same "isprime on one thread" "$S/p.expect" "$S/out"

printf '%s\n' -100 0 1 2 3 89 18446744073709551557 18446744073709551615 0xffffffffffffffff \
    340282366920938463463374607431768211297 >"$S/n.in"
printf '%s\n' 2 2 2 3 5 97 18446744073709551629 18446744073709551629 18446744073709551629 \
    340282366920938463463374607431768211507 >"$S/n.expect"
run_ok "nextprime" int nextprime --in "$S/n.in"
same "nextprime known answers (past 2^64 and 2^128 too)" "$S/n.expect" "$S/out"
printf '0x2\n0x2\n0x2\n0x3\n0x5\n0x61\n0x1000000000000000d\n0x1000000000000000d\n0x1000000000000000d\n0x100000000000000000000000000000033\n' >"$S/nh.expect"
run_ok "nextprime --hex" int nextprime --hex --in "$S/n.in"
same "nextprime --hex" "$S/nh.expect" "$S/out"
finish
