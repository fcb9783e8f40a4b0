# Shared helpers of cli_dist.sh and cli_mpi.sh (sourced). Needs $T (scratch dir).
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}
# fields of a verify text summary that must agree between runs: not the time line, nor
# "iterated", a diagnostic that depends on where chunk edges fall against the sieve's blocks
totals() {
    grep -E '^(range|covered|overflows|max glide|checksum|verified)' "$1"
}
# same_totals A B WHAT: the verify summaries A and B agree
same_totals() {
    totals "$1" >"$T/ta" && totals "$2" >"$T/tb"
    if ! [ -s "$T/ta" ] || ! cmp -s "$T/ta" "$T/tb"; then
        fail "$3: totals differ"
        diff "$T/ta" "$T/tb" >&2
    fi
}
same_file() {
    if ! [ -s "$1" ] || ! cmp -s "$1" "$2"; then
        fail "$3: outputs differ ($1 $2)"
        diff "$1" "$2" | head -5 >&2
    fi
}
# kill_tree PID: SIGKILL a launcher and its direct children, each by its pid
kill_tree() {
    kids=$(ps -o pid= --ppid "$1" 2>/dev/null)
    kill -9 "$1" $kids 2>/dev/null
    wait "$1" 2>/dev/null
}
# wait_chunks DIR N: waits (up to ~60 s) until DIR holds at least N chunk files
wait_chunks() {
    i=0
    while [ $i -lt 1200 ]; do
        n=$(ls "$1" 2>/dev/null | grep -c '^chunk-[0-9]*\.txt$')
        [ "$n" -ge "$2" ] && return 0
        sleep 0.05
        i=$((i + 1))
    done
    return 1
}
