# Shared part of the int_*.sh tests (POSIX sh), sourced after setting nothing:
#   $1 = bulk binary, $2 = tests/data, $3 = scratch directory (emptied here).
# Provides BULK, ORACLE (the GMP oracle, from BULK_INT_ORACLE), S (scratch), check helpers
# that count failures and go on, and finish (exit status).
BULK=$1
DATA=$2
S=$3
ORACLE=${BULK_INT_ORACLE:-}
[ -x "$BULK" ] || { echo "no bulk binary at '$BULK'" >&2; exit 1; }
rm -rf "$S"
mkdir -p "$S" || exit 1
fails=0
checks=0

fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}

# same NAME EXPECTED_FILE ACTUAL_FILE
same() {
    checks=$((checks + 1))
    if ! cmp -s "$2" "$3"; then
        fail "$1: output differs from the expected one"
        diff "$2" "$3" | head -n 10 >&2
    fi
}

# run_ok NAME ARGS... : bulk must exit 0; its stdout goes to $S/out, stderr to $S/err
run_ok() {
    name=$1
    shift
    checks=$((checks + 1))
    "$BULK" "$@" >"$S/out" 2>"$S/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name: 'bulk $*' exited $rc, expected 0"
        head -n 5 "$S/err" >&2
    fi
}

# expect_text NAME OP ARGS... : feeds $INPUT (a string) to `bulk int OP ARGS` on stdin and
# compares stdout with $EXPECT (a string); both get a final newline.
expect_text() {
    name=$1
    shift
    printf '%s\n' "$INPUT" >"$S/in.txt"
    printf '%s\n' "$EXPECT" >"$S/expect.txt"
    checks=$((checks + 1))
    "$BULK" int "$@" <"$S/in.txt" >"$S/out" 2>"$S/err"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name: 'bulk int $*' exited $rc"
        head -n 5 "$S/err" >&2
        return
    fi
    same "$name" "$S/expect.txt" "$S/out"
}

# no_tmp NAME: no temporary output file (.<name>.bulk-tmp-*, see util/atomic_file.h) may
# be left in the scratch directory
no_tmp() {
    for f in "$S"/.*.bulk-tmp-*; do
        [ -e "$f" ] && fail "$1: temporary file $f left behind"
    done
}

finish() {
    if [ "$fails" -ne 0 ]; then
        echo "$fails of $checks check(s) failed"
        exit 1
    fi
    echo "all $checks checks passed"
    exit 0
}
