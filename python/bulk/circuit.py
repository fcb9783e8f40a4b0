"""A Boolean circuit (an AIGER and-inverter graph) on many input vectors at once, 64 vectors per
machine word (bitwise parallel bulk computation; libbulk's bulk/circuit.h)."""
from __future__ import annotations

import os
from typing import Optional, Union

import numpy as np

from . import _bulk
from ._common import Context, ProgressArg, progress_fn, resolve

__all__ = ["Circuit", "eval"]

Source = Union[str, bytes, "os.PathLike[str]", "Circuit"]


def _load(src: Source):
    if isinstance(src, bytes):
        return _bulk.circuit_parse(src, "<aiger>")
    if isinstance(src, str) and src.lstrip().startswith(("aag ", "aig ")):
        return _bulk.circuit_parse(src.encode("utf-8"), "<aiger>")
    path = os.fspath(src)
    with open(path, "rb") as f:
        return _bulk.circuit_parse(f.read(), path)


class Circuit:
    """A combinational circuit read from AIGER: ASCII (aag) or binary (aig), given as a path, or
    as the file's text (str starting "aag ") or bytes. Malformed files raise ValueError naming
    the line."""

    __slots__ = ("_h",)

    def __init__(self, source: Source) -> None:
        self._h = source._h if isinstance(source, Circuit) else _load(source)

    @property
    def inputs(self) -> int:
        return self._h.sizes["inputs"]

    @property
    def outputs(self) -> int:
        return self._h.sizes["outputs"]

    @property
    def ands(self) -> int:
        return self._h.sizes["ands"]

    @property
    def latches(self) -> int:
        return self._h.sizes["latches"]

    def eval(self, inputs: np.ndarray, *, ctx: Optional[Context] = None,
             progress: ProgressArg = False) -> np.ndarray:
        """Evaluates the circuit on many input vectors.

        * bool (or 0/1 integer) array of shape (V, inputs): one vector per row -> bool array
          (V, outputs); a 1-D array of length ``inputs`` is one vector -> 1-D result.
        * uint64 array of shape (inputs, W): bit-sliced planes (bit b of word w of row j is
          input j of vector 64 w + b) -> uint64 planes (outputs, W), with no conversion.

        A circuit with latches raises RuntimeError (combinational circuits only). Progress op
        "circuit.eval"."""
        a = np.asarray(inputs)
        c = resolve(ctx)
        if a.dtype == np.uint64:
            if a.ndim != 2 or a.shape[0] != self.inputs:
                raise ValueError(f"bulk.circuit.eval: planes must have shape ({self.inputs}, W), not {a.shape}")
            a = np.ascontiguousarray(a)
            out = np.empty((self.outputs, a.shape[1]), dtype=np.uint64)
            with progress_fn(progress) as cb:
                self._h.eval(c, a, out, a.shape[1], cb)
            return out
        one = a.ndim == 1
        if one:
            a = a[None, :]
        if a.ndim != 2 or a.shape[1] != self.inputs:
            raise ValueError(f"bulk.circuit.eval: inputs must have shape (V, {self.inputs}), not {np.asarray(inputs).shape}")
        v = a.shape[0]
        nw = max(1, (v + 63) // 64)
        bits = np.zeros((self.inputs, nw * 64), dtype=bool)
        bits[:, :v] = (a != 0).T
        planes = np.packbits(bits, axis=1, bitorder="little").view("<u8").reshape(self.inputs, nw)
        out = np.empty((self.outputs, nw), dtype=np.uint64)
        with progress_fn(progress) as cb:
            self._h.eval(c, np.ascontiguousarray(planes), out, nw, cb)
        res = np.unpackbits(out.view(np.uint8).reshape(self.outputs, nw * 8), axis=1,
                            bitorder="little")[:, :v].T.astype(bool)
        return res[0] if one else res


def eval(aiger: Source, inputs: np.ndarray, *, ctx: Optional[Context] = None,  # noqa: A001
         progress: ProgressArg = False) -> np.ndarray:
    """``Circuit(aiger).eval(inputs)``: aiger is a path, AIGER text or bytes, or a Circuit."""
    return Circuit(aiger).eval(inputs, ctx=ctx, progress=progress)
