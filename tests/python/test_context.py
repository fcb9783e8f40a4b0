"""Contexts, errors and progress."""
import pytest

import bulk


def test_context(cpu):
    assert cpu.backend == "cpu" and cpu.device is None and cpu.threads >= 1
    with bulk.Context("cpu", threads=1) as c:
        assert c.threads == 1 and "threads=1" in repr(c)
    assert c.closed
    with pytest.raises(ValueError, match="closed"):
        bulk.int.mul([1], [2], ctx=c)
    assert bulk.default_context() is bulk.default_context()
    assert isinstance(bulk.__version__, str)


def test_bad_context():
    with pytest.raises(ValueError, match="backend 'gpu'"):
        bulk.Context("gpu")
    with pytest.raises(ValueError, match="threads 0"):
        bulk.Context(threads=0)
    with pytest.raises(ValueError, match="bulk_ctx_set_tune"):
        bulk.Context("cpu", tune="no.such=key")
    with pytest.raises(TypeError, match="bulk.Context"):
        bulk.int.mul([1], [2], ctx="cpu")
    if bulk.cuda_device_count() == 0:
        with pytest.raises(RuntimeError):
            bulk.Context("cuda")
        with pytest.raises(ValueError):
            bulk.Context("cpu", device=0)


def test_progress_callback(cpu):
    calls = []
    bulk.collatz.verify(1, 1 << 22, ctx=cpu, progress=lambda *a: calls.append(a))
    assert calls and calls[0][0] == "collatz.verify" and calls[0][1] == "numbers"
    assert calls[-1][2] == calls[-1][3] == (1 << 22) - 1


def test_progress_cancel_and_raise(cpu):
    with pytest.raises(KeyboardInterrupt):
        bulk.collatz.verify(1, 1 << 24, ctx=cpu, progress=lambda *a: True)

    def boom(*a):
        raise OSError("stop here")

    with pytest.raises(OSError, match="stop here"):
        bulk.collatz.verify(1, 1 << 24, ctx=cpu, progress=boom)
    # the context works after a cancelled call
    assert bulk.collatz.verify(1, 1000, ctx=cpu).covered == 999


def test_progress_bar(cpu, capsys):
    bulk.collatz.verify(1, 1 << 20, ctx=cpu, progress=True)
