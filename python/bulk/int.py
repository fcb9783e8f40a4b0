"""Bulk unsigned integer arithmetic (libbulk's bulk/int.h) on many numbers at once.

Three ways to pass numbers, which every function accepts:

* **Python ints** in lists or tuples (one int alone is repeated to the others' length; all
  ints gives one int back). The width is chosen per call: the smallest multiple of 64 bits
  that holds every operand, so results are **exact** Python ints (``add`` carries, ``sub``
  returns negative differences where ``a < b``, ``mul`` gives the full product).
* **limb arrays**: ``numpy.ndarray`` of ``uint64`` with shape ``(n, limbs)``, one number per
  row, least significant limb first (``to_limbs`` / ``from_limbs`` convert). Results are
  arrays of the widths of the C API (``add``/``sub`` wrap modulo ``2**(64*limbs)``, with
  ``carry=True`` giving the carries). No Python object per number is made; ``out=`` (an array,
  or a tuple for two results) reuses the caller's result arrays.
* **DeviceArray** (``to_device``): numbers kept in GPU memory on a CUDA context, so that a
  chain of operations does not copy; ``.to_numpy()`` / ``.tolist()`` bring results back.

Values are unsigned: a negative int raises ValueError. Operands of different lengths raise
ValueError. Division by zero raises ZeroDivisionError, ``invmod`` without an inverse and
``powmod`` with an even modulus raise ValueError, each naming the lowest failing instance.
Work runs on the context's threads or GPU with the GIL released; results never depend on the
backend or the thread count.
"""
from __future__ import annotations

import builtins
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _bulk
from ._common import Context, resolve

__all__ = ["add", "sub", "mul", "sqr", "divmod", "mod", "gcd", "invmod", "powmod", "cmp",
           "to_limbs", "from_limbs", "to_device", "DeviceArray"]

Ints = Union[Sequence[builtins.int], builtins.int]
Operand = Union[Ints, np.ndarray, "DeviceArray"]


class DeviceArray:
    """``n`` numbers of ``limbs`` 64-bit limbs in GPU memory (bulk/int_device.h), made with
    :func:`to_device` on a CUDA context. The bulk.int functions given DeviceArrays return
    DeviceArrays of the widths of the limb-array path and queue their work on the GPU in
    order, without copies; ``to_numpy()`` and ``tolist()`` wait for it and copy back.
    ``invmod`` and ``cmp`` have no device-resident form (TypeError). ``out=`` takes a
    DeviceArray of the result's shape (``add``/``sub`` may write into an operand)."""

    __slots__ = ("_h",)

    def __init__(self, handle: object) -> None:
        self._h = handle

    @property
    def shape(self) -> Tuple[builtins.int, builtins.int]:
        return (self._h.n, self._h.limbs)

    @property
    def n(self) -> builtins.int:
        return self._h.n

    @property
    def limbs(self) -> builtins.int:
        return self._h.limbs

    @property
    def ctx(self) -> Context:
        return self._h.ctx

    def __len__(self) -> builtins.int:
        return self._h.n

    def __repr__(self) -> str:
        return f"<bulk.int.DeviceArray n={self.n} limbs={self.limbs}>"

    def to_numpy(self) -> np.ndarray:
        """The numbers as a uint64 array of shape (n, limbs)."""
        out = np.empty(self.shape, dtype=np.uint64)
        self._h.download(out)
        return out

    def tolist(self) -> List[builtins.int]:
        """The numbers as Python ints."""
        return from_limbs(self.to_numpy())

    def sync(self) -> None:
        """Waits for the queued work of the array's context; raises if a kernel failed."""
        _bulk.dev_op(self.ctx, "sync", None, None, None, None, None)


def _empty_dev(ctx: Context, n: builtins.int, limbs: builtins.int) -> DeviceArray:
    return DeviceArray(_bulk.dev_empty(ctx, n, limbs))


def to_limbs(seq: Ints, bits: Optional[builtins.int] = None) -> np.ndarray:
    """Python ints -> uint64 array of shape (len(seq), ceil(bits / 64)), least significant limb
    first. ``bits`` None: the smallest multiple of 64 that holds the largest value. ValueError
    for a negative value or one that does not fit ``bits``. Converted in C (no Python loop)."""
    if bits is None:
        bits = _bulk.int_max_bits(seq)
    if bits < 0:
        raise ValueError(f"bulk.int.to_limbs: bits {bits}: must be >= 0")
    limbs = max(1, (bits + 63) // 64)
    n = 1 if isinstance(seq, builtins.int) else len(seq)
    out = np.empty((n, limbs), dtype=np.uint64)
    _bulk.int_to_limbs(seq, limbs, out)
    return out


def from_limbs(arr: np.ndarray) -> Union[List[builtins.int], builtins.int]:
    """uint64 array of shape (n, limbs) -> list of n Python ints (a 1-D array is one number ->
    one int). Converted in C."""
    a = _limb_array(arr, "bulk.int.from_limbs", ndim=(1, 2))
    if a.ndim == 1:
        return _bulk.int_from_limbs(a, 1, a.shape[0])[0]
    return _bulk.int_from_limbs(a, a.shape[0], a.shape[1])


def to_device(x: Union[Ints, np.ndarray], bits: Optional[builtins.int] = None, *,
              ctx: Optional[Context] = None) -> DeviceArray:
    """Copies numbers to GPU memory: a uint64 limb array (n, limbs) as it is, or Python ints
    converted with ``to_limbs(x, bits)``. Needs a CUDA context (RuntimeError otherwise)."""
    c = resolve(ctx)
    a = x if isinstance(x, np.ndarray) else to_limbs(x, bits)
    a = _limb_array(a, "bulk.int.to_device")
    return DeviceArray(_bulk.dev_upload(c, a, a.shape[0], a.shape[1]))


def _limb_array(a: np.ndarray, what: str, ndim=(2,)) -> np.ndarray:
    if a.dtype != np.uint64:
        raise ValueError(f"{what}: limb arrays must have dtype uint64, not {a.dtype}")
    if a.ndim not in ndim:
        raise ValueError(f"{what}: limb arrays must have shape (n, limbs), not {a.shape}")
    if a.ndim == 2 and a.shape[1] < 1:
        raise ValueError(f"{what}: limb arrays need at least one limb per number")
    return np.ascontiguousarray(a)


_OUT_WIDTH = {"mul": 2, "sqr": 2}


def _run(op: str, args: Tuple, ctx: Optional[Context], carry: bool = False, out=None):
    if any(isinstance(x, DeviceArray) for x in args):
        return _run_dev(op, args, ctx, out)
    if any(isinstance(x, np.ndarray) for x in args):
        return _run_array(op, args, ctx, carry, out)
    if out is not None:
        raise ValueError(f"bulk.int.{op}: out= is for limb arrays (Python ints get new lists)")
    c = resolve(ctx)
    scalar = all(isinstance(x, builtins.int) or (hasattr(x, "__index__") and not hasattr(x, "__len__"))
                 for x in args)
    r = _bulk.int_list(c, op, *args)
    if carry and op in ("add", "sub"):
        raise ValueError(f"bulk.int.{op}: carry=True is for limb arrays (Python ints are exact)")
    if scalar:
        return (r[0][0], r[1][0]) if op == "divmod" else r[0]
    return r


def _out(out, shape, dtype, what: str) -> np.ndarray:
    """A caller's output array (reused: no fresh pages per call), or a new one."""
    if out is None:
        return np.empty(shape, dtype=dtype)
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != dtype or \
            not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"{what}: out must be a writable C-contiguous {np.dtype(dtype).name} "
                         f"array of shape {shape}")
    return out


def _run_array(op: str, args: Tuple, ctx: Optional[Context], carry: bool, out=None):
    what = f"bulk.int.{op}"
    if not all(isinstance(x, np.ndarray) for x in args):
        raise TypeError(f"{what}: limb arrays cannot be mixed with Python ints (use to_limbs)")
    arrs = [_limb_array(x, what) for x in args]
    n, la = arrs[0].shape
    limbs = arrs[1].shape[1] if op in ("divmod", "mod") else la
    for x in arrs[1:]:
        if x.shape != (n, limbs):
            raise ValueError(f"{what}: operand shapes differ: {arrs[0].shape} and {x.shape}")
    if op in ("divmod", "mod") and la not in (limbs, 2 * limbs):
        raise ValueError(f"{what}: the dividend has {la} limbs: must be the divisor's {limbs} or twice that")
    c = resolve(ctx)
    r2 = None
    o1, o2 = out if isinstance(out, tuple) else (out, None)
    if op == "cmp":
        r = _out(o1, (n,), np.int8, what)
    elif op == "divmod":
        r, r2 = _out(o1, (n, la), np.uint64, what), _out(o2, (n, limbs), np.uint64, what)
    else:
        r = _out(o1, (n, _OUT_WIDTH.get(op, 1) * limbs), np.uint64, what)
        if carry and op in ("add", "sub"):
            r2 = _out(o2, (n,), np.uint8, what)
        elif carry:
            raise ValueError(f"{what}: carry=True is for add and sub")
    _bulk.int_array(c, op, (r, r2), tuple(arrs), n, limbs, la)
    if op == "divmod" or r2 is not None:
        return r, r2
    return r


_DEV_OPS = ("add", "sub", "mul", "sqr", "divmod", "mod", "gcd", "powmod")


def _dev_out(out, c: Context, n: builtins.int, limbs: builtins.int, what: str) -> DeviceArray:
    if out is None:
        return _empty_dev(c, n, limbs)
    if not isinstance(out, DeviceArray) or out.shape != (n, limbs):
        raise ValueError(f"{what}: out must be a DeviceArray of shape {(n, limbs)}")
    return out


def _run_dev(op: str, args: Tuple, ctx: Optional[Context], out=None):
    what = f"bulk.int.{op}"
    if not all(isinstance(x, DeviceArray) for x in args):
        raise TypeError(f"{what}: DeviceArrays cannot be mixed with host numbers (use to_device)")
    if op not in _DEV_OPS:
        raise TypeError(f"{what}: no device-resident form (bring the numbers back with to_numpy())")
    c = args[0].ctx if ctx is None else resolve(ctx)
    n, la = args[0].shape
    limbs = args[1].limbs if op in ("divmod", "mod") else la
    h = [x._h for x in args] + [None] * (3 - len(args))
    o1, o2 = out if isinstance(out, tuple) else (out, None)
    if op == "divmod":
        q, r = _dev_out(o1, c, n, la, what), _dev_out(o2, c, n, limbs, what)
        _bulk.dev_op(c, op, q._h, r._h, *h)
        return q, r
    r = _dev_out(o1, c, n, _OUT_WIDTH.get(op, 1) * limbs, what)
    _bulk.dev_op(c, op, r._h, None, *h)
    return r


def add(a: Operand, b: Operand, *, carry: bool = False, out=None, ctx: Optional[Context] = None):
    """a + b for every instance.

    Python ints: exact sums (list of ints). Limb arrays (n, limbs) uint64, both the same shape:
    (n, limbs) array of the sums modulo 2**(64*limbs); ``carry=True`` returns (sums, carries)
    with carries a uint8 array (n,). DeviceArrays: a DeviceArray (n, limbs), modulo as arrays."""
    return _run("add", (a, b), ctx, carry, out)


def sub(a: Operand, b: Operand, *, carry: bool = False, out=None, ctx: Optional[Context] = None):
    """a - b for every instance.

    Python ints: exact differences (negative where a < b). Limb arrays (n, limbs): differences
    modulo 2**(64*limbs); ``carry=True`` returns (differences, borrows) with borrow 1 where
    a < b. DeviceArrays: a DeviceArray (n, limbs)."""
    return _run("sub", (a, b), ctx, carry, out)


def mul(a: Operand, b: Operand, *, out=None, ctx: Optional[Context] = None):
    """a * b for every instance, the full (exact) product.

    Widths: W = 64 * limbs bits per operand, 1 <= limbs <= 2**20; the product has 2W bits, so
    nothing is lost. Python ints: the width is the smallest that holds the widest operand;
    returns the list of the products. Limb arrays: a and b (n, limbs) uint64 -> (n, 2*limbs)
    uint64 (``out=`` an array of that shape to reuse). DeviceArrays: a DeviceArray (n, 2*limbs). Schoolbook, Comba, Karatsuba or Toom-k
    by size (bulk/int.h); the result never depends on the method or the backend."""
    return _run("mul", (a, b), ctx, out=out)


def sqr(a: Operand, *, out=None, ctx: Optional[Context] = None):
    """a * a for every instance, exact. Limb arrays (n, limbs) -> (n, 2*limbs)."""
    return _run("sqr", (a,), ctx, out=out)


def divmod(a: Operand, d: Operand, *, out=None, ctx: Optional[Context] = None):  # noqa: A001
    """(a // d, a % d) for every instance, exact.

    Python ints: a tuple of two lists (quotients, remainders). Limb arrays: a (n, la) and d
    (n, limbs) with la = limbs or 2*limbs -> (q (n, la), r (n, limbs)). A zero divisor raises
    ZeroDivisionError naming the lowest such instance."""
    return _run("divmod", (a, d), ctx, out=out)


def mod(a: Operand, m: Operand, *, out=None, ctx: Optional[Context] = None):
    """a % m for every instance (shapes as :func:`divmod`, the remainders only)."""
    return _run("mod", (a, m), ctx, out=out)


def gcd(a: Operand, b: Operand, *, out=None, ctx: Optional[Context] = None):
    """gcd(a, b) for every instance (gcd(0, 0) = 0). Limb arrays (n, limbs) -> (n, limbs)."""
    return _run("gcd", (a, b), ctx, out=out)


def invmod(a: Operand, m: Operand, *, out=None, ctx: Optional[Context] = None):
    """a**-1 mod m (0 <= r < m) for every instance; m = 1 gives 0. ValueError when some
    gcd(a, m) != 1, ZeroDivisionError when some m = 0 (the lowest instance is named).
    Limb arrays (n, limbs) -> (n, limbs). Host only (no DeviceArray form)."""
    return _run("invmod", (a, m), ctx, out=out)


def powmod(base: Operand, exp: Operand, m: Operand, *, out=None, ctx: Optional[Context] = None):
    """base**exp mod m for every instance, for odd m (Montgomery multiplication, sliding
    window); base may exceed m; m = 1 gives 0. An even or zero m raises ValueError naming the
    lowest such instance (Python's pow takes any m > 0). One int for any argument is used for
    every instance, e.g. ``powmod(xs, 65537, n)``. Limb arrays: all three (n, limbs) -> (n, limbs)."""
    return _run("powmod", (base, exp, m), ctx, out=out)


def cmp(a: Operand, b: Operand, *, out=None, ctx: Optional[Context] = None):
    """-1, 0 or 1 as a < b, a == b, a > b for every instance: a list of ints, or for limb arrays
    an int8 array (n,). Host only."""
    return _run("cmp", (a, b), ctx, out=out)
