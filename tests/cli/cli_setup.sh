# Sourced by the CLI tests that run every command (conventions.sh, stdout_full.sh) after they set
# BULK (the bulk binary) and S (their scratch directory): a fresh S, an environment that makes no
# progress lines and no launcher checks, the fail counter, and the small inputs every command reads.
rm -rf "$S" && mkdir -p "$S" || exit 1
export BULK_PROGRESS=0 BULK_DIST=0
unset BULK_THREADS BULK_BACKEND
fails=0 cases=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

printf '1 2\n3 4\n340282366920938463463374607431768211455 1\n' >"$S/two.in"
printf '#N glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n' >"$S/glider.rle"
printf "S -> A B | A C\nC -> S B\nA -> 'a'\nB -> 'b'\n" >"$S/anbn.cfg"
