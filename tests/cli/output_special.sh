#!/bin/sh
# Every output option (--out, --png, --checkpoint) leaves what is at its path in place
# (docs/cli.md): through a symbolic link the target gets the bytes and the link stays; a FIFO
# and a device node are written straight through and stay what they are; a full device makes
# the command exit 1 naming the path and the cause; a directory is refused; no temporary is
# left behind, and a killed run's temporary is removed by the next run writing there.
#
# As root the device nodes are private ones made with mknod in the scratch directory, never the
# system's: /dev/null, /dev/full and /dev/stdout are written only by a non-root user (who could
# not replace them anyway) or, as root, once the private cases showed that this bulk leaves
# device nodes in place. Cases are counted; the summary says how many went wrong.
#   $1 = bulk binary, $2 = tests/data, $3 = scratch directory (emptied here)
BULK=$1
DATA=$2
S=$3
[ -x "$BULK" ] || { echo "no bulk binary at '$BULK'" >&2; exit 1; }
rm -rf "$S"
mkdir -p "$S" || exit 1
S=$(cd "$S" && pwd)
umask 022
export BULK_PROGRESS=0

cases=0
wrong=0
name=
ok=1

end_case() {
    if [ -n "$name" ] && [ "$ok" -eq 0 ]; then
        wrong=$((wrong + 1))
        echo "WRONG: $name" >&2
    fi
    name=
}
begin() {
    end_case
    name=$1
    ok=1
    cases=$((cases + 1))
}
fail() {
    echo "FAIL: $name: $*" >&2
    ok=0
}

# bk ARGS...: runs bulk (stdout to $S/so, stderr to $S/err), sets rc
bk() {
    timeout 120 "$BULK" "$@" >"$S/so" 2>"$S/err"
    rc=$?
}
rc_is() {
    [ "$rc" -eq "$1" ] || { fail "exit code $rc, expected $1"; sed -n 1,3p "$S/err" >&2; }
}
err_has() {
    grep -q -- "$1" "$S/err" || { fail "the message lacks '$1'"; sed -n 1,3p "$S/err" >&2; }
}
same() {
    cmp -s "$1" "$2" || fail "$2 differs from $1"
}
is_link() { [ -L "$1" ] || fail "$1 is no longer a symbolic link"; }
is_fifo() { [ -p "$1" ] && [ ! -L "$1" ] || fail "$1 is no longer a FIFO"; }
is_char() { [ -c "$1" ] && [ ! -L "$1" ] || fail "$1 is no longer a character device"; }
is_dir() { [ -d "$1" ] && [ ! -L "$1" ] || fail "$1 is no longer a directory"; }
# no_tmp DIR...: no temporary output file left there (ours or the old PATH.tmp.PID ones)
no_tmp() {
    for d in "$@"; do
        for f in "$d"/.*.bulk-tmp-* "$d"/*.tmp.* "$d"/*.partial; do
            [ -e "$f" ] && fail "temporary $f left behind"
        done
    done
}
# link NAME TARGET: a fresh symbolic link $S/NAME -> TARGET
link() {
    rm -f "$S/$1"
    ln -s "$2" "$S/$1"
}
# fifo_run FIFO ARGS...: bulk ARGS while a reader copies FIFO into $S/got
fifo_run() {
    f=$1
    shift
    rm -f "$S/got"
    cat "$f" >"$S/got" &
    rpid=$!
    bk "$@"
    i=0
    while kill -0 "$rpid" 2>/dev/null && [ $i -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 "$rpid" 2>/dev/null; then
        kill "$rpid"
        fail "nothing reached the FIFO's reader"
    fi
    wait "$rpid" 2>/dev/null
}

# ---- inputs and the expected outputs (written to stdout) --------------------------------
printf '1 2\n3 4\n18446744073709551615 1\n' >"$S/in.txt"
"$BULK" int add --in "$S/in.txt" >"$S/int.ref" || exit 1
printf '15\n21\n35\n77\n' >"$S/mod.txt"
"$BULK" gcd batch "$S/mod.txt" >"$S/gcd.ref" 2>/dev/null || exit 1
"$BULK" collatz delays --from 1 --to 2049 >"$S/delays.ref" || exit 1
"$BULK" collatz delays --from 1 --to 4097 --stats 256 --png "$S/plot.ref" >"$S/stats.ref" || exit 1
"$BULK" circuit adder --bits 3 >"$S/adder.ref" || exit 1
"$BULK" life run --in "$DATA/life/glider.rle" --steps 4 --png "$S/life.png.ref" >"$S/life.ref" || exit 1
printf 'ab\naabb\naab\n' >"$S/words.txt"
"$BULK" cky --grammar "$DATA/cky/anbn.cfg" --in "$S/words.txt" >"$S/cky.ref" || exit 1
mkfifo "$S/fifo" || exit 1
mkdir "$S/other" "$S/adir" || exit 1

# ---- device nodes -------------------------------------------------------------------------
NULLDEV=
FULLDEV=
if [ "$(id -u)" -ne 0 ]; then
    NULLDEV=/dev/null
    FULLDEV=/dev/full
    [ -c /dev/full ] || FULLDEV=
elif mknod "$S/null" c 1 3 2>/dev/null && mknod "$S/full" c 1 7 2>/dev/null &&
    echo x 2>/dev/null >"$S/null"; then
    NULLDEV=$S/null
    FULLDEV=$S/full
else
    echo "SKIP (device-node cases): root, but mknod in $S failed or its nodes cannot be opened"
    rm -f "$S/null" "$S/full"
fi
# fresh_nodes: private nodes made anew, so that a case sees a device even after an earlier
# case replaced one
fresh_nodes() {
    if [ "$NULLDEV" = "$S/null" ]; then
        rm -f "$S/null" "$S/full"
        mknod "$S/null" c 1 3 && mknod "$S/full" c 1 7 || fail "mknod failed"
    fi
}

# full_case NAME ARGS...: bulk ARGS --out FULL (a full device) exits 1 naming it and the cause
full_case() {
    [ -n "$FULLDEV" ] || return 0
    begin "$1 --out: a full device exits 1 naming it and the cause"
    shift
    fresh_nodes
    bk "$@" --out "$FULLDEV"
    rc_is 1
    err_has "$FULLDEV"
    err_has "No space left on device"
    is_char "$FULLDEV"
}

# ---- bulk int -----------------------------------------------------------------------------
begin "int --out: a regular file keeps its mode and gets the bytes"
echo old >"$S/reg.txt"
chmod 640 "$S/reg.txt"
bk int add --in "$S/in.txt" --out "$S/reg.txt"
rc_is 0
same "$S/int.ref" "$S/reg.txt"
[ "$(stat -c %a "$S/reg.txt")" = 640 ] || fail "mode $(stat -c %a "$S/reg.txt"), expected 640"
no_tmp "$S"

begin "int --out: a new file, mode 0666 & ~umask"
rm -f "$S/new.txt"
bk int add --in "$S/in.txt" --out "$S/new.txt"
rc_is 0
same "$S/int.ref" "$S/new.txt"
[ "$(stat -c %a "$S/new.txt" 2>/dev/null)" = 644 ] || fail "mode $(stat -c %a "$S/new.txt" 2>/dev/null), expected 644"

begin "int --out: a symbolic link to a file in another directory"
echo old >"$S/other/t.txt"
link l.txt other/t.txt
bk int add --in "$S/in.txt" --out "$S/l.txt"
rc_is 0
is_link "$S/l.txt"
same "$S/int.ref" "$S/other/t.txt"
no_tmp "$S" "$S/other"

begin "int --out: a dangling symbolic link creates its target"
rm -f "$S/other/dang.txt"
link dang.txt other/dang.txt
bk int add --in "$S/in.txt" --out "$S/dang.txt"
rc_is 0
is_link "$S/dang.txt"
same "$S/int.ref" "$S/other/dang.txt"

begin "int --out: a chain of two links"
echo old >"$S/other/c.txt"
link c2 other/c.txt
link c1 c2
bk int add --in "$S/in.txt" --out "$S/c1"
rc_is 0
is_link "$S/c1"
is_link "$S/c2"
same "$S/int.ref" "$S/other/c.txt"

begin "int --out: a FIFO is written straight through"
fifo_run "$S/fifo" int add --in "$S/in.txt" --out "$S/fifo"
rc_is 0
is_fifo "$S/fifo"
same "$S/int.ref" "$S/got"
no_tmp "$S"

begin "int --out: a symbolic link to a FIFO"
link lf fifo
fifo_run "$S/fifo" int add --in "$S/in.txt" --out "$S/lf"
rc_is 0
is_link "$S/lf"
is_fifo "$S/fifo"
same "$S/int.ref" "$S/got"

begin "int --out: a link to /proc/self/fd/1 writes to standard output"
link so1 /proc/self/fd/1
{ timeout 120 "$BULK" int add --in "$S/in.txt" --out "$S/so1" 2>"$S/err"; echo $? >"$S/rc"; } | cat >"$S/got"
rc=$(cat "$S/rc")
rc_is 0
is_link "$S/so1"
same "$S/int.ref" "$S/got"

begin "int --out: a directory is refused"
bk int add --in "$S/in.txt" --out "$S/adir"
[ "$rc" -ne 0 ] || fail "exit code 0 for a directory"
err_has "adir"
err_has "Is a directory"
is_dir "$S/adir"
no_tmp "$S"

if [ -n "$NULLDEV" ]; then
    begin "int --out: a null device stays a device"
    fresh_nodes
    bk int add --in "$S/in.txt" --out "$NULLDEV"
    rc_is 0
    is_char "$NULLDEV"
    no_tmp "$(dirname "$NULLDEV")"

    begin "int --out: a link to a null device"
    fresh_nodes
    link ln "$NULLDEV"
    bk int add --in "$S/in.txt" --out "$S/ln"
    rc_is 0
    is_link "$S/ln"
    is_char "$NULLDEV"
fi
full_case "int" int add --in "$S/in.txt"

# ---- bulk collatz -------------------------------------------------------------------------
begin "collatz delays --out: through a link"
echo old >"$S/other/d.txt"
link d.txt other/d.txt
bk collatz delays --from 1 --to 2049 --out "$S/d.txt"
rc_is 0
is_link "$S/d.txt"
same "$S/delays.ref" "$S/other/d.txt"
no_tmp "$S" "$S/other"

begin "collatz delays --out: a FIFO"
fifo_run "$S/fifo" collatz delays --from 1 --to 2049 --out "$S/fifo"
rc_is 0
is_fifo "$S/fifo"
same "$S/delays.ref" "$S/got"

begin "collatz delays --stats --png: through a link"
link p.png other/p.png
bk collatz delays --from 1 --to 4097 --stats 256 --png "$S/p.png" --out "$S/st.txt"
rc_is 0
is_link "$S/p.png"
same "$S/plot.ref" "$S/other/p.png"
same "$S/stats.ref" "$S/st.txt"

begin "collatz delays --checkpoint: --out through a link"
rm -f "$S/dk.ck" "$S/other/dk.txt"
link dk.txt other/dk.txt
bk collatz delays --from 1 --to 2049 --out "$S/dk.txt" --checkpoint "$S/dk.ck"
rc_is 0
is_link "$S/dk.txt"
same "$S/delays.ref" "$S/other/dk.txt"
no_tmp "$S" "$S/other"

full_case "collatz delays" collatz delays --from 1 --to 2049
if [ -n "$NULLDEV" ]; then
    begin "collatz delays --checkpoint with --out a device: refused, the device stays"
    fresh_nodes
    rm -f "$S/dn.ck"
    bk collatz delays --from 1 --to 2049 --out "$NULLDEV" --checkpoint "$S/dn.ck"
    rc_is 2
    is_char "$NULLDEV"

    begin "collatz delays --png: a null device stays"
    fresh_nodes
    bk collatz delays --from 1 --to 4097 --stats 256 --png "$NULLDEV"
    rc_is 0
    is_char "$NULLDEV"
fi

begin "collatz verify --checkpoint: through a link"
rm -f "$S/other/v.ck"
link v.ck other/v.ck
bk collatz verify --from 1 --to 100000 --checkpoint "$S/v.ck"
rc_is 0
is_link "$S/v.ck"
[ "$(head -n 1 "$S/other/v.ck" 2>/dev/null)" = "bulk-collatz-checkpoint 2" ] || fail "the link's target is not a checkpoint"
bk collatz verify --from 1 --to 100000 --checkpoint "$S/v.ck"
rc_is 0
is_link "$S/v.ck"
no_tmp "$S" "$S/other"

if [ -n "$NULLDEV" ]; then
    begin "collatz verify --checkpoint: a device is refused and stays"
    fresh_nodes
    bk collatz verify --from 1 --to 100000 --checkpoint "$NULLDEV"
    rc_is 2
    err_has "$NULLDEV"
    is_char "$NULLDEV"
fi

begin "collatz records --checkpoint: through a link"
rm -f "$S/other/r.ck"
link r.ck other/r.ck
bk collatz records --kind delay --from 1 --to 100000 --checkpoint "$S/r.ck"
rc_is 0
is_link "$S/r.ck"
[ "$(head -n 1 "$S/other/r.ck" 2>/dev/null)" = "bulk-collatz-run 1" ] || fail "the link's target is not a checkpoint"

begin "dist collatz delays --out and --checkpoint DIR: through links"
mkdir -p "$S/other/ckd"
link ckd other/ckd
link ds.txt other/ds.txt
bk dist collatz delays --from 1 --to 4097 --stats 256 --chunk 1024 --out "$S/ds.txt" --checkpoint "$S/ckd"
rc_is 0
is_link "$S/ds.txt"
is_link "$S/ckd"
same "$S/stats.ref" "$S/other/ds.txt"
no_tmp "$S" "$S/other" "$S/other/ckd"

# ---- bulk gcd -----------------------------------------------------------------------------
begin "gcd batch --out: through a link"
echo old >"$S/other/g.txt"
link g.txt other/g.txt
bk gcd batch "$S/mod.txt" --out "$S/g.txt"
rc_is 0
is_link "$S/g.txt"
same "$S/gcd.ref" "$S/other/g.txt"

begin "gcd batch --out: a FIFO"
fifo_run "$S/fifo" gcd batch "$S/mod.txt" --out "$S/fifo"
rc_is 0
is_fifo "$S/fifo"
same "$S/gcd.ref" "$S/got"

full_case "gcd pairs" gcd pairs "$S/mod.txt"

# ---- bulk circuit, life, cky --------------------------------------------------------------
begin "circuit adder --out: through a link"
link a.aag other/a.aag
bk circuit adder --bits 3 --out "$S/a.aag"
rc_is 0
is_link "$S/a.aag"
same "$S/adder.ref" "$S/other/a.aag"

begin "circuit adder --out: a FIFO"
fifo_run "$S/fifo" circuit adder --bits 3 --out "$S/fifo"
rc_is 0
is_fifo "$S/fifo"
same "$S/adder.ref" "$S/got"

full_case "circuit adder" circuit adder --bits 3

begin "life run --out and --png: through links"
link life.rle other/life.rle
link life.png other/life.png
bk life run --in "$DATA/life/glider.rle" --steps 4 --out "$S/life.rle" --png "$S/life.png"
rc_is 0
is_link "$S/life.rle"
is_link "$S/life.png"
same "$S/life.ref" "$S/other/life.rle"
same "$S/life.png.ref" "$S/other/life.png"

if [ -n "$NULLDEV" ]; then
    begin "life run --out and --png: a null device stays"
    fresh_nodes
    bk life run --in "$DATA/life/glider.rle" --steps 4 --out "$NULLDEV" --png "$NULLDEV"
    rc_is 0
    is_char "$NULLDEV"
fi

begin "cky --out: a FIFO"
fifo_run "$S/fifo" cky --grammar "$DATA/cky/anbn.cfg" --in "$S/words.txt" --out "$S/fifo"
rc_is 0
is_fifo "$S/fifo"
same "$S/cky.ref" "$S/got"

full_case "cky" cky --grammar "$DATA/cky/anbn.cfg" --in "$S/words.txt"

# ---- a killed run's temporary -------------------------------------------------------------
begin "a killed run's temporary is removed by the next run there; a live one is kept"
mkdir -p "$S/k"
"$BULK" collatz delays --from 1 --to 2^36 --out "$S/k/d.txt" 2>/dev/null &
kpid=$!
i=0
tmp=
while [ -z "$tmp" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
    for f in "$S"/k/.d.txt.bulk-tmp-* "$S"/k/d.txt.tmp.*; do
        [ -e "$f" ] && tmp=$f
    done
done
kill -9 "$kpid" 2>/dev/null
wait "$kpid" 2>/dev/null
if [ -z "$tmp" ]; then
    fail "no temporary appeared for the run to be killed"
else
    # the same name with this shell's (live) process id instead of the killed one
    live=$(printf '%s\n' "$tmp" | sed -n "s/\(bulk-tmp-[0-9a-f]*-\)[0-9]*-/\1$$-/p")
    [ -n "$live" ] && echo keep >"$live"
    bk int add --in "$S/in.txt" --out "$S/k/x.txt"
    rc_is 0
    [ -e "$tmp" ] && fail "the killed run's $tmp is still there"
    if [ -n "$live" ]; then
        [ -e "$live" ] || fail "a live process's temporary was removed"
        rm -f "$live"
    else
        fail "the temporary $tmp does not have the documented name"
    fi
fi

# ---- the system's devices and /dev/stdout -------------------------------------------------
# As root only when every private case above went right (a bulk that replaced device nodes
# would replace the system's).
if [ "$(id -u)" -ne 0 ] || { [ "$wrong" -eq 0 ] && [ "$ok" -eq 1 ] && [ -n "$NULLDEV" ]; }; then
    begin "int --out /dev/stdout into a pipe"
    { timeout 120 "$BULK" int add --in "$S/in.txt" --out /dev/stdout 2>"$S/err"; echo $? >"$S/rc"; } | cat >"$S/got"
    rc=$(cat "$S/rc")
    rc_is 0
    same "$S/int.ref" "$S/got"
    [ -L /dev/stdout ] || fail "/dev/stdout is no longer a symbolic link"

    begin "int --out /dev/stdout appends to a redirected file"
    { echo first; "$BULK" int add --in "$S/in.txt" --out /dev/stdout; } >"$S/app.txt" 2>"$S/err"
    rc=$?
    rc_is 0
    { echo first; cat "$S/int.ref"; } >"$S/app.ref"
    same "$S/app.ref" "$S/app.txt"

    begin "int --out /dev/null (the system's)"
    bk int add --in "$S/in.txt" --out /dev/null
    rc_is 0
    is_char /dev/null
    if [ -c /dev/full ]; then
        begin "int --out /dev/full (the system's)"
        bk int add --in "$S/in.txt" --out /dev/full
        rc_is 1
        err_has "/dev/full"
        err_has "No space left on device"
        is_char /dev/full
    fi
else
    echo "SKIP (system devices): root, and the private device cases went wrong or were skipped"
fi

end_case
if [ "$wrong" -ne 0 ]; then
    echo "$wrong of $cases case(s) went wrong"
    exit 1
fi
echo "all $cases cases right"
exit 0
