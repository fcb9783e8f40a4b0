"""bulk: the same computation on millions of instances at once, on the GPU when there is one
and on all CPU cores otherwise.

Areas (each a module):
    bulk.int      add, sub, mul, sqr, divmod, mod, gcd, invmod, powmod, cmp on many big integers
    bulk.gcd      shared factors of many moduli (all pairs, batch GCD), key readers
    bulk.collatz  delays, verification of ranges, records
    bulk.life     Life-like cellular automata
    bulk.circuit  a Boolean circuit (AIGER) on many input vectors
    bulk.cky      many strings parsed with a context-free grammar

Every function takes ``ctx=`` (a :class:`Context`); without it :func:`default_context` serves.
Errors raise ValueError (bad input), ZeroDivisionError, MemoryError or RuntimeError (run-time
failures such as a missing GPU) carrying the library's message. docs/python.md has examples.
"""
from ._bulk import Context, cuda_device_count, version as _version
from ._common import default_context, set_default_context
from . import int, gcd, collatz, life, circuit, cky  # noqa: A004 - bulk.int is the module's name

__version__ = _version()
__all__ = ["Context", "default_context", "set_default_context", "cuda_device_count",
           "int", "gcd", "collatz", "life", "circuit", "cky"]
