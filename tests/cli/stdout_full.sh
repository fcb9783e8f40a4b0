#!/bin/sh
# A failed write of standard output is a failed run: every command and subcommand, its --help
# text included, run with stdout on /dev/full (every write fails with ENOSPC) must exit 1 and
# say "bulk: writing standard output: ...". Each command first runs with stdout to a file and
# must succeed there and print something, so that a case cannot pass by failing for another
# reason. Skipped (77) where /dev/full does not exist.
BULK=$1
S=$3
[ -c /dev/full ] || { echo "SKIP: no /dev/full"; exit 77; }
. "$(dirname "$0")/cli_setup.sh"

# inputs, made here
printf '1\n3\n12345678901234567890\n' >"$S/one.in"
printf '2 3 5\n4 5 7\n' >"$S/three.in"
printf 'ab\naabb\naab\n\n' >"$S/words.txt"
printf '3233\n3127\n4087\n' >"$S/moduli.txt" # 53*61, 53*59, 61*67
"$BULK" circuit adder --bits 2 --out "$S/add2.aag" || fail "circuit adder --out"
printf '0000\n1011\n1111\n' >"$S/vectors.txt"
"$BULK" collatz verify --from 1 --to 4096 --part 1/2 --json >"$S/p1.json" || fail "verify part 1"
"$BULK" collatz verify --from 1 --to 4096 --part 2/2 --json >"$S/p2.json" || fail "verify part 2"

# check ARGS...: succeeds with output on a file; exits 1 naming standard output on /dev/full
check() {
    cases=$((cases + 1))
    "$BULK" "$@" >"$S/out" 2>"$S/err"
    rc=$?
    [ $rc -eq 0 ] || { fail "bulk $*: exit $rc with stdout on a file"; cat "$S/err" >&2; return; }
    [ -s "$S/out" ] || { fail "bulk $*: printed nothing"; return; }
    "$BULK" "$@" >/dev/full 2>"$S/err"
    rc=$?
    [ $rc -eq 1 ] || fail "bulk $*: exit $rc with stdout on /dev/full, expected 1"
    grep -q "^bulk: writing standard output: No space left on device" "$S/err" ||
        { fail "bulk $* >/dev/full: no message naming standard output"; cat "$S/err" >&2; }
}

check --help
check help
check --version
check info
check info --json
check info --help

check collatz --help
check collatz verify --from 1 --to 100000
check collatz verify --from 1 --to 100000 --part 1/4 --json
check collatz verify --from 1 --to 100000 --converge
check collatz verify --help
check collatz merge "$S/p1.json" "$S/p2.json"
check collatz merge --json "$S/p1.json" "$S/p2.json"
check collatz merge --help
check collatz delay 27 2^100+7
check collatz delay --help
check collatz delays --from 1 --to 100000
check collatz delays --from 1 --to 100000 --format u32
check collatz delays --from 1 --to 100001 --stats 1000
check collatz delays --help
check collatz records --kind delay --from 1 --to 100000
check collatz records --kind path --from 1 --to 100000 --checkpoint "$S/rec.ckpt"
check collatz records --help
check collatz sieve --k 12
check collatz sieve --help

check life --help
check life run --in "$S/glider.rle" --steps 4
check life run --in "$S/glider.rle" --steps 4 --every 1
check life run --help

check int --help
for op in add sub mul gcd cmp; do check int $op --in "$S/two.in"; done
check int add --in "$S/two.in" --hex
check int sqr --in "$S/one.in"
for op in div mod divmod; do check int $op --in "$S/two.in"; done
check int powmod --in "$S/three.in"
check int add --help

check gcd --help
check gcd pairs "$S/moduli.txt"
check gcd batch "$S/moduli.txt"
check gcd pairs --help
check gcd batch --help

check cky --help
check cky --grammar "$S/anbn.cfg" --in "$S/words.txt"

check circuit --help
check circuit adder --bits 4
check circuit adder --bits 4 --binary
check circuit eval --circuit "$S/add2.aag" --in "$S/vectors.txt"
check circuit eval --help
check circuit adder --help

check dist --help
check dist placement
check dist placement --help
check dist collatz --help
check dist collatz verify --from 1 --to 100000
check dist collatz verify --from 1 --to 100000 --json
check dist collatz delays --from 1 --to 100001 --stats 1000
check dist collatz records --kind glide --from 1 --to 100000
check dist int add --in "$S/two.in"
check dist int --help

# a long output loop stops at the first failed write instead of computing everything: 2^24
# delays would take seconds; the run must end well before that (the failure is noticed after
# the first piece of 2^22 numbers at most)
cases=$((cases + 1))
"$BULK" collatz delays --from 1 --to 2^24 --threads 1 >/dev/full 2>"$S/err"
rc=$?
[ $rc -eq 1 ] || fail "collatz delays 2^24 >/dev/full: exit $rc, expected 1"
[ "$(grep -c . "$S/err")" -eq 1 ] || { fail "collatz delays 2^24: more than one message"; cat "$S/err" >&2; }

# a run that already failed keeps its own exit code and message (2: bad usage)
cases=$((cases + 1))
"$BULK" collatz delays --from 10 --to 1 >/dev/full 2>"$S/err"
rc=$?
[ $rc -eq 2 ] || fail "bad usage with stdout on /dev/full: exit $rc, expected 2"
grep -q "range" "$S/err" || fail "bad usage with stdout on /dev/full: the usage message is missing"

# a reader that closes the pipe early: the default SIGPIPE ends bulk at once, as it does
# coreutils; the shell sees head's status (0)
cases=$((cases + 1))
lines=$("$BULK" collatz delays --from 1 --to 2^22 | head -n 3 | wc -l)
[ "$lines" -eq 3 ] || fail "collatz delays | head -n 3: $lines lines"

echo "$cases cases, $fails failures"
[ $fails -eq 0 ]
