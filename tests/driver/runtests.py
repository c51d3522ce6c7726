"""Runs the driver's tests of one module (or Module.Class) for CTest.

    python3 runtests.py test_watch [test_watch.Class]

Exit code 0 when they pass, 1 when one fails, 77 (CTest: skipped) when every test was skipped,
for example an opt-in test whose switch is off.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

if __name__ == "__main__":
    suite = unittest.defaultTestLoader.loadTestsFromNames(sys.argv[1:])
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if not result.wasSuccessful():
        sys.exit(1)
    sys.exit(77 if result.testsRun and len(result.skipped) == result.testsRun else 0)
