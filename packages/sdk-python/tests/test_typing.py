"""The package is typed (PEP 561): mypy --strict passes on it for Python 3.9, and on the example that uses its types."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from support import REPO

PACKAGE = Path(__file__).resolve().parents[1]


def mypy_python() -> str:
    """The Python that has mypy. Without one these tests are skipped loudly on a developer's machine and fail in CI
    (`CI` set), where `.ci/run` installs it."""
    for python in (sys.executable, "/usr/bin/python3"):
        if subprocess.run([python, "-c", "import mypy"], capture_output=True).returncode == 0:
            return python
    if os.environ.get("CI"):
        raise AssertionError("mypy is not installed: apt-get install -y python3-mypy")
    pytest.skip("SKIPPED: mypy is not installed on this machine (apt-get install -y python3-mypy)")


@pytest.fixture(scope="module")
def cache() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as directory:
        yield directory


def test_mypy_strict_passes_on_the_package_and_the_example(cache: str) -> None:
    run = subprocess.run(
        [
            mypy_python(), "-m", "mypy", "--strict", "--python-version", "3.9", "--cache-dir", cache,
            str(PACKAGE / "src" / "timbre"), str(REPO / "examples" / "python-emit-invoice" / "emit_invoice.py"),
        ],
        env={**os.environ, "MYPYPATH": str(PACKAGE / "src")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert (PACKAGE / "src" / "timbre" / "py.typed").exists()


def test_mypy_catches_a_misspelt_field_of_an_emission(tmp_path: Path, cache: str) -> None:
    program = tmp_path / "typo.py"
    # a body declared as one tipo's shape gets the key named (`emit` takes any tipo's: a union mypy cannot pin)
    program.write_text(
        "from timbre import Timbre\n"
        "from timbre.types import EmitRequest\n"
        "body: EmitRequest = {'tipo': 33, 'receptor': {'rut': '1-9', 'razon_social': 'x'}, 'items': [], 'formaPago': 1}\n"
        "Timbre().dte.emit(body)\n"
    )
    run = subprocess.run(
        [mypy_python(), "-m", "mypy", "--strict", "--python-version", "3.9", "--cache-dir", cache, str(program)],
        env={**os.environ, "MYPYPATH": str(PACKAGE / "src")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 1 and "formaPago" in run.stdout, run.stdout
