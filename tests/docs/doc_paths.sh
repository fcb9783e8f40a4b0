#!/bin/sh
# Every path a docs page or README.md names must exist in the tree:
#   sh doc_paths.sh SOURCE_DIR SCRATCH_DIR
# Checked: words starting with src/, programs/, tests/, bench/, include/, docs/, cmake/ in
# docs/*.md, docs/perf/*.md and README.md (a built program's path counts when PATH.c exists;
# words with * { } < > | are patterns, and names of pruned result files, bench/results/2026-...
# and tests/gpu/2026-..., are read from git history, so both are skipped), and file names in
# backquotes (`name.c`, `cuda/name.cu`, ...; not bare `name.h`, which may be a system header)
# that some file of the tree must end with, outside docs/perf/ (which names former scripts).
# First the checker runs on a small tree with two missing names, which it must report.
set -u
SRC=$1
SCRATCH=$2

# check ROOT: prints FILE:LINE: PATH for every missing path; exit 1 if any
check() {
    root=$1
    all=$(cd "$root" && find . -type f ! -path './.git/*' ! -path './build*' | sed 's|^\./||')
    for f in "$root"/docs/*.md "$root"/docs/perf/*.md "$root"/README.md; do
        [ -f "$f" ] || continue
        rel=${f#"$root"/}
        hist=0
        case $rel in docs/perf/*) hist=1 ;; esac
        # explicit paths
        grep -noE '(^|[^A-Za-z0-9_./:-])(src|programs|tests|bench|include|docs|cmake)/[A-Za-z0-9_./*{}<>|-]*[A-Za-z0-9_*}>]' "$f" |
            sed -E 's/^([0-9]+):[^a-z]*/\1 /' | while read -r line p; do
                case $p in *'*'* | *'{'* | *'}'* | *'<'* | *'>'* | *'|'* | */2026-11-21-*) continue ;; esac
                [ -e "$root/$p" ] || [ -e "$root/$p.c" ] || echo "$rel:$line: $p"
            done
        # file names in backquotes
        [ $hist = 1 ] && continue # docs/perf/ names former scripts by their bare names
        grep -noE '`[A-Za-z0-9_./-]+\.(c|h|cu|cuh|sh|py|cmake)`' "$f" | tr -d '`' | while IFS=: read -r line p; do
            case $p in src/* | programs/* | tests/* | bench/* | include/* | docs/* | cmake/*) continue ;; esac
            case $p in */*) ;; *.h) continue ;; esac # a bare header may be the system's (mpi.h)
            printf '%s\n' "$all" | grep -qE "(^|/)$(printf '%s' "$p" | sed 's/[.]/[.]/g')\$" || echo "$rel:$line: $p"
        done
    done >"$SCRATCH/missing.txt"
    cat "$SCRATCH/missing.txt"
    [ ! -s "$SCRATCH/missing.txt" ]
}

rm -rf "$SCRATCH" && mkdir -p "$SCRATCH/fake/docs" "$SCRATCH/fake/src/a" || exit 1
: >"$SCRATCH/fake/src/a/here.c"
: >"$SCRATCH/fake/README.md"
printf 'Code: `src/a/here.c`, `here.c`, src/a/*.c and `src/a/gone.c`; `gone.cu`.\n' >"$SCRATCH/fake/docs/x.md"
if out=$(check "$SCRATCH/fake") || [ "$(printf '%s\n' "$out" | wc -l)" -ne 2 ]; then
    echo "FAIL: the checker did not report exactly src/a/gone.c and gone.cu:"
    printf '%s\n' "$out"
    exit 1
fi
if ! check "$SRC"; then
    echo "FAIL: paths named in the docs that are not in the tree (above)"
    exit 1
fi
echo "every path named in docs/*.md, docs/perf/*.md and README.md exists"
