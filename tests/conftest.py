"""Shared test helpers: make the repository importable without installing it, and
run the property tests reproducibly.

Hypothesis runs under the ``repeatable`` profile unless ``HYPOTHESIS_PROFILE``
names another: derandomized (each test draws the same examples on every run and
every machine, so CI cannot pass or fail by luck) and without the example
database. ``HYPOTHESIS_PROFILE=explore`` draws new examples on each run, to
look for new failures; keep what it finds as an ``@example``.
"""

import os
import sys
from pathlib import Path

from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
