"""Every area on a CUDA context gives the CPU's results (skips without a device)."""
import numpy as np

import bulk
from test_bpbc import ARITH, adder_aag


def test_collatz_gpu(gpu, cpu):
    for conv in (False, True):
        g = bulk.collatz.verify(1, 1 << 24, converge=conv, ctx=gpu)
        c = bulk.collatz.verify(1, 1 << 24, converge=conv, ctx=cpu)
        assert (g.covered, g.checksum, g.max_glide, g.max_glide_n) == \
            (c.covered, c.checksum, c.max_glide, c.max_glide_n)
    assert (bulk.collatz.delays(1, 1 << 20, ctx=gpu) == bulk.collatz.delays(1, 1 << 20, ctx=cpu)).all()


def test_life_gpu(gpu, cpu, rng):
    a = np.random.default_rng(rng.getrandbits(32)).random((300, 500)) < 0.3
    g = bulk.life.Universe.from_array(a, torus=True, ctx=gpu).step(50)
    c = bulk.life.Universe.from_array(a, torus=True, ctx=cpu).step(50)
    assert (g.to_array() == c.to_array()).all()


def test_gcd_gpu(gpu, cpu, rng):
    xs = [rng.getrandbits(512) | 1 for _ in range(300)]
    xs[5] *= 1009
    xs[9] *= 1009
    assert bulk.gcd.pairs(xs, ctx=gpu) == bulk.gcd.pairs(xs, ctx=cpu)
    assert bulk.gcd.batch(xs, ctx=gpu) == bulk.gcd.batch(xs, ctx=cpu)


def test_bpbc_gpu(gpu, cpu, rng):
    x = np.random.default_rng(rng.getrandbits(32)).random((5000, 16)) < 0.5
    text = adder_aag(8)
    assert (bulk.circuit.eval(text, x, ctx=gpu) == bulk.circuit.eval(text, x, ctx=cpu)).all()
    g = bulk.cky.Grammar(ARITH, mode="tokens")
    s = [" ".join(rng.choice("xy+*()") for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    assert (g.parse(s, ctx=gpu) == g.parse(s, ctx=cpu)).all()
