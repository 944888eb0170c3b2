"""Retries, Retry-After and idempotency keys, against a scripted HTTP server on loopback (the real server cannot be
made to answer 429 or 503 on demand)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from timbre import RateLimitError, ServerError, Timbre
from timbre._transport import normalize_base_url

Answer = Tuple[int, Dict[str, str], Dict[str, Any]]


class Scripted:
    """Answers each request with the next scripted answer and records the request's headers."""

    def __init__(self, answers: List[Answer]) -> None:
        self.answers = answers
        self.seen: List[Dict[str, str]] = []
        scripted = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                scripted.seen.append({k.lower(): v for k, v in self.headers.items()})
                status, headers, body = scripted.answers.pop(0)
                payload = json.dumps(body).encode()
                self.send_response(status)
                for name, value in {**headers, "Content-Type": "application/json", "Content-Length": str(len(payload))}.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _answer  # noqa: N815

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture()
def scripted(request: pytest.FixtureRequest) -> Iterator[Scripted]:
    server = Scripted(list(request.param))
    yield server
    server.server.shutdown()
    server.server.server_close()


def envelope(data: Any) -> Dict[str, Any]:
    return {"success": True, "data": data}


def failure(code: str, **details: Any) -> Dict[str, Any]:
    return {"success": False, "error": {"code": code, "message": code, "details": details, "request_id": "req_x"}}


@pytest.mark.parametrize("scripted", [[(429, {"Retry-After": "0"}, failure("RATE_LIMITED")), (503, {}, failure("UNAVAILABLE")), (201, {}, envelope({"id": "dte_1"}))]], indirect=True)
def test_429_and_503_are_retried_with_one_idempotency_key(scripted: Scripted) -> None:
    client = Timbre(api_key="sk_test_k", base_url=scripted.url, max_retries=2, initial_retry_delay=0.01)

    assert client.dte.emit({"tipo": 33}) == {"id": "dte_1"}

    keys = [seen.get("idempotency-key") for seen in scripted.seen]
    assert len(keys) == 3 and keys[0] and len(set(keys)) == 1
    assert all(seen["x-api-key"] == "sk_test_k" for seen in scripted.seen)


@pytest.mark.parametrize("scripted", [[(429, {"Retry-After": "7"}, failure("RATE_LIMITED", retry_after=7))]], indirect=True)
def test_a_429_without_retries_left_is_a_rate_limit_error_with_retry_after(scripted: Scripted) -> None:
    client = Timbre(api_key="sk_test_k", base_url=scripted.url, max_retries=0)
    with pytest.raises(RateLimitError) as caught:
        client.dte.emit({"tipo": 33})
    assert (caught.value.status, caught.value.code, caught.value.retry_after) == (429, "RATE_LIMITED", 7.0)
    assert caught.value.request_id == "req_x"


@pytest.mark.parametrize("scripted", [[(429, {"Retry-After": "120"}, failure("RATE_LIMITED"))]], indirect=True)
def test_a_wait_longer_than_a_minute_is_not_slept_through(scripted: Scripted) -> None:
    client = Timbre(api_key="sk_test_k", base_url=scripted.url, max_retries=3)
    with pytest.raises(RateLimitError) as caught:
        client.dte.list().first_page()
    assert caught.value.retry_after == 120.0 and len(scripted.seen) == 1


@pytest.mark.parametrize("scripted", [[(500, {}, failure("INTERNAL_ERROR")), (500, {}, failure("INTERNAL_ERROR"))]], indirect=True)
def test_a_5xx_after_the_last_retry_is_a_server_error(scripted: Scripted) -> None:
    client = Timbre(api_key="sk_test_k", base_url=scripted.url, max_retries=1, initial_retry_delay=0.01)
    with pytest.raises(ServerError) as caught:
        client.dte.retrieve("dte_1")
    assert (caught.value.status, caught.value.code) == (500, "INTERNAL_ERROR") and len(scripted.seen) == 2


@pytest.mark.parametrize("scripted", [[(201, {}, envelope({"id": "dte_1"}))]], indirect=True)
def test_a_given_idempotency_key_is_sent_as_is(scripted: Scripted) -> None:
    Timbre(api_key="sk_test_k", base_url=scripted.url).dte.emit({"tipo": 33}, idempotency_key="venta-42")
    assert scripted.seen[0]["idempotency-key"] == "venta-42"


@pytest.mark.parametrize("given", ["http://h:1", "http://h:1/", "http://h:1/v1", "http://h:1/v1/"])
def test_the_base_url_may_come_with_or_without_v1(given: str) -> None:
    assert normalize_base_url(given) == "http://h:1/v1"
