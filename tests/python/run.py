"""Runs the pytest suite of the Python package for ctest (tests/python/CMakeLists.txt).

Exit 77 (skip) when NumPy or pytest is missing, unless CI=true: CI installs them (.ci/run), so
there their absence is a failure."""
import os
import sys

missing = []
for mod in ("numpy", "pytest"):
    try:
        __import__(mod)
    except ImportError:
        missing.append(mod)
if missing:
    print(f"python: {' and '.join(missing)} not installed for {sys.executable} "
          f"(pip install numpy pytest)", flush=True)
    sys.exit(1 if os.environ.get("CI") == "true" else 77)

import pytest  # noqa: E402

sys.exit(pytest.main([sys.argv[1], "-q", "-p", "no:cacheprovider", "-rs"]))
