"""pytest's hooks for the driver's tests. CTest runs one module at a time with
--skipped-exit-code=77: a run whose every test was skipped (opt-in tests whose switch is off, a
machine without the build tree or a compiler) then exits with CTest's skip code instead of 0."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--skipped-exit-code", type=int, default=None, metavar="N",
                     help="exit with N when the tests that ran were all skipped (CTest's SKIP_RETURN_CODE)")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    code = session.config.getoption("--skipped-exit-code")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if code is None or exitstatus != pytest.ExitCode.OK or reporter is None:
        return
    stats = reporter.stats
    ran = sum(len(stats.get(kind, [])) for kind in ("passed", "failed", "error", "xfailed", "xpassed"))
    if stats.get("skipped") and not ran:
        session.exitstatus = code
