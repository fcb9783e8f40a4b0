#!/bin/sh
# Under mpirun -np 3 (Open MPI; oversubscribed on CI's 2 cores): collatz verify, delays --stats
# and records equal to one process; mpirun killed with SIGKILL midway (and its ranks), then
# restarted on the same --checkpoint DIR: only the missing chunks run, same results (verify,
# delays --stats and records); a restart
# with another rank count reuses the checkpoint; --verify-chunks rechecks on another rank;
# bulk int split over the ranks equals the one-process output, bad input keeps file:line.
# Usage: sh cli_mpi.sh BULK DATA_DIR SCRATCH_DIR MPIRUN BULK_SLOWCHUNKS
# (BULK_SLOWCHUNKS: the test build of the CLI that pauses 100 ms after every chunk)
set -u
BULK=$1
T=$3
MPIRUN=$4
SLOW=$5
rm -rf "$T"
mkdir -p "$T"
. "$(dirname "$0")/common.sh"
# Open MPI's own allocations are not ours to check; the ranks still run under ASan/UBSan
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl="self,vader,tcp" OMPI_MCA_btl_vader_single_copy_mechanism=none
unset BULK_DIST
MPI="$MPIRUN --allow-run-as-root --oversubscribe -np 3"
# plain `bulk collatz verify|delays|records` under mpirun (routed to the driver by the hook in
# cmd_collatz.c); `bulk dist collatz` is the same driver by name (used for the rechecks below)
D="collatz"

R="--from 2^40+12345 --to 2^40+12345+2^23"
BULK_DIST=0 "$BULK" collatz verify $R --d 12 >"$T/v1.txt" || fail "collatz verify"
$MPI "$BULK" $D verify $R --d 12 --chunk 1000003 >"$T/v3.txt" 2>"$T/v3.err" || fail "mpirun verify: $(cat "$T/v3.err")"
same_totals "$T/v1.txt" "$T/v3.txt" "verify, 3 ranks"
grep -q "9 chunks, 3 ranks: 0 from the checkpoint, 9 computed" "$T/v3.err" || fail "3-rank summary: $(cat "$T/v3.err")"

# delays --stats and records (chunked, merged in order) against one process
BULK_DIST=0 "$BULK" collatz delays --from 1000 --to 1000+2^20 --stats 4096 >"$T/s1.txt" || fail "delays --stats"
$MPI "$BULK" $D delays --from 1000 --to 1000+2^20 --stats 4096 --chunk 40960 >"$T/s3.txt" 2>/dev/null || fail "mpirun delays"
same_file "$T/s1.txt" "$T/s3.txt" "delays --stats, 3 ranks"
for k in delay glide path; do
    BULK_DIST=0 "$BULK" collatz records --kind $k --from 3 --to 2^21 >"$T/r1.txt" || fail "records"
    $MPI "$BULK" $D records --kind $k --from 3 --to 2^21 --chunk 65537 >"$T/r3.txt" 2>/dev/null || fail "mpirun records"
    same_file "$T/r1.txt" "$T/r3.txt" "records --kind $k, 3 ranks"
done

# kill -9 of mpirun (and of its ranks, which would otherwise finish the run) midway; restart
BULK_DIST=0 "$BULK" collatz records --kind path --from 3 --to 2^21 >"$T/rp1.txt" || fail "records"
for what in verify delays records; do
    C="$T/ck-$what"
    if [ $what = verify ]; then
        ARGS="verify $R --d 12 --chunk 500000"; REF="$T/v1.txt"; N=17
    elif [ $what = delays ]; then
        ARGS="delays --from 1000 --to 1000+2^20 --stats 4096 --chunk 40960"; REF="$T/s1.txt"; N=26
    else
        ARGS="records --kind path --from 3 --to 2^21 --chunk 65537"; REF="$T/rp1.txt"; N=32
    fi
    $MPI "$SLOW" $D $ARGS --checkpoint "$C" >/dev/null 2>&1 &
    pid=$!
    wait_chunks "$C" 4 || fail "$what: no chunk files appeared"
    kill_tree $pid
    sleep 0.2
    have=$(ls "$C" | grep -c '^chunk-[0-9]*\.txt$')
    $MPI "$BULK" $D $ARGS --checkpoint "$C" >"$T/rs.txt" 2>"$T/rs.err" || fail "$what restart: $(cat "$T/rs.err")"
    if [ $what = verify ]; then same_totals "$REF" "$T/rs.txt" "verify restarted after kill -9"
    else same_file "$REF" "$T/rs.txt" "$what restarted after kill -9"; fi
    loaded=$(sed -n 's/.*: \([0-9]*\) from the checkpoint.*/\1/p' "$T/rs.err")
    [ "$have" -ge 4 ] && [ "$have" -lt $N ] && [ "$loaded" = "$have" ] ||
        fail "$what restart: $have chunk files after the kill, $loaded loaded ($(cat "$T/rs.err"))"
done
# restart the finished run with 2 ranks: everything comes from the checkpoint
$MPIRUN --allow-run-as-root --oversubscribe -np 2 "$BULK" $D verify $R --d 12 --chunk 500000 --checkpoint "$T/ck-verify" >"$T/r2.txt" 2>"$T/r2.err" || fail "2-rank rerun"
same_totals "$T/v1.txt" "$T/r2.txt" "rerun on 2 ranks"
grep -q "17 from the checkpoint, 0 computed" "$T/r2.err" || fail "2-rank rerun: $(cat "$T/r2.err")"

# --verify-chunks 1: every chunk recomputed on a rank other than the one that computed it
$MPI "$BULK" dist collatz verify $R --d 12 --chunk 1000003 --verify-chunks 1 --seed 3 >"$T/vv.txt" 2>"$T/vv.err" || fail "verify-chunks: $(cat "$T/vv.err")"
grep -q "9 rechecked, all equal" "$T/vv.err" || fail "verify-chunks summary: $(cat "$T/vv.err")"
same_totals "$T/v1.txt" "$T/vv.txt" "verify with rechecks"

# bulk int, input split over 3 ranks, one output in input order (`bulk dist int` and, through
# the hook in cmd_int.c, plain `bulk int` under mpirun)
awk 'BEGIN { srand(5); for (i = 0; i < 5000; i++) printf "%d %d\n", int(rand() * 1e15), int(rand() * 1e9) + 1 }' >"$T/in.txt"
BULK_DIST=0 "$BULK" int divmod --in "$T/in.txt" --out "$T/i1.txt" || fail "int"
$MPI "$BULK" dist int divmod --in "$T/in.txt" --out "$T/i3.txt" 2>"$T/i3.err" || fail "mpirun int: $(cat "$T/i3.err")"
same_file "$T/i1.txt" "$T/i3.txt" "int divmod, 3 ranks"
$MPI "$BULK" int mul --in "$T/in.txt" >"$T/m3.txt" 2>/dev/null || fail "mpirun int to stdout"
BULK_DIST=0 "$BULK" int mul --in "$T/in.txt" >"$T/m1.txt"
same_file "$T/m1.txt" "$T/m3.txt" "int mul to stdout, 3 ranks"
sed '4000s/.*/12 0/' "$T/in.txt" >"$T/bad.txt"
$MPI "$BULK" int divmod --in "$T/bad.txt" --out "$T/ib.txt" >/dev/null 2>"$T/ib.err"
[ $? != 0 ] && grep -q "bad.txt:4000: line 4000" "$T/ib.err" && ! [ -e "$T/ib.txt" ] || fail "mpirun int bad input: $(cat "$T/ib.err")"

[ $fails = 0 ] && echo "cli_mpi: all passed"
exit $((fails > 0))
