"""Fixtures of the Python package's tests: seeded random generators (the seed is printed, and
BULK_TEST_SEED replays it), a CPU context, a CUDA context that skips without a device."""
import os
import random

import pytest

import bulk


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("BULK_TEST_SEED", "0")) or random.SystemRandom().getrandbits(48)
    print(f"{request.node.name}: seed {seed} (replay with BULK_TEST_SEED={seed})")
    return random.Random(seed)


@pytest.fixture(scope="session")
def cpu():
    with bulk.Context("cpu") as c:
        yield c


@pytest.fixture(scope="session")
def gpu():
    if bulk.cuda_device_count() == 0:
        pytest.skip("no CUDA device (or a build without CUDA)")
    with bulk.Context("cuda") as c:
        yield c


def edge_values(bits):
    """0, 1, all-ones words, powers of two, runs of ones and zeros below 2^bits."""
    v = {0, 1, 2, (1 << bits) - 1, 1 << (bits - 1), (1 << 64) - 1 if bits >= 64 else 3}
    for k in range(1, bits, 61):
        v |= {1 << k, (1 << k) - 1, ((1 << bits) - 1) ^ ((1 << k) - 1)}
    return sorted(x for x in v if x < 1 << bits)
