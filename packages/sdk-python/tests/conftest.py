from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from support import SandboxServer  # noqa: E402
from timbre import Timbre  # noqa: E402


@pytest.fixture(scope="session")
def server() -> Iterator[SandboxServer]:
    started = SandboxServer()
    yield started
    started.stop()


@pytest.fixture()
def client(server: SandboxServer) -> Timbre:
    return Timbre(api_key=server.api_key, base_url=server.base_url, initial_retry_delay=0.05)
