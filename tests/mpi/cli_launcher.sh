#!/bin/sh
# Started by a launcher (programs/dist/dist_env.c, dist_refuse_copies). A build without MPI run as
# N > 1 ranks of a fake launch (the variables of Open MPI, MPICH/PMI, PMIx, an srun step) refuses
# every computing command with exit 2 and writes nothing; info, --help and --version still run;
# one rank, a Slurm batch script without a step, and BULK_DIST=0 run normally. A build with MPI
# runs under a real one-rank launch and gives the plain result.
# Usage: sh cli_launcher.sh BULK DATA_DIR SCRATCH_DIR nompi|mpi [MPIEXEC]
set -u
BULK=$1
DATA=$2
T=$3
MODE=$4
MPIEXEC=${5:-}
rm -rf "$T"
mkdir -p "$T"
. "$(dirname "$0")/common.sh"
unset BULK_DIST OMPI_COMM_WORLD_SIZE PMI_SIZE PMIX_SIZE PMIX_RANK SLURM_STEP_ID \
    SLURM_STEP_NUM_TASKS SLURM_NTASKS
printf '1 2\n3 4\n' >"$T/in.txt"
VERIFY="collatz verify --from 1 --to 100000"
"$BULK" $VERIFY >"$T/plain.txt" || fail "plain verify"

# refused COMMAND...: run under the launch variables in $LAUNCH, expect exit 2, the message with
# $N ranks, and no --out file
refused() {
    rm -f "$T/out.txt"
    env $LAUNCH "$BULK" "$@" >"$T/r.out" 2>"$T/r.err"
    rc=$?
    [ $rc -eq 2 ] || fail "[$LAUNCH] $*: exit $rc, expected 2"
    grep -q "^bulk: this bulk was built without MPI; $N ranks would each run the whole range" "$T/r.err" ||
        fail "[$LAUNCH] $*: message: $(cat "$T/r.err")"
    [ ! -s "$T/r.out" ] || fail "[$LAUNCH] $*: printed on stdout"
    [ ! -e "$T/out.txt" ] || fail "[$LAUNCH] $*: wrote --out"
}
# runs COMMAND...: expect exit 0
runs() {
    env $LAUNCH "$BULK" "$@" >"$T/r.out" 2>"$T/r.err" || fail "[$LAUNCH] $*: exit $?: $(cat "$T/r.err")"
}

if [ "$MODE" = nompi ]; then
    for launch in "OMPI_COMM_WORLD_SIZE=3:3" "PMI_SIZE=2:2" "PMIX_SIZE=4:4" "PMIX_RANK=2:at least 3" \
                  "SLURM_STEP_ID=0 SLURM_STEP_NUM_TASKS=5:5" "SLURM_STEP_ID=7 SLURM_NTASKS=2:2"; do
        LAUNCH=${launch%%:*}
        N=${launch#*:}
        refused $VERIFY --checkpoint "$T/ck"
        [ ! -e "$T/ck" ] || fail "[$LAUNCH] verify wrote its checkpoint"
        refused collatz delays --from 1 --to 1000 --out "$T/out.txt"
        refused collatz records --from 3 --to 1000
        refused int add --in "$T/in.txt" --out "$T/out.txt"
        refused dist collatz verify --from 1 --to 1000
        refused life run --in "$DATA/life/glider.rle" --steps 4 --out "$T/out.txt"
        refused gcd pairs --in "$T/in.txt"
        refused nosuchcommand
        runs info
        runs --help
        runs --version
        runs collatz verify --help
        runs int add -h
        runs collatz help
    done
    N=
    for LAUNCH in "OMPI_COMM_WORLD_SIZE=1" "PMI_SIZE=1" "PMIX_RANK=0" "SLURM_NTASKS=4" \
                  "BULK_DIST=0 OMPI_COMM_WORLD_SIZE=3" "BULK_DIST=0 SLURM_STEP_ID=0 SLURM_NTASKS=3"; do
        runs $VERIFY
        same_totals "$T/plain.txt" "$T/r.out" "[$LAUNCH] verify"
    done
else
    # a build with MPI: a real launch of one rank runs (the drivers), BULK_DIST=0 under fake
    # launch variables runs the plain command (MPI is not started)
    export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
    export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl="self,vader,tcp" OMPI_MCA_btl_vader_single_copy_mechanism=none
    [ -n "$MPIEXEC" ] || { echo "FAIL: no MPIEXEC given"; exit 1; }
    "$MPIEXEC" --allow-run-as-root -np 1 "$BULK" $VERIFY >"$T/one.txt" 2>"$T/one.err" ||
        fail "mpirun -np 1: $(cat "$T/one.err")"
    same_totals "$T/plain.txt" "$T/one.txt" "mpirun -np 1 verify"
    LAUNCH="BULK_DIST=0 OMPI_COMM_WORLD_SIZE=3 PMI_SIZE=3"
    runs $VERIFY
    same_totals "$T/plain.txt" "$T/r.out" "[$LAUNCH] verify"
fi
if [ $fails -gt 0 ]; then
    echo "$fails failure(s)"
    exit 1
fi
echo "launcher ($MODE): ok"
