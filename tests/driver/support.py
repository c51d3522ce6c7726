"""Helpers for the driver's tests: load ./course as a module, run it as a program."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COURSE = ROOT / "course"


def load_driver():
    """A fresh copy of the driver as a module (tests patch its ROOT and helpers)."""
    name = f"course_driver_{len(sys.modules)}"
    loader = importlib.machinery.SourceFileLoader(name, str(COURSE))
    spec = importlib.util.spec_from_loader(name, loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up here
    loader.exec_module(module)
    return module


def run_course(*args: str, env: dict | None = None, stdin: str | None = None, timeout: float = 120,
               course: Path = COURSE) -> subprocess.CompletedProcess:
    """Runs ./course with `args`; stdout and stderr together in .stdout."""
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, str(course), *args], env=full_env, input=stdin, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout,
                          stdin=None if stdin is not None else subprocess.DEVNULL)


def has_gpu() -> bool:
    try:
        result = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    except OSError:
        return False
    return result.returncode == 0 and "GPU" in result.stdout


def build_dir() -> Path | None:
    """The configured build tree CTest runs in (COURSE_BUILD_DIR), if any."""
    value = os.environ.get("COURSE_BUILD_DIR")
    return Path(value) if value and (Path(value) / "CMakeCache.txt").exists() else None
