"""The Collatz map n -> n/2 (even), 3n+1 (odd) on many numbers (libbulk's bulk/collatz.h).

delay(n) = steps to reach 1, glide(n) = steps to first drop below n, peak(n) = the largest
value on the way. Ranges are Python-style: ``start`` included, ``stop`` excluded, 1 <= start
< stop <= 2**128 (ValueError otherwise, with the library's message where it rejects). All
results are exact; numbers whose trajectory leaves 128 bits are finished by an exact path.
"""
from __future__ import annotations

import json
import time
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _bulk
from ._common import Context, ProgressArg, progress_fn, resolve

__all__ = ["delay", "glide", "peak", "exact", "delays", "delay_stats", "verify", "records",
           "VerifyResult", "DelayStats", "Record", "Exact"]

_TOP = 1 << 128


class Exact(NamedTuple):
    delay: int
    glide: int
    peak: int


def exact(n: int) -> Exact:
    """(delay, glide, peak) of one n >= 1 of any size, exactly (no context; one thread)."""
    return Exact(*_bulk.collatz_exact(n))


def delay(n: int) -> int:
    """The delay (total stopping time) of one n >= 1 of any size: steps to reach 1."""
    return _bulk.collatz_exact(n)[0]


def glide(n: int) -> int:
    """Steps until the trajectory of n >= 1 first drops below n (glide(1) = 0)."""
    return _bulk.collatz_exact(n)[1]


def peak(n: int) -> int:
    """The largest value on the trajectory of n >= 1 (peak(1) = 1)."""
    return _bulk.collatz_exact(n)[2]


def _range(start: int, stop: int, what: str) -> Tuple[int, int]:
    start, stop = int(start), int(stop)
    if start < 1:
        raise ValueError(f"{what}: start {start}: must be at least 1")
    if stop <= start:
        raise ValueError(f"{what}: the range [{start}, {stop}) is empty: stop must be above start")
    if stop > _TOP:
        raise ValueError(f"{what}: stop {stop}: the range must end at 2^128 or below")
    return start, stop - 1


def _tables(last: int, d: int, a: int) -> Tuple[int, int]:
    """Table sizes: the CLI's defaults, smaller for short ranges (results never depend on them;
    a delay table larger than the numbers costs time for nothing)."""
    a = min(a, max(d, last.bit_length()))
    return min(d, a), a


def delays(start: int, stop: int, *, dtype: Any = None, ctx: Optional[Context] = None,
           progress: ProgressArg = False) -> np.ndarray:
    """delay(n) for n in [start, stop) as a NumPy array: uint16 when every delay fits, else
    uint32 (or the given dtype, uint16 or uint32). ValueError when a delay
    passes 2^32 - 1. Progress op "collatz.delays"."""
    first, last = _range(start, stop, "bulk.collatz.delays")
    count = last - first + 1
    if count >= 1 << 64:
        raise ValueError("bulk.collatz.delays: at most 2^64 - 1 numbers")
    d, a = _tables(last, 14, 20)
    out = np.empty(count, dtype=np.uint32)
    with progress_fn(progress) as cb:
        _bulk.collatz_delays(resolve(ctx), first, count, out, d, a, cb)
    if dtype is None:
        dtype = np.uint16 if count == 0 or int(out.max()) < 1 << 16 else np.uint32
    dtype = np.dtype(dtype)
    if dtype == np.uint32:
        return out
    if dtype != np.uint16:
        raise ValueError(f"bulk.collatz.delays: dtype {dtype}: must be uint16 or uint32")
    if count and int(out.max()) >= 1 << 16:
        raise ValueError("bulk.collatz.delays: a delay does not fit uint16: use dtype=uint32")
    return out.astype(np.uint16)


class DelayStats(NamedTuple):
    sum: np.ndarray  # uint64, per batch
    min: np.ndarray  # uint32
    max: np.ndarray  # uint32


def delay_stats(start: int, stop: int, batch: int, *, ctx: Optional[Context] = None,
                progress: ProgressArg = False) -> DelayStats:
    """Sum, minimum and maximum delay of every batch [start + i*batch, start + (i+1)*batch) of
    [start, stop); stop - start must be a multiple of batch. Progress op "collatz.delay_stats"."""
    first, last = _range(start, stop, "bulk.collatz.delay_stats")
    count = last - first + 1
    if batch < 1 or count % batch:
        raise ValueError(f"bulk.collatz.delay_stats: batch {batch}: must be >= 1 and divide "
                         f"the range's length {count}")
    nb = count // batch
    d, a = _tables(last, 14, 20)
    s = np.empty(nb, dtype=np.uint64)
    mn = np.empty(nb, dtype=np.uint32)
    mx = np.empty(nb, dtype=np.uint32)
    with progress_fn(progress) as cb:
        _bulk.collatz_delay_stats(resolve(ctx), first, batch, nb, s, mn, mx, d, a, cb)
    return DelayStats(s, mn, mx)


_FIELDS = ("command", "from", "to", "part", "first", "last", "d", "k", "mode", "covered",
           "iterated", "overflows", "overflow_values", "max_glide", "max_glide_n", "checksum",
           "peak", "peak_n", "peak_hits", "seconds", "rate")


class VerifyResult:
    """The result of :func:`verify`: the fields of ``bulk collatz verify --json`` (``keys()``),
    as attributes (``from`` is ``from_``) and items, with Python ints for the numbers (the
    JSON's strings) and None for the glide fields in convergence mode. ``to_json()`` gives the
    CLI's JSON line. Every n of [first, last] was shown to drop below itself."""

    def __init__(self, values: Dict[str, Any]) -> None:
        self._v = values

    def keys(self) -> Tuple[str, ...]:
        return _FIELDS

    def __getitem__(self, key: str) -> Any:
        return self._v[key]

    def __getattr__(self, name: str) -> Any:
        key = "from" if name == "from_" else name
        try:
            return self._v[key]
        except KeyError:
            raise AttributeError(name) from None

    def as_dict(self) -> Dict[str, Any]:
        return dict(self._v)

    def to_json(self) -> str:
        """The JSON line the CLI prints for the same run (numbers as strings, as there)."""
        v = dict(self._v)
        for k in ("first", "last", "covered", "iterated", "max_glide_n", "checksum", "peak",
                  "peak_n"):
            if v[k] is not None:
                v[k] = str(v[k])
        v["overflow_values"] = [str(x) for x in v["overflow_values"]]
        v["peak_hits"] = [[str(n), str(p)] for n, p in v["peak_hits"]]
        v["seconds"] = round(v["seconds"], 3)
        v["rate"] = float(f"{v['rate']:.4g}")
        return json.dumps(v, separators=(",", ":"))

    def __repr__(self) -> str:
        return f"VerifyResult({', '.join(f'{k}={self._v[k]!r}' for k in _FIELDS[4:])})"

    def __iter__(self) -> Iterator[str]:
        return iter(_FIELDS)


def _part(part: Union[None, str, Tuple[int, int]], first: int, last: int) -> Tuple[int, int, int, int]:
    if part is None:
        return first, last, 1, 1
    if isinstance(part, str):
        try:
            i, n = (int(t) for t in part.split("/"))
        except ValueError:
            raise ValueError(f"bulk.collatz.verify: part '{part}': not I/N") from None
    else:
        i, n = part
    if not (1 <= i <= n <= 1 << 32):
        raise ValueError(f"bulk.collatz.verify: part {i}/{n}: must be I/N with 1 <= I <= N <= 2^32")
    length = last - first + 1  # the CLI's slices: [A + floor(L (i-1) / N), A + floor(L i / N))
    lo, hi = first + length * (i - 1) // n, first + length * i // n
    if hi == lo:
        raise ValueError(f"bulk.collatz.verify: part {i}/{n}: this part of the range is empty")
    return lo, hi - 1, i, n


def verify(start: int, stop: int, converge: bool = False,
           part: Union[None, str, Tuple[int, int]] = None, *, d: Optional[int] = None,
           k: Optional[int] = None, k_stored: Optional[int] = None,
           peaks: Optional[bool] = None, peak_above: Optional[int] = None,
           ctx: Optional[Context] = None, progress: ProgressArg = False) -> VerifyResult:
    """Verifies that every n in [start, stop) reaches 1 (each shown to drop below itself), as
    ``bulk collatz verify --from start --to stop [--converge] [--part I/N]``: ``part`` (I, N)
    or "I/N" takes the I-th of N equal slices. d, k, k_stored: table and sieve sizes (None:
    the library's choice for the range and backend). peaks: compute the pre-drop peaks (``peak``,
    ``peak_n``: the largest value before a trajectory first drops below its start, and its
    smallest n; exact at any size); None computes them (on every backend). peak_above V: also
    ``peak_hits``, every (n, pre-drop peak) above V and above that of every smaller n of the
    range (with V the peak of the last path record below the range: the new path records; as
    ``--peak-above``). Returns a :class:`VerifyResult`. Progress op "collatz.verify"."""
    first, last = _range(start, stop, "bulk.collatz.verify")
    first, last, pi, pn = _part(part, first, last)
    t0 = time.perf_counter()
    with progress_fn(progress) as cb:
        r = _bulk.collatz_verify(resolve(ctx), first, last, bool(converge),
                                 -1 if d is None else d, -1 if k is None else k,
                                 -1 if k_stored is None else k_stored,
                                 -1 if peaks is None else int(bool(peaks)), peak_above, cb)
    secs = time.perf_counter() - t0
    v: Dict[str, Any] = {"command": "collatz verify", "from": str(start), "to": str(stop),
                         "part": f"{pi}/{pn}", "first": first, "last": last, "d": r["d"],
                         "k": r["k"], "mode": "converge" if converge else "glides",
                         "covered": r["covered"], "iterated": r["iterated"],
                         "overflows": r["overflows"], "overflow_values": r["overflow_values"],
                         "max_glide": None if converge else r["max_glide"],
                         "max_glide_n": None if converge else r["max_glide_n"],
                         "checksum": None if converge else r["checksum"],
                         "peak": r["peak"], "peak_n": r["peak_n"],
                         "peak_hits": [list(h) for h in r["peak_hits"]],
                         "seconds": secs, "rate": r["covered"] / secs if secs > 0 else 0.0}
    return VerifyResult(v)


class Record(NamedTuple):
    n: int
    value: int


_KINDS = {"delay": 0, "glide": 1, "path": 2, "peak": 2}


def records(kind: str, start: int, stop: int, *, above: Optional[int] = None,
            ctx: Optional[Context] = None, progress: ProgressArg = False) -> List[Record]:
    """The records of [start, stop): every n whose value beats that of every smaller n of the
    range, as ``Record(n, value)``. kind "delay", "glide" or "path" (the peak; "peak" is
    accepted too). above V (path records only, as ``records --above``): every n whose pre-drop
    peak exceeds V and every smaller n's of the range; with V the peak of the last path record
    below start, exactly the path records of the range, at full speed far from 1. The engine and
    run of ``bulk collatz records`` (on a CUDA context path and glide records run in the GPU
    verify). Progress op "collatz.records"."""
    if kind not in _KINDS:
        raise ValueError(f"bulk.collatz.records: kind '{kind}': must be delay, glide or path")
    if above is not None and _KINDS[kind] != 2:
        raise ValueError("bulk.collatz.records: above: applies to path records only")
    first, last = _range(start, stop, "bulk.collatz.records")
    with progress_fn(progress) as cb:
        recs = _bulk.collatz_records(resolve(ctx), _KINDS[kind], first, last, above, cb)
    return [Record(*r) for r in recs]
