#!/bin/sh
# `make bench` for bulk integers: `bulk int bench` for every op at several widths, on one thread
# and on all, each against GMP in the same run. Prints a table and writes it to
# bench/results/<date>-<machine>-int.txt (with the raw JSON lines at the end).
#   sh bench/int/run.sh [BUILD_DIR]       BENCH_TIME=s sets the timed seconds per side (default 1)
set -e
B=${1:-build}
BULK="$B/bulk"
[ -x "$BULK" ] || { echo "no $BULK: build first (make build)" >&2; exit 1; }
T=${BENCH_TIME:-1}
ALL=$(nproc 2>/dev/null || echo 1)
machine=$(hostname -s 2>/dev/null || uname -n)
mkdir -p bench/results
out="bench/results/$(date -u +%Y-%m-%d)-$machine-int.txt"
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT

# count for an op at a width: about the same work per call, at most 2^16 instances
count() {
    case $1 in
    powmod) case $2 in 256) echo 4096 ;; 1024) echo 512 ;; *) echo 64 ;; esac ;;
    gcd | div | mod | divmod) case $2 in 256 | 1024) echo 65536 ;; 4096) echo 8192 ;; *) echo 512 ;; esac ;;
    *) case $2 in 256 | 1024 | 4096) echo 65536 ;; 16384) echo 4096 ;; *) echo 256 ;; esac ;;
    esac
}
widths() {
    case $1 in
    powmod) echo 256 1024 2048 ;;
    gcd | div | mod | divmod) echo 256 1024 4096 16384 ;;
    *) echo 256 1024 4096 16384 65536 ;;
    esac
}

{
    echo "# bulk int bench: libbulk vs GMP, same instances, same run, same threads"
    echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')  machine: $machine"
    echo "# cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')  ($ALL CPUs)"
    echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) (above $ALL: shared"
    echo "# cores, so the scale column says little; the ratios, timed in alternation, hold better)"
    echo "# $("$BULK" --version); backend: $("$BULK" info | grep 'auto backend' | sed 's/.*: //')"
    echo "# command per row: $BULK int bench OP --bits W --count N --threads T --time $T --json"
    echo "# GMP runs over the instances on T threads through bulk_parallel_for;"
    echo "# ratio = bulk ops/s / GMP ops/s (above 1: bulk faster); every result checked against GMP"
    echo "# scale = bulk ops/s on T threads / bulk ops/s on 1 thread (same op, width and count)"
    printf '%-7s %6s %6s %3s %14s %14s %8s %6s  %s\n' op bits count thr "bulk ops/s" "GMP ops/s" ratio scale "GMP function"
} | tee "$out"

threads="1"
[ "$ALL" -gt 1 ] && threads="1 $ALL"
for op in mul sqr add sub cmp div mod divmod gcd powmod; do
    for w in $(widths $op); do
        n=$(count $op $w)
        for t in $threads; do
            j=$("$BULK" int bench "$op" --bits "$w" --count "$n" --threads "$t" --time "$T" --json)
            echo "$j" >>"$raw"
            f() { echo "$j" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
            rate=$(f bulk_ops_per_s)
            [ "$t" = 1 ] && one=$rate
            scale=$(awk -v a="$rate" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
            printf '%-7s %6s %6s %3s %14.4g %14.4g %8.3f %6s  %s\n' "$op" "$w" "$n" "$t" \
                "$rate" "$(f gmp_ops_per_s)" "$(f ratio)" "$scale" "$(f gmp_function)" | tee -a "$out"
        done
    done
done
{
    echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    echo "# raw JSON, one run per line"
    cat "$raw"
} >>"$out"
echo "written: $out"
