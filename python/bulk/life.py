"""Life-like cellular automata on bit-packed universes (libbulk's bulk/life.h).

A :class:`Universe` is an unbounded plane (the default) or a W x H torus, under an
outer-totalistic rule in B/S notation ("B3/S23", Conway's, by default; "B36/S23", ...).
Coordinates: x grows to the right, y downwards; arrays are indexed ``[y, x]``.
"""
from __future__ import annotations

import os
from typing import Optional, Tuple, Union

import numpy as np

from . import _bulk
from ._common import Context, ProgressArg, progress_fn, resolve

__all__ = ["Universe", "pack", "unpack"]

Torus = Union[None, bool, Tuple[int, int]]


def pack(cells: np.ndarray) -> np.ndarray:
    """2-D bool array (h, w) -> uint64 array (h, ceil(w / 64)), bulk/life.h's row layout (bit i
    of word j of row y is cell (64 j + i, y))."""
    a = np.asarray(cells, dtype=bool)
    if a.ndim != 2:
        raise ValueError(f"bulk.life: cells must be a 2-D array, not shape {a.shape}")
    h, w = a.shape
    words = (w + 63) // 64
    padded = np.zeros((h, words * 64), dtype=bool)
    padded[:, :w] = a
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").reshape(h, words)


def unpack(words: Union[bytes, np.ndarray], width: int, height: int) -> np.ndarray:
    """The inverse of :func:`pack`: bool array (height, width)."""
    nw = (width + 63) // 64
    a = np.frombuffer(words, dtype="<u8").reshape(height, nw) if isinstance(words, bytes) else words
    bits = np.unpackbits(np.ascontiguousarray(a).view(np.uint8).reshape(height, nw * 8), axis=1,
                         bitorder="little")
    return bits[:, :width].astype(bool)


def _torus(torus: Torus) -> Tuple[bool, int, int]:
    if torus is None or torus is False:
        return False, 0, 0
    if torus is True:
        return True, 0, 0
    w, h = torus
    if w < 1 or h < 1:
        raise ValueError(f"bulk.life: torus {w}x{h}: both sides must be at least 1")
    return True, int(w), int(h)


class Universe:
    """A Life-like universe. Make one with :meth:`from_rle` or :meth:`from_array`.

    rule: B/S text (None: the RLE file's rule, else Conway's B3/S23). torus: None/False for the
    unbounded plane, True for a torus the size of the pattern (its RLE frame or the array), or
    (width, height). max_memory (bytes, 0: no limit) and tmp_dir let a large universe stream
    from disk. Bad RLE or rules raise ValueError with the library's message (line and column);
    a pattern larger than the torus raises ValueError."""

    __slots__ = ("_h",)

    def __init__(self, handle: object) -> None:
        self._h = handle

    @classmethod
    def from_rle(cls, text: str, *, rule: Optional[str] = None, torus: Torus = None,
                 max_memory: int = 0, tmp_dir: Optional[str] = None,
                 ctx: Optional[Context] = None) -> "Universe":
        """A universe from RLE text (or plain text: '.' dead, 'O'/'*' alive), placed at the
        file's coordinates (#CXRLE Pos) on the plane, or with its frame at (0, 0) of a torus."""
        t, tw, th = _torus(torus)
        return cls(_bulk.life_new(resolve(ctx), text, None, 0, 0, 0, 0, rule, t, tw, th,
                                  max_memory, tmp_dir))

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"], **kw) -> "Universe":
        """:meth:`from_rle` of a file's text."""
        with open(path, encoding="utf-8") as f:
            return cls.from_rle(f.read(), **kw)

    @classmethod
    def from_array(cls, cells: np.ndarray, *, rule: Optional[str] = None, torus: Torus = None,
                   x: int = 0, y: int = 0, max_memory: int = 0, tmp_dir: Optional[str] = None,
                   ctx: Optional[Context] = None) -> "Universe":
        """A universe from a 2-D bool array (h, w) (nonzero = alive) with cell [0, 0] at (x, y)
        of the plane, or at (0, 0) of the torus (torus=True: a torus of shape (h, w))."""
        a = np.asarray(cells)
        if a.ndim != 2:
            raise ValueError(f"bulk.life.Universe.from_array: a 2-D array is needed, not shape {a.shape}")
        t, tw, th = _torus(torus)
        h, w = a.shape
        if t and tw == 0:
            tw, th = w, h
        return cls(_bulk.life_new(resolve(ctx), None, pack(a != 0), w, h, x, y, rule, t, tw, th,
                                  max_memory, tmp_dir))

    def step(self, n: int = 1, *, progress: ProgressArg = False) -> "Universe":
        """Advances n generations (returns self). Progress op "life.run"."""
        if n < 0:
            raise ValueError(f"bulk.life.Universe.step: n {n}: must be >= 0")
        with progress_fn(progress) as cb:
            self._h.step(n, cb)
        return self

    @property
    def population(self) -> int:
        """Live cells."""
        return self._h.population()

    @property
    def generation(self) -> int:
        """Generations computed since the start (plus the RLE file's #CXRLE Gen)."""
        return self._h.generation()

    @property
    def rule(self) -> str:
        """The rule, "B<digits>/S<digits>"."""
        return self._h.rule

    @property
    def torus(self) -> Optional[Tuple[int, int]]:
        """(width, height) of the torus, None on the plane."""
        return self._h.torus

    @property
    def bbox(self) -> Tuple[int, int, int, int]:
        """(x, y, width, height) of the live cells' bounding box ((x, y, 0, 0) when none)."""
        x, y, w, h, _ = self._h.cells()
        return x, y, w, h

    def to_array(self) -> np.ndarray:
        """The cells as a bool array [y, x]: the whole torus, or on the plane the live cells'
        bounding box (its top-left cell is :attr:`bbox`'s (x, y))."""
        t = self.torus
        if t is not None:
            return self.region(0, 0, t[0], t[1])
        x, y, w, h, words = self._h.cells()
        return unpack(words, w, h)

    def region(self, x: int, y: int, width: int, height: int) -> np.ndarray:
        """The rectangle [x, x + width) x [y, y + height) as a bool array (torus coordinates
        wrap)."""
        _, _, w, h, words = self._h.cells(x, y, width, height)
        return unpack(words, w, h)

    def to_rle(self) -> str:
        """The live cells as RLE the way Golly writes it (#CXRLE Pos and Gen, the rule)."""
        return self._h.to_rle()

    def __repr__(self) -> str:
        where = "plane" if self.torus is None else f"torus {self.torus[0]}x{self.torus[1]}"
        return (f"<bulk.life.Universe {self.rule} {where} generation {self.generation} "
                f"population {self.population}>")
