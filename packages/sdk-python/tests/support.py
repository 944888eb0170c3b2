"""What the tests share: the real server started for the session, RUT check digits, a tiny HTTP listener and a proxy
that drops one answer."""

from __future__ import annotations

import json
import os
import queue
import shutil
import socket
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

REPO = Path(__file__).resolve().parents[3]


def bun() -> str:
    local = REPO / "node_modules" / ".bin" / "bun"
    found = os.environ.get("TIMBRE_BUN") or (str(local) if local.exists() else shutil.which("bun"))
    if not found:
        raise RuntimeError("bun not found: run `npm ci` at the repository root")
    return found


class SandboxServer:
    """``bun scripts/sdk-sandbox-server.ts --exchange``: the real server plus a tenant; stopped by closing its stdin."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [bun(), str(REPO / "scripts" / "sdk-sandbox-server.ts"), "--tipos", "33,61", "--exchange"],
            cwd=str(REPO),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        lines: "queue.Queue[bytes]" = queue.Queue()
        assert self.process.stdout is not None
        threading.Thread(target=lambda: lines.put(self.process.stdout.readline()), daemon=True).start()  # type: ignore[union-attr]
        try:
            line = lines.get(timeout=300)
        except queue.Empty:
            self.stop()
            raise RuntimeError("the sandbox server did not start within 300 s")
        if not line:
            err = self.process.stderr.read().decode() if self.process.stderr else ""
            raise RuntimeError(f"the sandbox server failed to start:\n{err}")
        info = json.loads(line)
        self.base_url: str = info["base_url"]
        self.api_key: str = info["api_key"]
        self.business_id: str = info["business_id"]
        # --exchange: a supplier tenant issuing to this one, and the EnvioDTE files the server mailed
        self.intercambio_email: str = info["intercambio_email"]
        self.mail_dir: str = info["mail_dir"]
        self.supplier_api_key: str = info["supplier"]["api_key"]
        self.supplier_rut: str = info["supplier"]["rut"]

    def stop(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait(timeout=10)


def rut_with_dv(number: int) -> str:
    """A valid RUT for ``number`` (módulo 11 check digit)."""
    total, factor = 0, 2
    for digit in reversed(str(number)):
        total += int(digit) * factor
        factor = 2 if factor == 7 else factor + 1
    dv = 11 - total % 11
    return f"{number}-{'0' if dv == 11 else 'K' if dv == 10 else dv}"


def factura(receptor_rut: str = "76192083-9", precio: int = 10000) -> Dict[str, Any]:
    return {
        "tipo": 33,
        "receptor": {
            "rut": receptor_rut,
            "razon_social": "Cliente de Prueba SpA",
            "giro": "Comercio",
            "direccion": "Av. Apoquindo 4500",
            "comuna": "Las Condes",
        },
        "items": [{"nombre": "Consultoría", "cantidad": 2, "precio": precio}],
        "forma_pago": 1,
    }


class WebhookListener:
    """A loopback HTTP server that records every POST (raw body and headers) and answers 200."""

    def __init__(self) -> None:
        self.deliveries: "queue.Queue[Tuple[bytes, Dict[str, str]]]" = queue.Queue()
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                deliveries.put((body, {k: v for k, v in self.headers.items()}))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/timbre"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _read_message(sock: socket.socket) -> bytes:
    """One HTTP/1.1 message (headers and a Content-Length body) from a socket."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


class DroppingProxy:
    """A TCP proxy in front of the server. For the first ``drop`` connections it forwards the request, waits for the
    server's full answer, then closes the client's connection without a byte: the work is done, the answer lost."""

    def __init__(self, upstream: str, drop: int = 1) -> None:
        host_port = upstream.split("//", 1)[1].split("/", 1)[0]
        host, port = host_port.rsplit(":", 1)
        self.upstream = (host, int(port))
        self.drop = drop
        self.requests: List[bytes] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._serve, daemon=True).start()

    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(client,), daemon=True).start()

    def _handle(self, client: socket.socket) -> None:
        with client:
            request = _read_message(client)
            self.requests.append(request)
            dropping = len(self.requests) <= self.drop
            with socket.create_connection(self.upstream) as upstream:
                upstream.sendall(request)
                answer = _read_message(upstream)
            if not dropping:
                client.sendall(answer)

    def idempotency_keys(self) -> List[Optional[str]]:
        keys: List[Optional[str]] = []
        for request in self.requests:
            key = None
            for line in request.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"idempotency-key":
                    key = value.strip().decode()
            keys.append(key)
        return keys

    def close(self) -> None:
        self.listener.close()
