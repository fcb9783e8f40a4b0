"""bulk.collatz against a plain Python Collatz iteration and the CLI's JSON."""
import json
import os
import subprocess

import numpy as np
import pytest

import bulk


def py_delay(n):
    s = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        s += 1
    return s


def py_glide_peak(n):
    m, s, top = n, 0, n
    while m >= n and m != 1 or (s == 0 and n != 1):
        m = m // 2 if m % 2 == 0 else 3 * m + 1
        top = max(top, m)
        s += 1
        if m < n:
            break
    return (0 if n == 1 else s), top


def test_delay_any_size(rng):
    for n in [1, 2, 3, 27, 97, 871, (1 << 64) - 1, 1 << 127, 3 ** 200, rng.getrandbits(500) | 1]:
        assert bulk.collatz.delay(n) == py_delay(n)
    e = bulk.collatz.exact(27)
    assert (e.delay, e.glide, e.peak) == (111, 96, 9232)
    with pytest.raises(ValueError):
        bulk.collatz.delay(0)
    with pytest.raises(ValueError, match="negative"):
        bulk.collatz.delay(-5)


def test_delays(rng, cpu):
    start = rng.randint(1, 10 ** 6)
    d = bulk.collatz.delays(start, start + 3000, ctx=cpu)
    assert d.dtype == np.uint16 and len(d) == 3000
    assert d.tolist() == [py_delay(n) for n in range(start, start + 3000)]
    big = (1 << 100) + 7
    assert bulk.collatz.delays(big, big + 50, dtype=np.uint32).tolist() == [py_delay(n) for n in range(big, big + 50)]
    with pytest.raises(ValueError, match="empty"):
        bulk.collatz.delays(10, 10)
    with pytest.raises(ValueError, match="at least 1"):
        bulk.collatz.delays(0, 10)


def test_delay_stats(cpu):
    s = bulk.collatz.delay_stats(1, 1001, 100, ctx=cpu)
    ref = np.array([py_delay(n) for n in range(1, 1001)]).reshape(10, 100)
    assert s.sum.tolist() == ref.sum(1).tolist()
    assert s.min.tolist() == ref.min(1).tolist() and s.max.tolist() == ref.max(1).tolist()
    with pytest.raises(ValueError, match="batch 7"):
        bulk.collatz.delay_stats(1, 101, 7)


def test_verify(cpu):
    r = bulk.collatz.verify(1, 20001, ctx=cpu)
    assert r.covered == 20000 and r.first == 1 and r.last == 20000 and r.mode == "glides"
    glides = [py_glide_peak(n)[0] for n in range(1, 20001)]
    assert r.checksum == sum(glides)
    assert r.max_glide == max(glides) and r.max_glide_n == glides.index(max(glides)) + 1
    assert r["covered"] == r.covered and r.from_ == "1" and set(r.keys()) >= {"checksum", "part"}
    c = bulk.collatz.verify(1, 20001, converge=True, ctx=cpu)
    assert c.covered == 20000 and c.checksum is None and c.mode == "converge"
    parts = [bulk.collatz.verify(1, 20001, part=(i, 3), ctx=cpu) for i in (1, 2, 3)]
    assert sum(p.covered for p in parts) == 20000 and sum(p.checksum for p in parts) == r.checksum
    assert parts[1].part == "2/3"
    with pytest.raises(ValueError, match="part 4/3"):
        bulk.collatz.verify(1, 100, part="4/3")
    with pytest.raises(ValueError, match="2\\^128"):
        bulk.collatz.verify(1, (1 << 128) + 1)


def test_verify_matches_cli(cpu):
    cli = os.environ.get("BULK_CLI")
    if not cli or not os.path.exists(cli):
        pytest.skip("the CLI is not at hand (BULK_CLI; set by ctest)")
    for conv in (False, True):
        args = [cli, "collatz", "verify", "--from", "1000", "--to", "2^20", "--json", "--backend", "cpu"]
        out = json.loads(subprocess.run(args + (["--converge"] if conv else []), check=True,
                                        capture_output=True, text=True).stdout)
        mine = json.loads(bulk.collatz.verify(1000, 1 << 20, converge=conv, ctx=cpu).to_json())
        mine["from"], mine["to"] = out["from"], out["to"]
        for k in out:
            if k not in ("seconds", "rate"):
                assert mine[k] == out[k], k


def test_records(cpu):
    delays = [py_delay(n) for n in range(1, 5001)]
    best, ref = -1, []
    for n, d in enumerate(delays, 1):
        if d > best:
            best = d
            ref.append((n, d))
    assert [tuple(r) for r in bulk.collatz.records("delay", 1, 5001, ctx=cpu)] == ref
    peaks = [py_glide_peak(n)[1] if n > 1 else 1 for n in range(1, 2001)]
    path = bulk.collatz.records("path", 1, 2001, ctx=cpu)
    assert all(r.value == max(peaks[: r.n]) and (r.n == 1 or max(peaks[: r.n - 1]) < r.value) for r in path)
    with pytest.raises(ValueError, match="kind 'height'"):
        bulk.collatz.records("height", 1, 10)
    # above: around the path record R with the peak of the one before, R0, exactly R
    r0, r = 1038743969413717663, 1980976057694848447
    got = bulk.collatz.records("path", r - 5000, r + 5000, above=bulk.collatz.peak(r0), ctx=cpu)
    assert [tuple(x) for x in got] == [(r, bulk.collatz.peak(r))]
    assert bulk.collatz.records("path", r - 5000, r + 5000, above=bulk.collatz.peak(r), ctx=cpu) == []
    with pytest.raises(ValueError, match="above: applies to path records only"):
        bulk.collatz.records("delay", 1, 10, above=5)
    with pytest.raises(TypeError, match="above: an int is needed"):
        bulk.collatz.records("path", 1, 10, above="5")


def py_predrop_peak(n):
    """The largest value of n's trajectory before it first drops below n (1 for n = 1)."""
    v, top = n, n
    while n > 1 and v >= n:
        v = 3 * v + 1 if v & 1 else v >> 1
        top = max(top, v)
    return top


def test_verify_peaks(cpu):
    lo, hi = 1000, 30001
    peaks = [py_predrop_peak(n) for n in range(lo, hi)]
    r = bulk.collatz.verify(lo, hi, ctx=cpu)
    assert r.peak == max(peaks) and r.peak_n == lo + peaks.index(max(peaks))
    assert r.peak_hits == []
    v = sorted(peaks)[len(peaks) // 2]
    hits, best = [], v
    for n, p in enumerate(peaks, lo):
        if p > best:
            best = p
            hits.append([n, p])
    h = bulk.collatz.verify(lo, hi, peak_above=v, ctx=cpu)
    assert h.peak_hits == hits and h.peak == r.peak
    assert bulk.collatz.verify(lo, hi, peaks=False, ctx=cpu).peak is None
    # peaks past 2^128 are exact
    big = (1 << 127) + 1
    assert [tuple(x) for x in bulk.collatz.records("path", big, big + 1, ctx=cpu)] == [(big, bulk.collatz.peak(big))]
