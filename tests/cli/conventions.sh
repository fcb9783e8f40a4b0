#!/bin/sh
# One set of conventions across the commands of bulk (docs/cli.md):
#   - every --help (and -h), at every level, exits 0 and prints its text on stdout only;
#   - invalid BULK_THREADS, BULK_PROGRESS, BULK_BACKEND, BULK_TUNE values and --backend gpu are refused
#     with exit 2 and a message naming the variable, the value and the valid values;
#   - --in - (and a FILE argument '-') reads standard input, with the same result as the file;
#   - --threads 0 is accepted by every command that takes --threads (the default: BULK_THREADS,
#     else all online CPUs) and gives the same result as --threads 1; out of range is exit 2;
#   - I/O failures of outputs (a directory that does not exist) exit 1, naming the path and the
#     cause; an input that cannot be read exits 2, naming the path and the cause.
BULK=$1
S=$3
. "$(dirname "$0")/cli_setup.sh"

printf 'ab\naabb\naab\n\n' >"$S/words.txt"
printf '3233\n3127\n4087\n' >"$S/moduli.txt"
"$BULK" circuit adder --bits 2 --out "$S/add2.aag" || fail "circuit adder --out"
printf '0000\n1011\n1111\n' >"$S/vectors.txt"
"$BULK" collatz verify --from 1 --to 4096 --json >"$S/whole.json" || fail "verify --json"

# ---- every --help exits 0, on stdout ----------------------------------------------------------
help_ok() {
    for h in --help -h; do
        cases=$((cases + 1))
        "$BULK" "$@" $h >"$S/out" 2>"$S/err"
        rc=$?
        [ $rc -eq 0 ] || { fail "bulk $* $h: exit $rc"; cat "$S/err" >&2; continue; }
        grep -q "usage" "$S/out" || fail "bulk $* $h: no usage text on stdout"
        [ -s "$S/err" ] && { fail "bulk $* $h: something on stderr"; cat "$S/err" >&2; }
    done
}
help_ok
help_ok info
help_ok collatz
for sub in verify merge delay delays records sieve; do help_ok collatz $sub; done
help_ok life
help_ok life run
help_ok int
for op in add sub mul sqr div mod divmod gcd powmod cmp; do help_ok int $op; done
help_ok gcd
help_ok gcd pairs
help_ok gcd batch
help_ok cky
help_ok circuit
for sub in eval adder bench; do help_ok circuit $sub; done
help_ok dist
help_ok dist placement
help_ok dist collatz
for sub in verify delays records; do help_ok dist collatz $sub; done
help_ok dist int
help_ok dist int add
cases=$((cases + 1))
"$BULK" help >"$S/out" 2>"$S/err" && grep -q usage "$S/out" || fail "bulk help"
# --help wins over a bad environment (it is how one finds the valid values)
cases=$((cases + 1))
BULK_BACKEND=gpu "$BULK" int add --help >"$S/out" 2>&1 || fail "int add --help with BULK_BACKEND=gpu"

# ---- the environment ----------------------------------------------------------------------------
# bad_env VAR VALUE EXPECTED-TEXT: refused (exit 2) by several commands, message names all three
bad_env() {
    var=$1 val=$2 want=$3
    for cmd in "int add --in $S/two.in" "collatz sieve --k 4" "info" "life run --in $S/glider.rle --steps 1"; do
        cases=$((cases + 1))
        env "$var=$val" "$BULK" $cmd >"$S/out" 2>"$S/err"
        rc=$?
        [ $rc -eq 2 ] || { fail "$var='$val' bulk $cmd: exit $rc, expected 2"; continue; }
        grep -qF "$var='$val'" "$S/err" || { fail "$var='$val' bulk $cmd: the message does not name the variable and value"; cat "$S/err" >&2; }
        grep -qF "$want" "$S/err" || { fail "$var='$val' bulk $cmd: the message does not list '$want'"; cat "$S/err" >&2; }
        [ -s "$S/out" ] && fail "$var='$val' bulk $cmd: output on stdout"
    done
}
bad_env BULK_BACKEND gpu "is not a backend; valid: cpu, cuda, auto"
bad_env BULK_BACKEND CPU "valid: cpu, cuda, auto"
bad_env BULK_THREADS abc "valid: 1 to 4096, or 0"
bad_env BULK_THREADS -1 "valid: 1 to 4096, or 0"
bad_env BULK_THREADS 4097 "valid: 1 to 4096, or 0"
bad_env BULK_THREADS 2x "valid: 1 to 4096, or 0"
bad_env BULK_PROGRESS yes "valid: 0 (never), 1 (always)"
bad_env BULK_PROGRESS 2 "valid: 0 (never), 1 (always)"
bad_env BULK_TUNE int.mul=fast "tuning int.mul='fast' is not valid; valid: teo, sr, cols, kara, ntt"
bad_env BULK_TUNE nosuch=1 "tuning key 'nosuch' is unknown; valid: int.mul,"
bad_env BULK_TUNE life.isa=base, "ends with a comma"
bad_env BULK_TUNE life.isa "is not key=value"
cases=$((cases + 1))
"$BULK" int add --in "$S/two.in" --backend gpu >"$S/out" 2>"$S/err"
[ $? -eq 2 ] && grep -qF "'gpu' is not a backend; valid: cpu, cuda, auto" "$S/err" ||
    { fail "--backend gpu"; cat "$S/err" >&2; }
# valid and empty values are accepted, and give the same result
"$BULK" int add --in "$S/two.in" >"$S/ref" || fail "int add"
for e in BULK_THREADS=0 BULK_THREADS=1 BULK_THREADS=3 BULK_THREADS= BULK_PROGRESS=1 BULK_PROGRESS=0 \
         BULK_PROGRESS= BULK_BACKEND=cpu BULK_BACKEND=auto BULK_BACKEND= BULK_TUNE= \
         BULK_TUNE=life.isa=base BULK_TUNE=int.mul=sr,cz.layout=batch,gcd.batched_min=1; do
    cases=$((cases + 1))
    env "$e" "$BULK" int add --in "$S/two.in" >"$S/out" 2>"$S/err" || { fail "$e: refused"; cat "$S/err" >&2; }
    cmp -s "$S/ref" "$S/out" || fail "$e: a different result"
done
cases=$((cases + 1))
BULK_THREADS=2 "$BULK" info --json | grep -q '"cpu_threads":2' || fail "BULK_THREADS=2 is not used"

# ---- --in - reads standard input ----------------------------------------------------------------
# same_stdin NAME FILE ARGS-WITH-@IN@: the run with --in FILE and with --in - < FILE agree
same_stdin() {
    name=$1 file=$2
    shift 2
    cases=$((cases + 1))
    a=$(echo "$*" | sed "s|@IN@|$file|g")
    b=$(echo "$*" | sed "s|@IN@|-|g")
    "$BULK" $a >"$S/a.out" 2>"$S/err" || { fail "$name (file): exit $?"; cat "$S/err" >&2; return; }
    "$BULK" $b <"$file" >"$S/b.out" 2>"$S/err" || { fail "$name (stdin): exit $?"; cat "$S/err" >&2; return; }
    [ -s "$S/a.out" ] || fail "$name: no output"
    cmp -s "$S/a.out" "$S/b.out" || fail "$name: stdin gives a different result"
}
same_stdin "int add" "$S/two.in" int add --in @IN@
same_stdin "dist int add" "$S/two.in" dist int add --in @IN@
same_stdin "cky" "$S/words.txt" cky --grammar "$S/anbn.cfg" --in @IN@
same_stdin "circuit eval" "$S/vectors.txt" circuit eval --circuit "$S/add2.aag" --in @IN@
same_stdin "life run" "$S/glider.rle" life run --steps 4 --in @IN@
same_stdin "gcd pairs" "$S/moduli.txt" gcd pairs @IN@
same_stdin "gcd batch" "$S/moduli.txt" gcd batch @IN@
same_stdin "collatz merge" "$S/whole.json" collatz merge @IN@

# ---- --threads 0 --------------------------------------------------------------------------------
# threads_zero NAME ARGS...: --threads 0 is accepted and equals --threads 1; -1 and 4097 exit 2
threads_zero() {
    name=$1
    shift
    cases=$((cases + 1))
    "$BULK" "$@" --threads 1 >"$S/t1" 2>"$S/err" || { fail "$name --threads 1: exit $?"; cat "$S/err" >&2; return; }
    "$BULK" "$@" --threads 0 >"$S/t0" 2>"$S/err" || { fail "$name --threads 0: exit $?"; cat "$S/err" >&2; return; }
    # (the time line of verify differs from run to run)
    grep -v '^time' "$S/t1" >"$S/t1.x"
    grep -v '^time' "$S/t0" >"$S/t0.x"
    cmp -s "$S/t1.x" "$S/t0.x" || fail "$name: --threads 0 and 1 differ"
    for bad in -1 4097 x; do
        "$BULK" "$@" --threads $bad >/dev/null 2>"$S/err"
        rc=$?
        [ $rc -eq 2 ] || fail "$name --threads $bad: exit $rc, expected 2"
    done
}
threads_zero "collatz verify" collatz verify --from 1 --to 10000
threads_zero "collatz delays" collatz delays --from 1 --to 1000
threads_zero "collatz records" collatz records --kind delay --from 1 --to 10000
threads_zero "collatz sieve" collatz sieve --k 10
threads_zero "life run" life run --in "$S/glider.rle" --steps 4
threads_zero "int add" int add --in "$S/two.in"
threads_zero "gcd pairs" gcd pairs "$S/moduli.txt"
threads_zero "gcd batch" gcd batch "$S/moduli.txt"
threads_zero "cky" cky --grammar "$S/anbn.cfg" --in "$S/words.txt"
threads_zero "circuit eval" circuit eval --circuit "$S/add2.aag" --in "$S/vectors.txt"
threads_zero "dist collatz verify" dist collatz verify --from 1 --to 10000
cases=$((cases + 1))
for t in 0 1; do
    "$BULK" dist placement --threads $t >/dev/null 2>"$S/err" || fail "dist placement --threads $t"
done

# ---- I/O failures: outputs exit 1, unreadable inputs exit 2, both name the path and the cause --
# io_fail CODE NAME ARGS...: exit CODE, the message names the missing directory and the cause
io_fail() {
    code=$1 name=$2
    shift 2
    cases=$((cases + 1))
    "$BULK" "$@" >"$S/out" 2>"$S/err"
    rc=$?
    [ $rc -eq "$code" ] || { fail "$name: exit $rc, expected $code"; cat "$S/err" >&2; return; }
    grep -q "$S/no/" "$S/err" || { fail "$name: the message does not name the path"; cat "$S/err" >&2; }
    grep -q "No such file or directory" "$S/err" || { fail "$name: the message does not give the cause"; cat "$S/err" >&2; }
}
N=$S/no/such
io_fail 1 "collatz delays --out" collatz delays --from 1 --to 100 --out "$N/d.txt"
io_fail 1 "collatz delays --checkpoint" collatz delays --from 1 --to 100 --out "$N/d.txt" --checkpoint "$N/ck"
io_fail 1 "collatz delays --png" collatz delays --from 1 --to 101 --stats 10 --png "$N/d.png"
io_fail 1 "collatz verify --checkpoint" collatz verify --from 1 --to 100 --checkpoint "$N/ck"
io_fail 1 "collatz records --checkpoint" collatz records --kind delay --from 1 --to 100 --checkpoint "$N/ck"
io_fail 1 "int add --out" int add --in "$S/two.in" --out "$N/o.txt"
io_fail 1 "gcd pairs --out" gcd pairs "$S/moduli.txt" --out "$N/o.txt"
io_fail 1 "cky --out" cky --grammar "$S/anbn.cfg" --in "$S/words.txt" --out "$N/o.txt"
io_fail 1 "circuit adder --out" circuit adder --bits 2 --out "$N/o.aag"
io_fail 1 "life run --out" life run --in "$S/glider.rle" --steps 1 --out "$N/o.rle"
io_fail 1 "life run --png" life run --in "$S/glider.rle" --steps 1 --png "$N/o.png"
io_fail 1 "dist collatz --checkpoint" dist collatz verify --from 1 --to 100 --checkpoint "$N/ck"
io_fail 2 "int add --in" int add --in "$N/i.txt"
io_fail 2 "cky --in" cky --grammar "$S/anbn.cfg" --in "$N/i.txt"
io_fail 2 "cky --grammar" cky --grammar "$N/g.cfg" --in "$S/words.txt"
io_fail 2 "circuit eval --in" circuit eval --circuit "$S/add2.aag" --in "$N/i.txt"
io_fail 2 "life run --in" life run --in "$N/i.rle" --steps 1
io_fail 2 "gcd pairs FILE" gcd pairs "$N/i.txt"
io_fail 2 "collatz merge FILE" collatz merge "$N/i.json"
# a directory as input: exit 2 with the cause
cases=$((cases + 1))
"$BULK" cky --grammar "$S/anbn.cfg" --in "$S" >/dev/null 2>"$S/err"
rc=$?
[ $rc -eq 2 ] && grep -q "Is a directory" "$S/err" || { fail "cky --in DIR: exit $rc"; cat "$S/err" >&2; }

echo "$cases cases, $fails failures"
[ $fails -eq 0 ]
