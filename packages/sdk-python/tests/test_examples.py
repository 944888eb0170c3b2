"""Runs the Python example and checks the committed types against the running server's OpenAPI document."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support import REPO, SandboxServer

PACKAGE = Path(__file__).resolve().parents[1]


def test_the_emit_invoice_example_emits_waits_and_saves_pdf_and_xml(server: SandboxServer, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": str(PACKAGE / "src"),
        "TIMBRE_API_KEY": server.api_key,
        "TIMBRE_API_URL": server.base_url,
        "OUT_DIR": str(tmp_path),
        "POLL_INTERVAL_S": "0.2",
    }
    run = subprocess.run(
        [sys.executable, "emit_invoice.py"],
        cwd=str(REPO / "examples" / "python-emit-invoice"),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    assert "ACEPTADO" in run.stdout
    saved = {p.name: p for p in tmp_path.iterdir()}
    pdf = next(p for name, p in saved.items() if name.endswith(".pdf"))
    xml = next(p for name, p in saved.items() if name.endswith(".xml"))
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert b"<Folio>" in xml.read_bytes()


def test_the_example_writes_beside_itself_by_default_never_into_the_current_folder(server: SandboxServer, tmp_path: Path) -> None:
    script = REPO / "examples" / "python-emit-invoice" / "emit_invoice.py"
    out = script.parent / "out"
    before = set(out.iterdir()) if out.exists() else set()
    env = {k: v for k, v in os.environ.items() if k != "OUT_DIR"}
    env.update({"PYTHONPATH": str(PACKAGE / "src"), "TIMBRE_API_KEY": server.api_key, "TIMBRE_API_URL": server.base_url, "POLL_INTERVAL_S": "0.2"})
    run = subprocess.run([sys.executable, str(script)], cwd=str(tmp_path), env=env, capture_output=True, text=True, timeout=120)
    written = set(out.iterdir()) - before if out.exists() else set()
    try:
        assert run.returncode == 0, run.stderr
        assert list(tmp_path.iterdir()) == []
        assert sorted(p.suffix for p in written) == [".pdf", ".xml"]
    finally:
        for p in written:
            p.unlink()


def test_the_committed_types_match_the_servers_openapi_document(server: SandboxServer) -> None:
    run = subprocess.run(
        [sys.executable, str(PACKAGE / "scripts" / "generate_types.py"), f"{server.base_url}/openapi.json", "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
