"""Shared factors of many large integers (libbulk's bulk/gcd.h): RSA moduli that share a prime.

``pairs`` computes gcd(x_i, x_j) of every pair (quadratic; fine up to some 10^5 moduli on a
GPU); ``batch`` is Bernstein's batch GCD (product and remainder trees, quasi-linear, spilling
to disk beyond a memory budget). ``read_keys`` reads moduli from text, PEM or DER files.
Moduli are Python ints >= 2 (or a uint64 limb array (n, limbs)); a modulus below 2 raises
ValueError with the library's message naming its index.
"""
from __future__ import annotations

import math
import os
from typing import List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _bulk
from ._common import Context, ProgressArg, progress_fn, resolve
from .int import _limb_array, from_limbs, to_limbs

__all__ = ["pairs", "batch", "read_keys", "Pair"]


class Pair(NamedTuple):
    i: int  # index of the first modulus (i < j)
    j: int
    gcd: int  # their common factor (> 1)


def _moduli(moduli: Union[Sequence[int], np.ndarray], what: str) -> np.ndarray:
    if isinstance(moduli, np.ndarray):
        return _limb_array(moduli, what)
    return to_limbs(list(moduli))


def pairs(moduli: Union[Sequence[int], np.ndarray], *, tile: int = 0,
          ctx: Optional[Context] = None, progress: ProgressArg = False) -> List[Pair]:
    """Every pair (i, j), i < j, with gcd(moduli[i], moduli[j]) != 1, in increasing order, as
    ``Pair(i, j, gcd)``. Equal moduli share themselves. ``tile``: moduli per side of a tile
    (0: the library's choice). Progress op "gcd.pairs"."""
    x = _moduli(moduli, "bulk.gcd.pairs")
    with progress_fn(progress) as cb:
        hits = _bulk.gcd_pairs(resolve(ctx), x, x.shape[0], x.shape[1], tile, cb)
    return [Pair(*h) for h in hits]


def batch(moduli: Union[Sequence[int], np.ndarray], max_memory: Optional[float] = None,
          spill_dir: Optional[str] = None, *, ctx: Optional[Context] = None,
          progress: ProgressArg = False, stats: Optional[dict] = None):
    """g_i = gcd(moduli[i], product of the others) for every i (batch GCD): 1 where modulus i
    shares nothing, a prime factor (or the modulus itself, when both of its primes are shared
    or it appears twice) otherwise. A list of ints (a uint64 array (n, limbs) for array input).

    max_memory: bytes the trees may take (None: half the physical memory; math.inf: no limit);
    levels beyond it are spilled to files in spill_dir (None: $TMPDIR or /tmp), unlinked at
    once. ``stats``, a dict, receives the run's statistics (levels, spilled, ...).
    Progress op "gcd.batch"."""
    x = _moduli(moduli, "bulk.gcd.batch")
    if max_memory is None:
        mm = 0
    elif max_memory == math.inf:
        mm = (1 << 64) - 1
    else:
        mm = int(max_memory)
        if mm < 1:
            raise ValueError(f"bulk.gcd.batch: max_memory {max_memory}: must be at least 1 byte")
    g = np.empty_like(x)
    with progress_fn(progress) as cb:
        s = _bulk.gcd_batch(resolve(ctx), x, g, x.shape[0], x.shape[1], mm,
                            None if spill_dir is None else os.fspath(spill_dir), cb)
    if stats is not None:
        stats.update(s)
    return g if isinstance(moduli, np.ndarray) else from_limbs(g)


_FORMATS = {"text": 0, "pem": 1, "der": 2}


def _guess(data: bytes) -> str:
    if b"-----BEGIN" in data:
        return "pem"
    if data[:1] == b"\x30" and not data[:64].strip().isascii():
        return "der"
    return "text"


def read_keys(path: Union[str, "os.PathLike[str]"], format: Optional[str] = None, *,
              sources: bool = False) -> Union[List[int], Tuple[List[int], List[Tuple[str, int]]]]:
    """The moduli in a file, or in every regular file of a directory (sorted by name, hidden
    files skipped): text (one decimal or 0x-hex integer per line), PEM (PUBLIC KEY, RSA PUBLIC
    KEY, CERTIFICATE blocks) or DER (one key per file). ``format`` "text", "pem", "der" or None
    (guessed per file). ValueError naming file and line for malformed input; PEM/DER need a
    library built with OpenSSL (RuntimeError otherwise). ``sources=True`` also returns
    (file, line) of every modulus."""
    p = os.fspath(path)
    files = [p]
    if os.path.isdir(p):
        files = sorted(os.path.join(p, f) for f in os.listdir(p)
                       if not f.startswith(".") and os.path.isfile(os.path.join(p, f)))
    if format is not None and format not in _FORMATS:
        raise ValueError(f"bulk.gcd.read_keys: format '{format}': must be text, pem or der")
    moduli: List[int] = []
    where: List[Tuple[str, int]] = []
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        xs, lines = _bulk.gcd_read(data, _FORMATS[format or _guess(data)], f)
        moduli += xs
        where += [(f, ln) for ln in lines]
    return (moduli, where) if sources else moduli
