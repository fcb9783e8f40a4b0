"""bulk.circuit against Python additions, bulk.cky against NLTK's parser."""
import numpy as np
import pytest

import bulk


def adder_aag(k):
    """A k-bit ripple-carry adder as ASCII AIGER: inputs a0..a{k-1} b0..b{k-1}, outputs s0..sk."""
    lines, var = [], 2 * k
    ands = []

    def gate(x, y):
        nonlocal var
        var += 1
        ands.append(f"{2 * var} {x} {y}")
        return 2 * var

    def xor(x, y):
        return gate(gate(x, y) ^ 1, gate(x ^ 1, y ^ 1) ^ 1)

    carry, outs = 0, []
    for i in range(k):
        a, b = 2 * (i + 1), 2 * (k + i + 1)
        t = xor(a, b)
        outs.append(xor(t, carry))
        carry = gate(gate(a, b) ^ 1, gate(t, carry) ^ 1) ^ 1
    outs.append(carry)
    lines = [f"aag {var} {2 * k} 0 {k + 1} {len(ands)}"]
    lines += [str(2 * (i + 1)) for i in range(2 * k)] + [str(o) for o in outs] + ands
    return "\n".join(lines) + "\n"


def test_adder(rng, cpu, tmp_path):
    k, v = 12, 1000
    text = adder_aag(k)
    a = [rng.getrandbits(k) for _ in range(v)]
    b = [rng.getrandbits(k) for _ in range(v)]
    bits = np.array([[(x >> i) & 1 for i in range(k)] + [(y >> i) & 1 for i in range(k)]
                     for x, y in zip(a, b)], dtype=bool)
    out = bulk.circuit.eval(text, bits, ctx=cpu)
    assert out.shape == (v, k + 1)
    assert [sum(int(o) << i for i, o in enumerate(row)) for row in out] == [x + y for x, y in zip(a, b)]
    path = tmp_path / "adder.aag"
    path.write_text(text)
    c = bulk.circuit.Circuit(path)
    assert (c.inputs, c.outputs) == (2 * k, k + 1)
    assert (c.eval(bits[7]) == out[7]).all()
    planes = np.ascontiguousarray(np.packbits(np.pad(bits.T, ((0, 0), (0, 24))), axis=1,
                                              bitorder="little")).view("<u8")
    po = c.eval(planes)
    assert po.dtype == np.uint64 and po.shape == (k + 1, 16)
    assert (np.unpackbits(po.view(np.uint8), axis=1, bitorder="little")[:, :v].T.astype(bool) == out).all()


def test_circuit_errors(cpu):
    with pytest.raises(ValueError, match=r"bulk_circuit_parse: <aiger>:"):
        bulk.circuit.Circuit("aag 1 1 0 1 0\n2\n9\n")
    with pytest.raises(ValueError, match=r"shape \(V, 2\)"):
        bulk.circuit.eval("aag 3 2 0 1 1\n2\n4\n6\n6 2 4\n", np.zeros((4, 3), bool))
    with pytest.raises(RuntimeError):
        bulk.circuit.eval("aag 1 0 1 1 0\n2 3\n2\n", np.zeros((4, 0), bool), ctx=cpu)


ARITH = """
E -> E '+' T | T
T -> T '*' F | F
F -> '(' E ')' | 'x' | 'y'
"""


def test_cky_nltk(rng, cpu):
    nltk = pytest.importorskip("nltk")
    g = bulk.cky.Grammar(ARITH, mode="tokens")
    parser = nltk.ChartParser(nltk.CFG.fromstring(ARITH))
    alphabet = ["x", "y", "+", "*", "(", ")"]
    strings = [" ".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9))) for _ in range(400)]
    strings += ["x + y * ( x + y )", "( x", "x y"]
    got = g.parse(strings, ctx=cpu)
    want = [any(True for _ in parser.parse(s.split())) for s in strings]
    assert got.dtype == bool and got.tolist() == want


def test_cky_chars(cpu):
    g = bulk.cky.Grammar("S -> 'a' S 'b' |\n")
    assert g.accepts_empty
    assert g.parse(["", "ab", "aabb", "aab", "ba", b"aaabbb", "abz"], ctx=cpu).tolist() == \
        [True, True, True, False, False, True, False]
    with pytest.raises(ValueError, match=r"bulk_grammar_parse: <grammar>:1"):
        bulk.cky.Grammar("S -> 'a' T\n")
    with pytest.raises(ValueError, match="mode"):
        bulk.cky.Grammar("S -> 'a'", mode="words")
