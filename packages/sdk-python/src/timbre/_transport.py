"""The HTTP transport over ``urllib``: one API call, retried on transient failures with one idempotency key."""

from __future__ import annotations

import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Mapping, Optional, Tuple

from ._errors import APIConnectionError, ServerError, TimbreError, error_from_response, parse_retry_after

#: Longest server-requested wait honoured before giving up on retrying (seconds).
MAX_RETRY_AFTER = 60.0


class Response:
    """What came back for the last successful call: ``status``, ``headers`` (lower-case names), ``request_id``,
    ``idempotent_replayed`` (the server replayed a stored answer for this ``Idempotency-Key``)."""

    def __init__(self, status: int, headers: Mapping[str, str]) -> None:
        self.status = status
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.request_id: Optional[str] = self.headers.get("request-id")
        self.idempotent_replayed = self.headers.get("idempotent-replayed") == "true"


def normalize_base_url(base_url: str) -> str:
    """``http://host``, ``http://host/``, ``http://host/v1`` and ``http://host/v1/`` all give ``http://host/v1``."""
    url = base_url.rstrip("/")
    return url if url.endswith("/v1") else f"{url}/v1"


def backoff_delay(retry: int, initial: float, maximum: float) -> float:
    """Wait before retry number ``retry`` (0-based): exponential with equal jitter (half fixed, half random)."""
    exponential: float = min(maximum, initial * 2.0**retry)
    return exponential / 2 + random.random() * exponential / 2


class Transport:
    def __init__(
        self,
        *,
        base_url: str,
        api_key: Optional[str],
        access_token: Optional[str],
        business_id: Optional[str],
        environment: Optional[str],
        timeout: float,
        max_retries: int,
        initial_retry_delay: float,
        max_retry_delay: float,
        user_agent: str,
    ) -> None:
        self.base_url = normalize_base_url(base_url)
        self.api_key = api_key
        self.access_token = access_token
        self.business_id = business_id
        self.environment = environment
        self.timeout = timeout
        self.max_retries = max_retries
        self.initial_retry_delay = initial_retry_delay
        self.max_retry_delay = max_retry_delay
        self.user_agent = user_agent
        self.last_response: Optional[Response] = None

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        json_body: Any = None,
        body: Optional[bytes] = None,
        content_type: Optional[str] = None,
        raw: bool = False,
        idempotency_key: Optional[str] = None,
        idempotent: bool = True,
    ) -> Tuple[Any, Optional[Dict[str, Any]]]:
        """Sends one call and returns ``(data, pagination)``; ``data`` is bytes when ``raw``.

        ``body`` is sent as it is with ``content_type`` (an XML file, a multipart form); ``json_body`` as JSON.
        A POST gets a generated ``Idempotency-Key`` (unless ``idempotent`` is false) that every retry reuses, so a
        retried emission never consumes a second folio. A POST without a key is never retried.
        """
        url = self.base_url + "/" + path.lstrip("/") + _query_string(query)
        headers = self._headers(raw)
        payload: Optional[bytes] = None
        if body is not None:
            payload = body
            headers["Content-Type"] = content_type or "application/octet-stream"
        elif json_body is not None:
            payload = json.dumps(json_body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if method == "POST" and idempotent:
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        retryable = method != "POST" or "Idempotency-Key" in headers

        attempt = 0
        while True:
            can_retry = retryable and attempt < self.max_retries
            try:
                status, response_headers, body = self._send(method, url, headers, payload)
            except APIConnectionError:
                if not can_retry:
                    raise
                time.sleep(backoff_delay(attempt, self.initial_retry_delay, self.max_retry_delay))
                attempt += 1
                continue
            if 200 <= status < 300:
                self.last_response = Response(status, response_headers)
                return _success(status, response_headers, body, raw)
            error = error_from_response(status, response_headers, _parse_json(body))
            wait = self._retry_wait(status, error, response_headers, attempt) if can_retry else None
            if wait is None:
                raise error
            time.sleep(wait)
            attempt += 1

    def _headers(self, raw: bool) -> Dict[str, str]:
        headers = {"Accept": "*/*" if raw else "application/json", "User-Agent": self.user_agent}
        if self.api_key:
            headers["X-API-Key"] = self.api_key
        elif self.access_token:
            headers["Authorization"] = f"Bearer {self.access_token}"
        if self.business_id:
            headers["X-Business-Id"] = self.business_id
        if self.environment:
            headers["X-Environment"] = self.environment
        return headers

    def _send(self, method: str, url: str, headers: Dict[str, str], payload: Optional[bytes]) -> Tuple[int, Dict[str, str], bytes]:
        request = urllib.request.Request(url, data=payload, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (the caller's URL)
                return response.status, dict(response.headers.items()), response.read()
        except urllib.error.HTTPError as error:
            try:
                body = error.read()
            except (OSError, http.client.HTTPException):
                body = b""
            return error.code, dict(error.headers.items()), body
        except (socket.timeout, TimeoutError) as error:
            raise APIConnectionError(f"The request timed out after {self.timeout} s.", code="TIMEOUT") from error
        except urllib.error.URLError as error:
            if isinstance(error.reason, (socket.timeout, TimeoutError)):
                raise APIConnectionError(f"The request timed out after {self.timeout} s.", code="TIMEOUT") from error
            raise APIConnectionError(f"Could not reach the Timbre API: {error.reason}", code="CONNECTION_ERROR") from error
        except (OSError, http.client.HTTPException) as error:
            # RemoteDisconnected, ConnectionResetError, IncompleteRead: the answer was lost on the way.
            raise APIConnectionError(f"Could not reach the Timbre API: {error!r}", code="CONNECTION_ERROR") from error

    def _retry_wait(self, status: int, error: TimbreError, headers: Mapping[str, str], attempt: int) -> Optional[float]:
        transient = status == 429 or status >= 500 or (status == 409 and error.code == "IDEMPOTENCY_IN_PROGRESS")
        if not transient:
            return None
        retry_after = parse_retry_after({k.lower(): v for k, v in headers.items()}.get("retry-after"))
        if retry_after is not None:
            return None if retry_after > MAX_RETRY_AFTER else retry_after
        return backoff_delay(attempt, self.initial_retry_delay, self.max_retry_delay)


def _query_string(query: Optional[Mapping[str, Any]]) -> str:
    if not query:
        return ""
    pairs = []
    for key, value in query.items():
        if value is None:
            continue
        pairs.append((key, ("true" if value else "false") if isinstance(value, bool) else str(value)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


def _parse_json(body: bytes) -> Any:
    if not body:
        return None
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None


def _success(status: int, headers: Mapping[str, str], body: bytes, raw: bool) -> Tuple[Any, Optional[Dict[str, Any]]]:
    if raw:
        return body, None
    parsed = _parse_json(body)
    if not isinstance(parsed, dict) or "data" not in parsed:
        request_id = {k.lower(): v for k, v in headers.items()}.get("request-id")
        raise ServerError(
            f"Expected a Timbre API JSON envelope, got HTTP {status} with another body.",
            code="INVALID_RESPONSE",
            status=status,
            request_id=request_id,
        )
    pagination = parsed.get("pagination")
    return parsed["data"], pagination if isinstance(pagination, dict) else None
