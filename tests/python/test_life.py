"""bulk.life against a NumPy Life step."""
import numpy as np
import pytest

import bulk


def np_step(a, torus, birth=(3,), survive=(2, 3)):
    if not torus:
        a = np.pad(a, 1)
    n = sum(np.roll(np.roll(a, dy, 0), dx, 1) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
            if (dy, dx) != (0, 0)).astype(int)
    b = np.isin(n, birth) & ~a | np.isin(n, survive) & a
    return b


@pytest.mark.parametrize("rule,birth,survive", [("B3/S23", (3,), (2, 3)), ("B36/S23", (3, 6), (2, 3))])
def test_torus_soup(rng, cpu, rule, birth, survive):
    seed = rng.getrandbits(32)
    a = np.random.default_rng(seed).random((37, 131)) < 0.35
    u = bulk.life.Universe.from_array(a, torus=True, rule=rule, ctx=cpu)
    assert u.torus == (131, 37) and u.rule == rule
    for _ in range(5):
        a = np_step(a, True, birth, survive)
    u.step(5)
    assert (u.to_array() == a).all() and u.population == a.sum() and u.generation == 5


def test_plane(rng, cpu):
    a = np.random.default_rng(rng.getrandbits(32)).random((20, 30)) < 0.4
    u = bulk.life.Universe.from_array(a, x=-5, y=7, ctx=cpu)
    b = np_step(a, False)  # grows by one cell on each side
    u.step(1)
    ys, xs = np.nonzero(b)
    x, y, w, h = u.bbox
    assert (x, y) == (xs.min() - 1 - 5, ys.min() - 1 + 7)
    assert (u.to_array() == b[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]).all()


def test_rle_round_trip(cpu):
    glider = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n"
    u = bulk.life.Universe.from_rle(glider, ctx=cpu).step(4)
    assert u.bbox == (1, 1, 3, 3) and u.population == 5
    v = bulk.life.Universe.from_rle(u.to_rle(), ctx=cpu)
    assert v.generation == 4 and (v.to_array() == u.to_array()).all()
    t = bulk.life.Universe.from_rle(glider, torus=(8, 8), ctx=cpu).step(32)
    assert (t.to_array() == bulk.life.Universe.from_rle(glider, torus=(8, 8)).to_array()).all()


def test_bad_input(cpu):
    with pytest.raises(ValueError, match=r"bulk_life_pattern_read: rle:2:"):
        bulk.life.Universe.from_rle("x = 3, y = 3\nbo$2bq$3o!\n", ctx=cpu)
    with pytest.raises(ValueError, match="bulk_life_rule_parse"):
        bulk.life.Universe.from_array(np.ones((2, 2), bool), rule="B9/S23")
    with pytest.raises(ValueError):
        bulk.life.Universe.from_array(np.ones((5, 5), bool), torus=(3, 3))
    with pytest.raises(ValueError, match="2-D"):
        bulk.life.Universe.from_array(np.ones(5, bool))
