#!/bin/sh
# `bulk dist collatz ...` as one process (every build, with or without MPI): equal to the plain
# commands for verify, delays --stats and records (merging across chunks, records from a start
# above 1 too), a run killed with SIGKILL and restarted on its --checkpoint DIR computes only the
# missing chunks and gives the same totals, a damaged chunk file is recomputed, a checkpoint of
# another run is refused (exit 2), and --verify-chunks rechecks; verify --converge equals one
# process; records on the fast engines (parts of the range) equal one process and the OEIS lists,
# also above 2^60 with --above, near 2^64 and past 2^128, and their --json merges. bulk int through the driver
# equals the plain command, and bad input keeps its file:line and exit 2.
# Usage: sh cli_dist.sh BULK DATA_DIR SCRATCH_DIR BULK_SLOWCHUNKS
# (BULK_SLOWCHUNKS: the test build of the CLI that pauses 100 ms after every chunk)
set -u
BULK=$1
DATA=$2
T=$3
SLOW=$4
rm -rf "$T"
mkdir -p "$T"
. "$(dirname "$0")/common.sh"
export BULK_DIST=0 # one process even if a launcher's variables leak into the test environment

R="--from 2^40+12345 --to 2^40+12345+2^23"
"$BULK" collatz verify $R --d 12 >"$T/v1.txt" || fail "collatz verify"
"$BULK" dist collatz verify $R --d 12 --chunk 1000003 >"$T/vd.txt" 2>"$T/vd.err" || fail "dist verify"
same_totals "$T/v1.txt" "$T/vd.txt" "dist verify (9 chunks, one process)"
grep -q "9 chunks, 1 rank: 0 from the checkpoint, 9 computed" "$T/vd.err" || fail "dist verify summary: $(cat "$T/vd.err")"

# an overflow range (values above 2^64 passing 2^128 are not needed: 2^64 range boundaries)
"$BULK" collatz verify --from 12327829503 --to 12327829503+2^20 --json >"$T/o1.json" || fail "verify json"
"$BULK" dist collatz verify --from 12327829503 --to 12327829503+2^20 --json --chunk 77777 >"$T/od.json" 2>/dev/null || fail "dist verify json"
for key in covered overflows checksum max_glide max_glide_n overflow_values; do
    a=$(grep -o "\"$key\":[^a-z]*" "$T/o1.json" | head -1)
    b=$(grep -o "\"$key\":[^a-z]*" "$T/od.json" | head -1)
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "dist verify --json: $key '$a' vs '$b'"
done
# the distributed JSON is accepted by merge (as one part)
"$BULK" collatz merge "$T/od.json" >"$T/om.txt" || fail "merge of the dist json"

# --converge: chunks at multiples of 2^k iterate the numbers one process iterates
"$BULK" collatz verify --from 2^40 --to 2^40+2^24 --k 18 --d 12 --converge --json >"$T/c1.json" || fail "verify --converge"
"$BULK" dist collatz verify --from 2^40 --to 2^40+2^24 --k 18 --d 12 --chunk 2^20 --converge --json >"$T/cd.json" 2>/dev/null ||
    fail "dist verify --converge"
for key in covered iterated overflows checksum mode; do
    a=$(grep -o "\"$key\":[^,]*" "$T/c1.json" | head -1)
    b=$(grep -o "\"$key\":[^,]*" "$T/cd.json" | head -1)
    [ -n "$a" ] && [ "$a" = "$b" ] || fail "dist verify --converge: $key '$a' vs '$b'"
done
grep -q '"mode":"converge"' "$T/cd.json" || fail "dist verify --converge: no mode"

# the Slurm job-array example of docs/scale-out.md, every task run here, then merged: the same
# totals as the distributed run and as one process
EX="$(dirname "$0")/../../docs/examples/slurm-collatz-verify.sh"
if command -v bash >/dev/null; then
    for i in 1 2 3; do
        SLURM_ARRAY_TASK_ID=$i BULK="$BULK" FROM=2^40+12345 TO=2^40+12345+2^23 N=3 OUT="$T/slurm" \
            bash "$EX" 2>/dev/null || fail "slurm example task $i"
    done
    "$BULK" collatz merge "$T"/slurm/parts/part-*.json >"$T/sm.txt" || fail "merge of the slurm parts"
    same_totals "$T/v1.txt" "$T/sm.txt" "slurm job array example + merge"
fi

# delays --stats and records
"$BULK" collatz delays --from 1000 --to 1000+2^20 --stats 4096 >"$T/s1.txt" || fail "delays --stats"
"$BULK" dist collatz delays --from 1000 --to 1000+2^20 --stats 4096 --chunk 40960 >"$T/sd.txt" 2>/dev/null || fail "dist delays"
same_file "$T/s1.txt" "$T/sd.txt" "delays --stats"
for k in delay glide path; do
    for from in 1 77777; do
        "$BULK" collatz records --kind $k --from $from --to 2^21 >"$T/r1.txt" || fail "records"
        "$BULK" dist collatz records --kind $k --from $from --to 2^21 --chunk 65537 >"$T/rd.txt" 2>/dev/null || fail "dist records"
        same_file "$T/r1.txt" "$T/rd.txt" "records --kind $k --from $from"
    done
done

# records on the fast engines: chunks run as parts of the range (path records from 1 on pre-drop
# peaks with the sieve, above 2^60 with --above; near 2^64 and past 2^128), equal to one process
# and, from 1, to the OEIS lists; --json is one records result that `collatz merge` takes
if [ "${BULK_SANITIZED:-0}" != 0 ]; then RT=22; else RT=26; fi
for k in delay glide path; do
    "$BULK" dist collatz records --kind $k --from 1 --to 2^$RT --chunk 2^20 >"$T/rd.txt" 2>/dev/null || fail "dist records $k from 1"
    grep -v '^#' "$DATA/collatz/${k}_records.txt" | awk -v b=$RT '$1 < 2 ^ b { print $1, $2 }' >"$T/want.txt"
    same_file "$T/want.txt" "$T/rd.txt" "dist records --kind $k from 1 to 2^$RT (OEIS)"
done
# (around the path record 1980976057694848447 with the previous record's peak as --above)
for args in "--from 1980976057694848447-2^21 --to 1980976057694848447+2^21 --above 319391343969356241864419199325107352 : 300007" \
    "--from 2^127+1 --to 2^127+9 : 2" "--from 2^64 --to 2^64+2^16 : 10007" "--from 2^40 --to 2^40+2^18 : 50000"; do
    c=${args#*: }
    args=${args% :*}
    # shellcheck disable=SC2086
    "$BULK" collatz records --kind path $args >"$T/r1.txt" || fail "records $args"
    # shellcheck disable=SC2086
    "$BULK" dist collatz records --kind path $args --chunk $c >"$T/rd.txt" 2>/dev/null || fail "dist records $args"
    same_file "$T/r1.txt" "$T/rd.txt" "dist records --kind path $args --chunk $c"
done
"$BULK" dist collatz records --kind glide --from 77 --to 2^21 --chunk 65537 --json >"$T/rd.json" 2>/dev/null || fail "dist records --json"
"$BULK" collatz merge "$T/rd.json" >"$T/rm.txt" || fail "merge of dist records --json"
"$BULK" collatz records --kind glide --from 77 --to 2^21 >"$T/r1.txt"
same_file "$T/r1.txt" "$T/rm.txt" "dist records --json + merge"
"$BULK" dist collatz records --kind delay --from 1 --to 100 --above 5 >/dev/null 2>&1; [ $? = 2 ] || fail "dist records --above with delays"

# kill -9 midway, restart: only the missing chunks run, same totals
C="$T/ck"
"$SLOW" dist collatz verify $R --d 12 --chunk 500000 --checkpoint "$C" >/dev/null 2>&1 &
pid=$!
wait_chunks "$C" 4 || fail "no chunk files appeared"
kill_tree $pid
have=$(ls "$C" | grep -c '^chunk-[0-9]*\.txt$')
"$BULK" dist collatz verify $R --d 12 --chunk 500000 --checkpoint "$C" >"$T/vr.txt" 2>"$T/vr.err" || fail "restart"
same_totals "$T/v1.txt" "$T/vr.txt" "restart after kill -9"
loaded=$(sed -n 's/.*: \([0-9]*\) from the checkpoint.*/\1/p' "$T/vr.err")
[ "$have" -ge 4 ] && [ "$have" -lt 17 ] && [ "$loaded" = "$have" ] ||
    fail "restart: $have chunk files after the kill, $loaded loaded ($(cat "$T/vr.err"))"

# the same run spelled differently (2^40+12345 = 1099511640121) reuses the checkpoint
"$BULK" dist collatz verify --from 1099511640121 --to 1099511640121+8388608 --d 12 --chunk 500000 --checkpoint "$C" >"$T/vs.txt" 2>"$T/vs.err" || fail "respelled run"
grep -q "17 from the checkpoint, 0 computed" "$T/vs.err" || fail "respelled run: $(cat "$T/vs.err")"

# a damaged chunk file is computed again; the totals stay right
f=$(ls "$C"/chunk-* | head -1)
sed -i 's/^covered .*/covered 1/' "$f"
"$BULK" dist collatz verify $R --d 12 --chunk 500000 --checkpoint "$C" >"$T/vx.txt" 2>"$T/vx.err" || fail "damaged chunk"
same_totals "$T/v1.txt" "$T/vx.txt" "damaged chunk recomputed"
grep -q "damaged" "$T/vx.err" || fail "no warning for the damaged chunk"

# the checkpoint of another run is refused: exit 2, the file named
"$BULK" dist collatz verify $R --d 11 --chunk 500000 --checkpoint "$C" >"$T/vo.txt" 2>"$T/vo.err"
[ $? = 2 ] && grep -q "run.txt:1: the checkpoint directory belongs to another run" "$T/vo.err" || fail "another run's checkpoint: $(cat "$T/vo.err")"
[ -s "$T/vo.txt" ] && fail "another run's checkpoint: output printed"

# --verify-chunks 1 rechecks every chunk and finds them equal
"$BULK" dist collatz verify $R --d 12 --chunk 1000003 --verify-chunks 1 --seed 7 >"$T/vv.txt" 2>"$T/vv.err" || fail "verify-chunks"
grep -q "9 rechecked, all equal" "$T/vv.err" || fail "verify-chunks summary: $(cat "$T/vv.err")"
# a checkpoint chunk that no longer matches its recomputation is reported (exit 1) and removed
C2="$T/ck2"
"$BULK" dist collatz delays --from 1 --to 1+2^18 --stats 1024 --chunk 2^16 --checkpoint "$C2" >/dev/null 2>&1 || fail "delays checkpoint"
f=$(ls "$C2"/chunk-* | head -1)
awk 'NR==6{ $1 = $1 + 1 } { print }' "$f" >"$T/bad" # change one sum and fix the file's checksum
body=$(tail -n +6 "$T/bad")
sum=$(printf '%s\n' "$body" | python3 -c 'import sys
h=1469598103934665603
for b in sys.stdin.buffer.read(): h=((h^b)*1099511628211)&(2**64-1)
print("%016x"%h)' 2>/dev/null)
if [ -n "$sum" ]; then
    sed "4s/.*/checksum $sum/" "$T/bad" >"$f"
    "$BULK" dist collatz delays --from 1 --to 1+2^18 --stats 1024 --chunk 2^16 --checkpoint "$C2" --verify-chunks 1 >"$T/sx.txt" 2>"$T/sx.err"
    [ $? = 1 ] && grep -q "differs" "$T/sx.err" && ! [ -e "$f" ] || fail "tampered chunk not caught: $(cat "$T/sx.err")"
fi

# bad usage
"$BULK" dist collatz verify $R --verify-chunks 2 >/dev/null 2>"$T/e.txt"; [ $? = 2 ] || fail "--verify-chunks 2"
"$BULK" dist collatz delays --from 1 --to 1000 --stats 7 >/dev/null 2>"$T/e.txt"; [ $? = 2 ] || fail "stats not a multiple"

# placement: one GPU per rank by local rank (from the given list), CPUs shared by the host's ranks
t=$(( $(nproc) / 2 )); [ $t -ge 1 ] || t=1
got=$(OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_LOCAL_SIZE=2 CUDA_VISIBLE_DEVICES=3,5,7 BULK_THREADS= "$BULK" dist placement)
[ "$got" = "rank 0 of 1: local rank 1 of 2, CUDA_VISIBLE_DEVICES=5, threads $t" ] || fail "placement: $got"
got=$(OMPI_COMM_WORLD_LOCAL_RANK=3 OMPI_COMM_WORLD_LOCAL_SIZE=4 CUDA_VISIBLE_DEVICES=GPU-a,GPU-b,GPU-c "$BULK" dist placement --threads 3)
[ "$got" = "rank 0 of 1: local rank 3 of 4, CUDA_VISIBLE_DEVICES=GPU-a, threads 3" ] || fail "placement 2: $got"
# more GPUs than ranks: every GPU is dealt to one rank (g mod L = l), none idle, none shared
got=$(OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=2 CUDA_VISIBLE_DEVICES=3,5,7 "$BULK" dist placement --threads 1)
[ "$got" = "rank 0 of 1: local rank 0 of 2, CUDA_VISIBLE_DEVICES=3,7, threads 1" ] || fail "placement 3: $got"
got=$(OMPI_COMM_WORLD_LOCAL_RANK=0 OMPI_COMM_WORLD_LOCAL_SIZE=1 CUDA_VISIBLE_DEVICES=0,1,2,3 "$BULK" dist placement --threads 1)
[ "$got" = "rank 0 of 1: local rank 0 of 1, CUDA_VISIBLE_DEVICES=0,1,2,3, threads 1" ] || fail "placement 4: $got"

# bulk int through the driver (one slice)
awk 'BEGIN { srand(3); for (i = 0; i < 3000; i++) printf "%d %d\n", int(rand() * 1e15), int(rand() * 1e9) + 1 }' >"$T/in.txt"
"$BULK" int divmod --in "$T/in.txt" --out "$T/i1.txt" || fail "int"
"$BULK" dist int divmod --in "$T/in.txt" --out "$T/id.txt" || fail "dist int"
same_file "$T/i1.txt" "$T/id.txt" "dist int"
sed '2500s/.*/12 0/' "$T/in.txt" >"$T/bad.txt"
"$BULK" dist int divmod --in "$T/bad.txt" --out "$T/ib.txt" 2>"$T/ib.err"
[ $? = 2 ] && grep -q "bad.txt:2500" "$T/ib.err" && ! [ -e "$T/ib.txt" ] || fail "dist int bad input: $(cat "$T/ib.err")"

[ $fails = 0 ] && echo "cli_dist: all passed"
exit $((fails > 0))
