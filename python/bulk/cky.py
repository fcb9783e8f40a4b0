"""Many strings parsed at once with a context-free grammar (bit-parallel CKY; libbulk's
bulk/cky.h). Grammars are written as NLTK writes them::

    S -> NP VP | 'a' S 'b' |
    NP -> 'x'
"""
from __future__ import annotations

import os
from typing import Dict, Iterable, Optional, Sequence, Union

import numpy as np

from . import _bulk
from ._common import Context, ProgressArg, progress_fn, resolve

__all__ = ["Grammar"]

_MODES = {"chars": 0, "tokens": 1}


class Grammar:
    """A grammar from NLTK-style text (the first left-hand side is the start symbol; '#'
    comments; '' derives the empty string). mode "chars": a string is a sequence of bytes (its
    UTF-8 encoding) and a terminal of several bytes stands for that sequence; "tokens": a
    string is a sequence of white-space separated tokens (or a list of tokens), each terminal
    one token (NLTK's view). Malformed grammars raise ValueError naming the line."""

    __slots__ = ("_h", "_mode", "_table", "_tokens")

    def __init__(self, text: Union[str, bytes], mode: str = "chars", name: Optional[str] = None) -> None:
        if mode not in _MODES:
            raise ValueError(f"bulk.cky.Grammar: mode '{mode}': must be chars or tokens")
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        self._h = _bulk.grammar_parse(data, name or "<grammar>", _MODES[mode])
        self._mode = mode
        self._table = None
        self._tokens: Dict[str, int] = {}

    @classmethod
    def from_file(cls, path: Union[str, "os.PathLike[str]"], mode: str = "chars") -> "Grammar":
        with open(path, "rb") as f:
            return cls(f.read(), mode, os.fspath(path))

    @property
    def mode(self) -> str:
        return self._mode

    @property
    def nonterminals(self) -> int:
        """Non-terminals after the conversion to Chomsky normal form."""
        return self._h.sizes["nonterminals"]

    @property
    def accepts_empty(self) -> bool:
        return self._h.sizes["accepts_empty"]

    def _symbols(self, strings: Sequence) -> tuple:
        n = len(strings)
        offsets = np.zeros(n + 1, dtype=np.uintp)
        if self._mode == "chars":
            if self._table is None:
                self._table = np.array([self._h.terminal(bytes([b])) for b in range(256)], dtype=np.int32)
            enc = [s.encode("utf-8") if isinstance(s, str) else bytes(s) for s in strings]
            np.cumsum([len(e) for e in enc], out=offsets[1:])
            syms = self._table[np.frombuffer(b"".join(enc), dtype=np.uint8)]
            return np.ascontiguousarray(syms, dtype=np.int32), offsets
        toks = [s.split() if isinstance(s, str) else list(s) for s in strings]
        np.cumsum([len(t) for t in toks], out=offsets[1:])
        cache = self._tokens
        flat = []
        for t in toks:
            for tok in t:
                i = cache.get(tok)
                if i is None:
                    i = cache[tok] = self._h.terminal(tok.encode("utf-8"))
                flat.append(i)
        return np.array(flat, dtype=np.int32), offsets

    def parse(self, strings: Iterable, *, ctx: Optional[Context] = None,
              progress: ProgressArg = False) -> np.ndarray:
        """A bool array: [i] is True when the grammar derives strings[i] (str or bytes; in
        tokens mode also a list of tokens). A symbol no rule produces rejects its string.
        Progress op "cky.parse"."""
        strings = list(strings)
        syms, offsets = self._symbols(strings)
        accept = np.zeros(len(strings), dtype=np.uint8)
        with progress_fn(progress) as cb:
            self._h.parse(resolve(ctx), syms, offsets, len(strings), accept, cb)
        return accept.astype(bool)
