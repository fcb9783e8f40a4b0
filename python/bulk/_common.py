"""Shared plumbing of the bulk package: the default context and progress reporting."""
from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, Optional, Union

from . import _bulk

Context = _bulk.Context

_default: Optional[Context] = None
_default_lock = threading.Lock()

ProgressArg = Union[bool, None, Callable[[str, str, float, float], object]]


def default_context() -> Context:
    """The context every function uses when given no ``ctx=``: ``Context()`` (backend "auto"),
    opened on first use. Calls on it from several threads take turns."""
    global _default
    with _default_lock:
        if _default is None or _default.closed:
            _default = Context()
        return _default


def set_default_context(ctx: Optional[Context]) -> None:
    """Makes ``ctx`` the default context (None: a fresh ``Context()`` on next use)."""
    global _default
    if ctx is not None and not isinstance(ctx, Context):
        raise TypeError("set_default_context: a bulk.Context is needed")
    with _default_lock:
        _default = ctx


def resolve(ctx: Optional[Context]) -> Context:
    if ctx is None:
        return default_context()
    if not isinstance(ctx, Context):
        raise TypeError(f"ctx must be a bulk.Context, not {type(ctx).__name__}")
    return ctx


class _Bar:
    """progress=True: a tqdm bar per operation when tqdm is installed, else one line on
    stderr that is rewritten in place."""

    def __init__(self) -> None:
        try:
            from tqdm.auto import tqdm  # type: ignore
        except ImportError:  # pragma: no cover - depends on the environment
            tqdm = None
        self._tqdm = tqdm
        self._bar = None
        self._op = None

    def __call__(self, op: str, unit: str, done: float, total: float) -> bool:
        if self._op != op:
            self.close()
            self._op = op
            if self._tqdm is not None:
                self._bar = self._tqdm(total=total or None, desc=op, unit=unit, unit_scale=True)
        if self._bar is not None:
            self._bar.n = done
            self._bar.refresh()
        else:
            pct = f" {100 * done / total:5.1f}%" if total else ""
            sys.stderr.write(f"\r{op}: {done:.0f}/{total:.0f} {unit}{pct}")
            sys.stderr.flush()
        return False

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._op is not None:
            sys.stderr.write("\n")
        self._op = None


@contextmanager
def progress_fn(progress: ProgressArg) -> Iterator[Optional[Callable]]:
    """The callable handed to the library for ``progress``: None/False none, True a bar
    (tqdm when installed), a callable ``f(op, unit, done, total)`` itself (a true result
    cancels the call, which then raises KeyboardInterrupt; an exception it raises cancels the
    call and is re-raised)."""
    if progress is None or progress is False:
        yield None
    elif progress is True:
        bar = _Bar()
        try:
            yield bar
        finally:
            bar.close()
    elif callable(progress):
        yield progress
    else:
        raise TypeError("progress must be True, False, None or a callable(op, unit, done, total)")
