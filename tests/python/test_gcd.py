"""bulk.gcd against math.gcd / SymPy on moduli with planted shared primes."""
import math

import numpy as np
import pytest

import bulk


def planted(rng, n, bits):
    xs = [rng.getrandbits(bits) | (1 << (bits - 1)) | 1 for _ in range(n)]
    for _ in range(3):
        p = rng.getrandbits(bits // 2) | 1 | (1 << (bits // 2 - 1))
        i, j = rng.sample(range(n), 2)
        xs[i] = (xs[i] >> (bits // 2)) * p | 1
        xs[j] = (xs[j] >> (bits // 2)) * p | 1
    return xs


def test_pairs_and_batch(rng, cpu):
    xs = planted(rng, 120, 512)
    ref = [(i, j, math.gcd(xs[i], xs[j])) for i in range(len(xs)) for j in range(i + 1, len(xs))
           if math.gcd(xs[i], xs[j]) != 1]
    assert [tuple(p) for p in bulk.gcd.pairs(xs, ctx=cpu)] == ref
    prod = math.prod(xs)
    want = [math.gcd(x, prod // x) for x in xs]
    assert bulk.gcd.batch(xs, ctx=cpu) == want
    st = {}
    assert bulk.gcd.batch(xs, max_memory=1 << 16, ctx=cpu, stats=st) == want and st["levels"] >= 2
    arr = bulk.gcd.batch(bulk.int.to_limbs(xs), ctx=cpu)
    assert isinstance(arr, np.ndarray) and bulk.int.from_limbs(arr) == want


def test_sympy_factors(cpu):
    sympy = pytest.importorskip("sympy")
    p, q, r = sympy.prime(10 ** 5), sympy.prime(10 ** 5 + 1), sympy.prime(10 ** 5 + 2)
    g = bulk.gcd.batch([p * q, q * r, 101 * 103], ctx=cpu)
    assert g == [q, q, 1]


def test_read_keys(tmp_path):
    (tmp_path / "a.txt").write_text("15\n0x15\n")
    (tmp_path / "b.txt").write_text(" 77 \n")
    (tmp_path / ".hidden").write_text("junk\n")
    assert bulk.gcd.read_keys(tmp_path) == [15, 21, 77]
    xs, where = bulk.gcd.read_keys(tmp_path / "a.txt", sources=True)
    assert where == [(str(tmp_path / "a.txt"), 1), (str(tmp_path / "a.txt"), 2)]
    (tmp_path / "bad.txt").write_text("15\n1x5\n")
    with pytest.raises(ValueError, match=r"bad.txt:2"):
        bulk.gcd.read_keys(tmp_path / "bad.txt")
    with pytest.raises(FileNotFoundError):
        bulk.gcd.read_keys(tmp_path / "none.txt")


def test_bad_moduli(cpu):
    with pytest.raises(ValueError, match="input 1"):
        bulk.gcd.batch([15, 1, 21], ctx=cpu)
    with pytest.raises(ValueError, match="negative"):
        bulk.gcd.pairs([15, -3])
