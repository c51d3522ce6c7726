"""What the course needs on the machine: the CUDA toolkit, CMake, Ninja, the Debian packages of its
libraries and test tools, and a GPU (or not). Checked quietly before every command that builds,
and in full by ./course doctor; a CI machine (root, CI=true) installs what is missing."""

from __future__ import annotations

import functools
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import common

DEBIAN_PACKAGES = {
    "ninja": "ninja-build",
    "doctest": "doctest-dev",
    "CLI11": "libcli11-dev",
    "nlohmann-json": "nlohmann-json3-dev",
    "doxygen": "doxygen graphviz",
    "pytest": "python3-pytest",
}
HEADERS = {"doctest": "doctest/doctest.h", "CLI11": "CLI/CLI.hpp", "nlohmann-json": "nlohmann/json.hpp"}


@functools.cache
def has_gpu() -> bool:
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    result = subprocess.run([smi, "-L"], capture_output=True, text=True)
    return result.returncode == 0 and "GPU" in result.stdout


def visible_gpus() -> list[tuple[str, str]]:
    """The GPUs a grader started from here may use, each as (its CUDA_VISIBLE_DEVICES value, its
    name): every GPU nvidia-smi lists, or where CUDA_VISIBLE_DEVICES is set already (a Slurm task's
    GPUs), those it names, in its order. Empty without nvidia-smi or a GPU."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return []
    result = subprocess.run([smi, "--query-gpu=index,uuid,name", "--format=csv,noheader"], capture_output=True,
                            text=True)
    if result.returncode != 0:
        return []
    listed = [[field.strip() for field in line.split(",", 2)] for line in result.stdout.splitlines()
              if line.count(",") >= 2]
    names = {key: name for index, uuid, name in listed for key in (index, uuid)}
    chosen = os.environ.get("CUDA_VISIBLE_DEVICES")
    if chosen is None:
        return [(index, name) for index, _, name in listed]
    visible = []
    for entry in (e.strip() for e in chosen.split(",")):
        # CUDA stops at the first entry that names no GPU; so does this list.
        name = names.get(entry) or next((n for key, n in names.items() if entry and key.startswith(entry)), None)
        if name is None and entry.startswith("MIG-"):  # a MIG instance: nvidia-smi's GPU list has no UUID of it
            name = f"MIG instance {entry}"
        if name is None:
            break
        visible.append((entry, name))
    return visible


# What one grader may hold on the GPU at once (lesson 05's timed inputs, the L2 flush, the context);
# a case that needs more takes the GPU alone (common/include/course/gpu_sharing.hpp).
GRADER_GPU_BYTES = 4 << 30


def gpu_parallel_jobs() -> int:
    """How many tests may run side by side on this machine's first GPU: one per CPU core, as many as
    its free memory holds graders. Timed runs wait for each other whatever this is."""
    cores = max(os.cpu_count() or 1, 1)
    smi = shutil.which("nvidia-smi")
    if not smi:
        return 1
    result = subprocess.run([smi, "--query-gpu=memory.free", "--format=csv,noheader,nounits", "--id=0"],
                            capture_output=True, text=True)
    try:
        free_bytes = int(result.stdout.split()[0]) << 20
    except (IndexError, ValueError):
        return 1
    return max(1, min(cores, free_bytes // GRADER_GPU_BYTES))


def find_nvcc() -> str | None:
    return shutil.which("nvcc") or next(
        (str(p) for p in (Path(os.environ.get("CUDA_PATH", "/usr/local/cuda")) / "bin" / "nvcc",) if p.exists()), None
    )


def find_tool(name: str) -> str | None:
    """An NVIDIA tool on PATH, or beside nvcc (the toolkit's bin/ holds ncu and compute-sanitizer)."""
    found = shutil.which(name)
    if found:
        return found
    nvcc = find_nvcc()
    beside = Path(nvcc).parent / name if nvcc else None
    return str(beside) if beside and beside.exists() else None


@functools.cache
def pytest_interpreter() -> str | None:
    """A Python that has pytest, which runs the driver's tests: this one, else python3 on PATH, else
    the system's (/usr/bin/python3, where Debian's python3-pytest installs it); None without."""
    if importlib.util.find_spec("pytest") is not None:
        return sys.executable
    has_it = "import importlib.util, sys; sys.exit(importlib.util.find_spec('pytest') is None)"
    for candidate in dict.fromkeys(filter(None, (shutil.which("python3"), "/usr/bin/python3"))):
        if Path(candidate).exists() and Path(candidate).resolve() != Path(sys.executable).resolve():
            with_pytest = subprocess.run([candidate, "-c", has_it], capture_output=True).returncode == 0
            if with_pytest:
                return candidate
    return None


def include_dirs() -> list[Path]:
    prefixes = [Path(p) for p in os.environ.get("CMAKE_PREFIX_PATH", "").split(os.pathsep) if p]
    return [p / "include" for p in prefixes] + [Path("/usr/include"), Path("/usr/local/include")]


def cmake_version() -> tuple[int, int] | None:
    if not shutil.which("cmake"):
        return None
    match = re.search(r"(\d+)\.(\d+)", subprocess.run(["cmake", "--version"], capture_output=True, text=True).stdout)
    return (int(match[1]), int(match[2])) if match else None


def check_environment(test_tools: bool = True) -> tuple[list[tuple[str, bool, str]], list[str]]:
    """Rows of (what, ok, detail) and the Debian packages that would fix what is missing. The tools
    only the course's own tests use (pytest) are looked for with `test_tools`; like doxygen, they
    are never missing for a student's commands."""
    rows: list[tuple[str, bool, str]] = []
    packages: list[str] = []
    nvcc = find_nvcc()
    rows.append(("nvcc (CUDA toolkit)", nvcc is not None,
                 nvcc or "install the CUDA toolkit 13 from NVIDIA and put its bin/ on PATH"))
    version = cmake_version()
    cmake_ok = version is not None and version >= (3, 24)
    rows.append(("cmake >= 3.24", cmake_ok, f"{version[0]}.{version[1]}" if version else "not found"))
    if not cmake_ok:
        packages.append("cmake")
    ninja = shutil.which("ninja")
    rows.append(("ninja", ninja is not None, ninja or "not found"))
    if not ninja:
        packages.append(DEBIAN_PACKAGES["ninja"])
    for name, header in HEADERS.items():
        found = next((d / header for d in include_dirs() if (d / header).exists()), None)
        rows.append((name, found is not None, str(found) if found else "not found"))
        if not found:
            packages.append(DEBIAN_PACKAGES[name])
    gpu = has_gpu()
    rows.append(("NVIDIA GPU", True, "found (nvidia-smi -L)" if gpu else
                 "none: run, grade, watch and trace use the CPU simulator (build/sim): exact results, modelled "
                 "times, technique checks for speed"))
    doxygen = shutil.which("doxygen")
    rows.append(("doxygen (docs only)", True,
                 doxygen or f"not found: {install_command(DEBIAN_PACKAGES['doxygen'].split())}"))
    ccache = shutil.which("ccache")
    rows.append(("ccache (optional)", True, f"{ccache}: a second copy of the course compiles from its cache" if ccache
                 else f"not found: {install_command(['ccache'])} makes a second copy's build (a fresh clone) fast"))
    if test_tools:
        python = pytest_interpreter()
        rows.append(("pytest (./course test only)", True,
                     f"{python} -m pytest" if python else
                     f"not found: {install_command([DEBIAN_PACKAGES['pytest']])} (the driver's tests are "
                     "skipped without it)"))
    return rows, packages


def install_command(packages: list[str]) -> str:
    return "sudo apt-get install -y " + " ".join(packages)


def ensure_environment(verbose: bool) -> None:
    """Stops the command (one line, with the install command) where something it needs is missing;
    `verbose`: a line per check first (./course doctor)."""
    on_ci_as_root = os.environ.get("CI") == "true" and hasattr(os, "geteuid") and os.geteuid() == 0
    rows, packages = check_environment(test_tools=verbose or on_ci_as_root)
    if on_ci_as_root:
        # CI machines start bare: install what is missing, and doxygen and pytest, so that the docs
        # and the driver's tests are checked too.
        wanted = packages + ([] if shutil.which("doxygen") else DEBIAN_PACKAGES["doxygen"].split())
        wanted += [] if pytest_interpreter() else [DEBIAN_PACKAGES["pytest"]]
        if wanted:
            common.say("installing " + " ".join(wanted))
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
            subprocess.run(["apt-get", "install", "-y", "-qq", *wanted], check=True, env=env,
                           stdout=subprocess.DEVNULL)
            pytest_interpreter.cache_clear()
            rows, packages = check_environment(test_tools=True)
    if verbose:
        width = max(len(what) for what, _, _ in rows)
        for what, ok, detail in rows:
            print(f"  {'ok ' if ok else 'MISSING'}  {what:<{width}}  {detail}")
    missing = [what for what, ok, _ in rows if not ok]
    if missing:
        hint = f"; install with: {install_command(packages)}" if packages else ""
        common.fail(f"missing: {', '.join(missing)}{hint}")
    nvcc = find_nvcc()
    if nvcc and not shutil.which("nvcc"):
        os.environ.setdefault("CUDACXX", nvcc)  # CMake finds nvcc through this when it is not on PATH
