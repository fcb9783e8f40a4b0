#!/bin/sh
# bulk gcd option names: --max-memory and --tmp-dir, and the old spellings --memory, --spill and
# --spill-dir, which still work (the same output) and print one deprecation line each on stderr.
# usage: sh cli_gcd_options.sh BULK DATA_DIR SCRATCH_DIR
BULK=$1 S=$3
rm -rf "$S" && mkdir -p "$S/spill" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }
# 40 numbers, many sharing small factors
awk 'BEGIN { for (i = 0; i < 40; i++) printf "%d\n", 1000003 + 2 * i }' > "$S/m.txt"

"$BULK" gcd batch "$S/m.txt" --max-memory 1 --tmp-dir "$S/spill" > "$S/new.out" 2> "$S/new.err" || no "new names: exit $?"
grep -q "spilled to disk" "$S/new.err" || no "--max-memory 1 did not spill"
grep -q deprecated "$S/new.err" && no "the new names printed a deprecation notice"
[ -s "$S/new.out" ] || no "no output"

# old NAME NEW OPTIONS...: the same output as the new names, and the notice for NAME
old() {
    name=$1 new=$2
    shift 2
    "$BULK" gcd batch "$S/m.txt" "$@" > "$S/old.out" 2> "$S/old.err" || no "$name: exit $?"
    cmp -s "$S/old.out" "$S/new.out" || no "$name: output differs from the new names'"
    grep -qx "bulk: gcd: $name is deprecated; use $new" "$S/old.err" || { no "$name: no notice"; cat "$S/old.err"; }
    [ "$(grep -c deprecated "$S/old.err")" -eq "$(printf '%s\n' "$@" | grep -c -- '^--\(memory\|spill\|spill-dir\)')" ] ||
        no "$name: not one notice per old option"
}
old --memory --max-memory --memory 1 --tmp-dir "$S/spill"
old --spill --tmp-dir --max-memory 1 --spill "$S/spill"
old --spill-dir --tmp-dir --max-memory 1 --spill-dir "$S/spill"
old --memory --max-memory --memory=1 --spill-dir="$S/spill"
[ -z "$(ls -A "$S/spill")" ] || no "files left in the spill directory"

# pairs refuses the batch options under either name
for opt in --max-memory --memory --tmp-dir --spill; do
    "$BULK" gcd pairs "$S/m.txt" $opt 1 > /dev/null 2> "$S/err"
    [ $? -eq 2 ] || no "pairs $opt: exit not 2"
done
grep -q -- "--max-memory, --tmp-dir and --checkpoint are batch options" "$S/err" || no "pairs: message"
"$BULK" gcd --help | grep -q -- "--tmp-dir DIR" || no "--help does not name --tmp-dir"
[ $fail -eq 0 ] && echo "all checks passed"
exit $fail
