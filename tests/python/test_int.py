"""bulk.int against Python's integers (and gmpy2 when installed), on random and structured
inputs, through lists, limb arrays and (with a GPU) DeviceArrays."""
import math

import numpy as np
import pytest

import bulk
from conftest import edge_values

OPS = {
    "add": (2, lambda a, b: a + b),
    "sub": (2, lambda a, b: a - b),
    "mul": (2, lambda a, b: a * b),
    "gcd": (2, math.gcd),
    "cmp": (2, lambda a, b: (a > b) - (a < b)),
}


def operands(rng, n, bits):
    edge = edge_values(bits)
    return [rng.choice(edge) if rng.random() < 0.2 else rng.getrandbits(rng.randint(1, bits))
            for _ in range(n)]


@pytest.mark.parametrize("bits", [64, 128, 1024, 4096])
@pytest.mark.parametrize("op", sorted(OPS))
def test_binary_lists(rng, cpu, op, bits):
    a, b = operands(rng, 300, bits), operands(rng, 300, bits)
    f = getattr(bulk.int, op)
    assert f(a, b, ctx=cpu) == [OPS[op][1](x, y) for x, y in zip(a, b)]
    assert f(tuple(a), tuple(b)) == [OPS[op][1](x, y) for x, y in zip(a, b)]


@pytest.mark.parametrize("bits", [64, 192, 1024, 3000])
def test_sqr_divmod_mod(rng, cpu, bits):
    a = operands(rng, 200, 2 * bits)
    d = [x or 1 for x in operands(rng, 200, bits)]
    assert bulk.int.sqr(a, ctx=cpu) == [x * x for x in a]
    q, r = bulk.int.divmod(a, d, ctx=cpu)
    assert list(zip(q, r)) == [divmod(x, y) for x, y in zip(a, d)]
    assert bulk.int.mod(a, d, ctx=cpu) == [x % y for x, y in zip(a, d)]
    # a dividend much wider than the divisor
    assert bulk.int.mod([1 << 5000, 3 ** 3000], [7, 1 << 70 | 1]) == [(1 << 5000) % 7, 3 ** 3000 % (1 << 70 | 1)]


@pytest.mark.parametrize("bits", [64, 256, 1024])
def test_powmod_invmod(rng, cpu, bits):
    m = [x | 1 for x in operands(rng, 100, bits)]
    base, exp = operands(rng, 100, bits + 7), operands(rng, 100, bits)
    assert bulk.int.powmod(base, exp, m, ctx=cpu) == [pow(b, e, mm) for b, e, mm in zip(base, exp, m)]
    assert bulk.int.powmod(base, 65537, m) == [pow(b, 65537, mm) for b, mm in zip(base, m)]
    p = (1 << 127) - 1  # prime: every nonzero a < p is invertible
    a = [x % p or 1 for x in operands(rng, 100, 126)]
    assert bulk.int.invmod(a, p, ctx=cpu) == [pow(x, -1, p) for x in a]


def test_gmpy2(rng, cpu):
    gmpy2 = pytest.importorskip("gmpy2")
    a, b = operands(rng, 500, 2048), operands(rng, 500, 2048)
    m = [x | 1 for x in b]
    assert bulk.int.mul(a, b, ctx=cpu) == [int(gmpy2.mpz(x) * y) for x, y in zip(a, b)]
    assert bulk.int.powmod(a, b, m, ctx=cpu) == [int(gmpy2.powmod(x, y, z)) for x, y, z in zip(a, b, m)]
    # gmpy2 integers are accepted (__index__)
    assert bulk.int.mul([gmpy2.mpz(3)], [gmpy2.mpz(5)]) == [15]


def test_scalars_and_broadcast(cpu):
    assert bulk.int.mul(3, 5, ctx=cpu) == 15
    assert bulk.int.divmod(17, 5) == (3, 2)
    assert bulk.int.add([1, 2, 3], 10) == [11, 12, 13]
    assert bulk.int.sub(1, 2) == -1
    assert bulk.int.mul([], []) == []


def test_limb_arrays(rng, cpu):
    a, b = operands(rng, 257, 1024), operands(rng, 257, 1024)
    A, B = bulk.int.to_limbs(a, 1024), bulk.int.to_limbs(b, 1024)
    assert A.shape == (257, 16) and A.dtype == np.uint64
    assert bulk.int.from_limbs(A) == a
    P = bulk.int.mul(A, B, ctx=cpu)
    assert P.shape == (257, 32) and bulk.int.from_limbs(P) == [x * y for x, y in zip(a, b)]
    S, c = bulk.int.add(A, B, carry=True)
    assert [x + (int(k) << 1024) for x, k in zip(bulk.int.from_limbs(S), c)] == [x + y for x, y in zip(a, b)]
    D, bw = bulk.int.sub(A, B, carry=True)
    assert list(bw) == [int(x < y) for x, y in zip(a, b)]
    assert bulk.int.from_limbs(bulk.int.sub(A, B)) == [(x - y) % (1 << 1024) for x, y in zip(a, b)]
    d = [x | 1 for x in b]
    Q, R = bulk.int.divmod(P, bulk.int.to_limbs(d, 1024))
    assert Q.shape == (257, 32) and R.shape == (257, 16)
    assert bulk.int.from_limbs(R) == [x * y % z for x, y, z in zip(a, b, d)]
    assert list(bulk.int.cmp(A, B)) == [(x > y) - (x < y) for x, y in zip(a, b)]
    assert bulk.int.from_limbs(np.array([5, 1], dtype=np.uint64)) == 5 + (1 << 64)
    out = np.empty((257, 32), np.uint64)
    assert bulk.int.mul(A, B, out=out) is out and (out == P).all()
    q2, r2 = np.empty_like(Q), np.empty_like(R)
    assert bulk.int.divmod(P, bulk.int.to_limbs(d, 1024), out=(q2, r2)) == (q2, r2)
    assert (q2 == Q).all() and (r2 == R).all()
    with pytest.raises(ValueError, match="out must be"):
        bulk.int.mul(A, B, out=np.empty((257, 16), np.uint64))


def test_chunks(cpu):
    """The list path works in chunks on the CPU: results and error messages span them."""
    n = 20000
    a = list(range(n))
    assert bulk.int.mul(a, a, ctx=cpu) == [x * x for x in a]
    d = [1] * n
    d[n - 3] = 0
    with pytest.raises(ZeroDivisionError, match=f"instance {n - 3}: division by zero"):
        bulk.int.divmod(a, d, ctx=cpu)


def test_bad_input(cpu):
    with pytest.raises(ValueError, match=r"bulk\.int\.mul: item 1: negative"):
        bulk.int.mul([1, -2], [3, 4], ctx=cpu)
    with pytest.raises(ValueError, match="different lengths"):
        bulk.int.add([1, 2], [1, 2, 3])
    with pytest.raises(TypeError, match="item 0: an int is needed"):
        bulk.int.add([1.5], [2])
    with pytest.raises(ZeroDivisionError, match=r"bulk_int_divmod: instance 1: division by zero"):
        bulk.int.divmod([5, 6], [1, 0])
    with pytest.raises(ValueError, match=r"bulk_int_powmod: instance 0: .*odd"):
        bulk.int.powmod([2], [3], [10])
    with pytest.raises(ValueError, match=r"bulk_int_invmod: instance 1: not invertible"):
        bulk.int.invmod([3, 2], [7, 4])
    with pytest.raises(ValueError, match="does not fit 64 bits"):
        bulk.int.to_limbs([1 << 64], 64)
    with pytest.raises(ValueError, match="dtype uint64"):
        bulk.int.mul(np.zeros((2, 2), np.int64), np.zeros((2, 2), np.int64))
    with pytest.raises(ValueError, match="shapes differ"):
        bulk.int.mul(np.zeros((2, 2), np.uint64), np.zeros((2, 3), np.uint64))
    with pytest.raises(TypeError, match="cannot be mixed"):
        bulk.int.mul(np.zeros((2, 2), np.uint64), [1, 2])


def test_device_needs_cuda(cpu):
    with pytest.raises(RuntimeError, match="bulk_int_dev_alloc"):
        bulk.int.to_device([1, 2], ctx=cpu)


def test_device_chain(rng, gpu):
    a, b = operands(rng, 1000, 1024), operands(rng, 1000, 1024)
    m = [x | 1 for x in operands(rng, 1000, 1024)]
    A, B, M = (bulk.int.to_device(x, 1024, ctx=gpu) for x in (a, b, m))
    P = bulk.int.mul(A, B)
    assert P.shape == (1000, 32) and P.tolist() == [x * y for x, y in zip(a, b)]
    E = bulk.int.powmod(A, B, M)
    assert E.tolist() == [pow(x, y, z) for x, y, z in zip(a, b, m)]
    _, R = bulk.int.divmod(P, M)
    assert R.tolist() == [x * y % z for x, y, z in zip(a, b, m)]
    assert bulk.int.gcd(A, B).tolist() == [math.gcd(x, y) for x, y in zip(a, b)]
    assert bulk.int.add(A, B).tolist() == [(x + y) % (1 << 1024) for x, y in zip(a, b)]
    S = bulk.int.add(A, B, out=A)  # in place
    assert S is A and A.tolist() == [(x + y) % (1 << 1024) for x, y in zip(a, b)]
    with pytest.raises(TypeError):
        bulk.int.cmp(A, B)
    with pytest.raises(TypeError, match="cannot be mixed"):
        bulk.int.mul(A, [1])


def test_lists_on_gpu(rng, gpu):
    a, b = operands(rng, 500, 2048), operands(rng, 500, 2048)
    assert bulk.int.mul(a, b, ctx=gpu) == [x * y for x, y in zip(a, b)]
    m = [x | 1 for x in b]
    assert bulk.int.powmod(a, 65537, m, ctx=gpu) == [pow(x, 65537, y) for x, y in zip(a, m)]


def test_help_says_shapes():
    doc = bulk.int.mul.__doc__
    assert "(n, 2*limbs)" in doc and "exact" in doc
