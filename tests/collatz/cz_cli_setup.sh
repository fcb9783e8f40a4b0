# Sourced by the Collatz CLI tests, run as `sh SCRIPT BULK DATA_DIR SCRATCH`: BULK (the bulk
# binary), DATA (the Collatz test data), a fresh scratch directory T, the fail counter, and the
# exit-code checks.
BULK=$1
DATA=$2/collatz
T=$3
rm -rf "$T"
mkdir -p "$T"
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}
# expect_exit CODE CMD...: runs CMD, checks the exit code, and for 2 that there is a message
expect_exit() {
    want=$1
    shift
    "$@" >"$T/out.txt" 2>"$T/err.txt"
    got=$?
    if [ "$got" != "$want" ]; then
        fail "exit $got (want $want): $*"
        sed 's/^/    /' "$T/err.txt" >&2
    elif [ "$want" = 2 ] && ! [ -s "$T/err.txt" ]; then
        fail "no message for: $*"
    fi
}
# expect_exit_msg CODE PATTERN -- CMD...: the same, and for 2 a message matching PATTERN
expect_exit_msg() {
    want=$1
    pat=$2
    shift 3
    "$@" >"$T/out.txt" 2>"$T/err.txt"
    got=$?
    if [ "$got" != "$want" ]; then
        fail "exit $got (want $want): $*"
        sed 's/^/    /' "$T/err.txt" >&2
    elif [ "$want" = 2 ] && ! grep -q -e "$pat" "$T/err.txt"; then
        fail "message without '$pat' for: $* ($(cat "$T/err.txt"))"
    fi
}
