"""The bones benchmark: ``python -m bench`` (see ``python -m bench --help``).

Benchmarks live here and never in the test suite: timings depend on the
machine and its load, so they are reported, not asserted.  Each section is a
function that takes its sizes as arguments and returns a JSON-ready dict, so
``tests/test_bench_smoke.py`` can run every one of them with tiny sizes.
"""

from __future__ import annotations

#: bump when the layout of the ``--json`` output changes
JSON_VERSION = 1
