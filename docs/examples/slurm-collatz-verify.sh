#!/bin/bash
# Slurm job array: `bulk collatz verify` of one range in N parts, no MPI needed
# (docs/scale-out.md). Submit:   sbatch docs/examples/slurm-collatz-verify.sh
# then, when every task is done: bulk collatz merge "$OUT"/parts/part-*.json
# A preempted or failed task is requeued and resumes from its own checkpoint file.
# The settings below can be overridden from the environment (tests/mpi/cli_dist.sh runs this
# script for every task id on one machine and checks the merge against a single run).
#SBATCH --job-name=collatz-verify
#SBATCH --array=1-256%64
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=8
#SBATCH --time=12:00:00
#SBATCH --requeue
set -euo pipefail
BULK=${BULK:-bulk}
FROM=${FROM:-2^68}
TO=${TO:-2^68+2^52}
N=${N:-256}                       # must equal the size of --array
OUT=${OUT:-/shared/collatz-verify}
I=${SLURM_ARRAY_TASK_ID:?run as a job array task (or set SLURM_ARRAY_TASK_ID)}
mkdir -p "$OUT/parts" "$OUT/ckpt"
"$BULK" collatz verify --from "$FROM" --to "$TO" --part "$I/$N" --json \
    --checkpoint "$OUT/ckpt/part-$I" >"$OUT/parts/part-$I.json.tmp"
mv "$OUT/parts/part-$I.json.tmp" "$OUT/parts/part-$I.json" # complete parts only
