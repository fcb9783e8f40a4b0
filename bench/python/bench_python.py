#!/usr/bin/env python3
"""bench_python: the cost of reaching libbulk from Python, against gmpy2 and Python's own ints
and against the C API measured in the same process.

    python3 bench/python/bench_python.py [--backend cpu|cuda] [--n N] [--powmod-n N]
                                         [--bits W] [--reps R] [--machine NAME] [--no-results]

Rows (N random W-bit pairs, default 2^16 pairs of 1024 bits; powmod on --powmod-n instances,
default 1024 on the CPU and N on CUDA, W-bit base, exponent and odd modulus):
  mul lists       bulk.int.mul(list, list) -> list, conversions included, against the loop
                  [x * y for x, y in zip(A, B)] over gmpy2.mpz values and over Python ints
  mul arrays      bulk.int.mul(uint64 array, uint64 array, out=R) against the C API
                  bulk_int_mul called from the extension on the same operands into the same
                  R: the overhead of the Python layer; and without out= (a new result array
                  per call: its fresh pages are part of the cost)
  powmod lists    bulk.int.powmod(lists) against gmpy2.powmod and pow() in a loop
  powmod arrays   against the C API bulk_int_powmod, as for mul
With --backend cuda (a CUDA context) the device-resident rows time bulk.int.mul / powmod on
DeviceArrays (to_device once, results into one out= array; the time is of the operation
and a sync), next to the
list-in/list-out rows (uploads, downloads and conversions included).
--backend cpu uses Context("cpu", threads=1): one core for bulk as for gmpy2 and Python.
Every bulk result is checked against gmpy2's (or Python's); a mismatch fails (exit 1).
Each time is the best of R runs (default 6), the rows compared run in alternation (a round
calls each once), so that the load of a shared machine hits them alike. The table is printed and written to
bench/results/python-<machine>.txt (python-gpu-<machine>.txt for cuda; machine: --machine,
BULK_BENCH_MACHINE, else the short host name), as `sh bench/run.sh` does for the C programs.
"""
import argparse
import os
import platform
import random
import socket
import sys
import time

import numpy as np

import bulk
from bulk import _bulk


def best(f, reps):
    t = float("inf")
    r = None
    for _ in range(reps):
        t0 = time.perf_counter()
        r = f()
        t = min(t, time.perf_counter() - t0)
    return t, r


def race(fs, reps):
    """The best time of each function, run in alternation (one call of each per round, the
    round's first function rotating: the call after another one may find the caches and the
    clock in another state), so that the load of a shared machine falls on all of them alike;
    and their last results."""
    t = [float("inf")] * len(fs)
    r = [None] * len(fs)
    for k in range(reps):
        for j in range(len(fs)):
            i = (j + k) % len(fs)
            f = fs[i]
            t0 = time.perf_counter()
            r[i] = f()
            t[i] = min(t[i], time.perf_counter() - t0)
    return t, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--n", type=int, default=1 << 16)
    ap.add_argument("--powmod-n", type=int, default=None)
    ap.add_argument("--bits", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--machine", default=os.environ.get("BULK_BENCH_MACHINE")
                    or socket.gethostname().split(".")[0])
    ap.add_argument("--no-results", action="store_true", help="print only")
    a = ap.parse_args()
    try:
        import gmpy2
    except ImportError:
        sys.exit("bench_python: gmpy2 is needed (pip install gmpy2)")
    cuda = a.backend == "cuda"
    ctx = bulk.Context("cuda") if cuda else bulk.Context("cpu", threads=1)
    pn = a.powmod_n or (a.n if cuda else 1024)
    rng = random.Random(a.seed)
    W = a.bits
    A = [rng.getrandbits(W) for _ in range(a.n)]
    B = [rng.getrandbits(W) for _ in range(a.n)]
    M = [rng.getrandbits(W) | 1 | (1 << (W - 1)) for _ in range(pn)]
    gA, gB, gM = [gmpy2.mpz(x) for x in A], [gmpy2.mpz(x) for x in B], [gmpy2.mpz(x) for x in M]
    limbs = W // 64
    LA, LB, LM = bulk.int.to_limbs(A, W), bulk.int.to_limbs(B, W), bulk.int.to_limbs(M, W)
    rows = []

    def row(name, n, t, peer=None, tp=None):
        rows.append((name, n, t, peer, tp))

    def check(got, want, what):
        if got != want:
            sys.exit(f"bench_python: {what}: bulk's result differs from the reference")

    # ---- mul ----
    (t_g, t_py, t_l), (ref, _, got) = race([lambda: [x * y for x, y in zip(gA, gB)],
                                            lambda: [x * y for x, y in zip(A, B)],
                                            lambda: bulk.int.mul(A, B, ctx=ctx)], a.reps)
    ref = [int(x) for x in ref]
    check(got, ref, "mul lists")
    row("mul lists, bulk vs gmpy2 loop", a.n, t_l, "gmpy2", t_g)
    row("mul lists, bulk vs Python ints loop", a.n, t_l, "python", t_py)
    out = np.empty((a.n, 2 * limbs), np.uint64)
    # the C API and bulk.int.mul(out=) write the same result array (two 16 MB results written in
    # turn would measure the caches, not the Python layer); the new-result call allocates and
    # frees a fresh result each time, which disturbs whatever runs next: it is timed apart
    (t_c, t_a), _ = race([
        lambda: _bulk.int_array(ctx, "mul", (out, None), (LA, LB), a.n, limbs, limbs, 1),
        lambda: bulk.int.mul(LA, LB, out=out, ctx=ctx)], a.reps)
    check(bulk.int.from_limbs(out), ref, "mul arrays")
    t_f, P = best(lambda: bulk.int.mul(LA, LB, ctx=ctx), a.reps)
    check(bulk.int.from_limbs(P), ref, "mul arrays")
    row("mul arrays (out=), bulk.int.mul vs C API", a.n, t_a, "C API", t_c)
    row("mul arrays (new result), vs C API", a.n, t_f, "C API", t_c)
    t_conv, _ = best(lambda: bulk.int.to_limbs(A, W), a.reps)
    row("to_limbs (Python ints -> limbs)", a.n, t_conv)
    t_back, _ = best(lambda: bulk.int.from_limbs(P), a.reps)
    row("from_limbs (product limbs -> ints)", a.n, t_back)

    # ---- powmod ----
    Ab, Bb = A[:pn], B[:pn]
    preps = max(1, a.reps if cuda else 2)
    (t_g, t_l), (ref, got) = race([
        lambda: [gmpy2.powmod(x, y, m) for x, y, m in zip(gA[:pn], gB[:pn], gM)],
        lambda: bulk.int.powmod(Ab, Bb, M, ctx=ctx)], preps)
    ref = [int(x) for x in ref]
    t_py, _ = best(lambda: [pow(x, y, m) for x, y, m in zip(Ab, Bb, M)], 1)
    check(got, ref, "powmod lists")
    row("powmod lists, bulk vs gmpy2.powmod loop", pn, t_l, "gmpy2", t_g)
    row("powmod lists, bulk vs pow() loop", pn, t_l, "python", t_py)
    PA, PB = np.ascontiguousarray(LA[:pn]), np.ascontiguousarray(LB[:pn])
    out = np.empty((pn, limbs), np.uint64)
    R = np.empty_like(out)
    (t_c, t_a), _ = race([
        lambda: _bulk.int_array(ctx, "powmod", (out, None), (PA, PB, LM), pn, limbs, limbs, 1),
        lambda: bulk.int.powmod(PA, PB, LM, out=R, ctx=ctx)], preps)
    check(bulk.int.from_limbs(R), ref, "powmod arrays")
    row("powmod arrays (out=), vs C API", pn, t_a, "C API", t_c)

    # ---- device-resident (CUDA) ----
    if cuda:
        dA, dB = bulk.int.to_device(LA, ctx=ctx), bulk.int.to_device(LB, ctx=ctx)
        dP = bulk.int.mul(dA, dB)

        def dmul():
            bulk.int.mul(dA, dB, out=dP)
            dP.sync()
            return dP
        t_d, r = best(dmul, a.reps)
        check(r.tolist(), [int(x) * int(y) for x, y in zip(A, B)], "mul device")
        row("mul device-resident (DeviceArray)", a.n, t_d, "gmpy2", rows[0][4])
        dPA, dPB, dM = (bulk.int.to_device(x, ctx=ctx) for x in (PA, PB, LM))
        dR = bulk.int.powmod(dPA, dPB, dM)

        def dpow():
            bulk.int.powmod(dPA, dPB, dM, out=dR)
            dR.sync()
            return dR
        t_d, r = best(dpow, a.reps)
        check(r.tolist(), ref, "powmod device")
        row("powmod device-resident (DeviceArray)", pn, t_d, "gmpy2", t_g)

    # ---- the table ----
    lines = [f"# bench_python  {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}  host {a.machine}  "
             f"{platform.processor() or platform.machine()}  Python {platform.python_version()}  "
             f"gmpy2 {gmpy2.version()}  numpy {np.__version__}",
             f"# {' '.join([os.path.basename(sys.argv[0])] + sys.argv[1:])}  context {ctx!r}  "
             f"{W}-bit operands, best of {a.reps} (powmod {preps}; pow() 1)",
             f"{'row':44s} {'n':>7s} {'bulk s':>10s} {'ns/op':>9s} {'peer':>7s} {'peer s':>10s} {'speed-up':>9s}"]
    for name, n, t, peer, tp in rows:
        s = f"{name:44s} {n:7d} {t:10.5f} {1e9 * t / n:9.1f}"
        if peer:
            s += f" {peer:>7s} {tp:10.5f} {tp / t:8.2f}x"
        lines.append(s)
    lines.append("# speed-up: peer time / bulk time (above 1: bulk is faster); arrays vs C API: "
                 "below 1 is the Python layer's overhead (0.9 = within 10%)")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if not a.no_results:
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results")
        path = os.path.join(root, f"python{'-gpu' if cuda else ''}-{a.machine}.txt")
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "x") as f:
            f.write(text)
        os.replace(tmp, path)
        print(f"written: {os.path.relpath(path)}")


if __name__ == "__main__":
    main()
