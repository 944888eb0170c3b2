"""Error classes, one per thing the caller does next, and the one place that maps an HTTP answer to them."""

from __future__ import annotations

import email.utils
import time
from typing import Any, Dict, List, Mapping, Optional


class TimbreError(Exception):
    """Base class of every error raised for an API call. Branch on ``code`` (the API's closed list) or the subclass.

    ``status`` is the HTTP status (``None`` when no answer came), ``request_id`` the ``req_…`` to quote to support.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status: Optional[int] = None,
        request_id: Optional[str] = None,
        details: Optional[Dict[str, Any]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.request_id = request_id
        self.details: Dict[str, Any] = details or {}
        self.headers: Dict[str, str] = dict(headers or {})

    def __str__(self) -> str:
        where = f" (request {self.request_id})" if self.request_id else ""
        return f"{self.code}: {self.message}{where}"


class AuthenticationError(TimbreError):
    """401: missing, unknown, revoked or expired credential. Fix the key or log in again."""


class PermissionDeniedError(TimbreError):
    """403: the credential lacks ``required_permission``. Use a key with more permissions.

    Also importable as ``timbre.PermissionError`` (left out of ``__all__`` so ``import *`` never hides the builtin).
    """

    @property
    def required_permission(self) -> Optional[str]:
        value = self.details.get("required_permission")
        return value if isinstance(value, str) else None


class NotFoundError(TimbreError):
    """404: unknown route, or a resource not visible to this credential."""


class ValidationError(TimbreError):
    """400 / 422: fix the request. ``errors`` lists every problem found, each ``{"field", "reason", …}``.

    ``code`` tells ``VALIDATION_ERROR`` from ``FOLIOS_EXHAUSTED``, ``CERTIFICATE_REQUIRED``, ``CAF_INVALID``, …
    """

    def __init__(self, message: str, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.errors: List[Dict[str, Any]] = _issues_from(self.details)


class ConflictError(TimbreError):
    """409: duplicate (email, business RUT, overlapping CAF), a state that forbids it, or a key still running."""


class RateLimitError(TimbreError):
    """429: slow down; ``retry_after`` is the number of seconds the server asked to wait (or ``None``)."""

    def __init__(self, message: str, *, retry_after: Optional[float] = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class ServerError(TimbreError):
    """5xx, or an answer that is not the API's envelope: the service failed; retry later."""


class APIError(TimbreError):
    """Any other refusal (413 payload too large, 415 unsupported media type, …)."""


class APIConnectionError(TimbreError):
    """No answer: connection refused or dropped, DNS, or the request timed out (``code == "TIMEOUT"``).

    Also importable as ``timbre.ConnectionError`` (left out of ``__all__`` so ``import *`` never hides the builtin).
    """


def _issues_from(details: Dict[str, Any]) -> List[Dict[str, Any]]:
    errors = details.get("errors")
    if isinstance(errors, list):
        return [dict(entry) for entry in errors if isinstance(entry, dict)]
    field, reason = details.get("field"), details.get("reason")
    if isinstance(field, str) and isinstance(reason, str):
        return [{"field": field, "reason": reason}]
    return []


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if value is None or value.strip() == "":
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def error_from_response(status: int, headers: Mapping[str, str], body: Any) -> TimbreError:
    """Builds the error for a non-2xx answer; ``body`` is the parsed JSON body (or ``None``)."""
    envelope = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), dict) else None
    lower = {k.lower(): v for k, v in headers.items()}
    code = envelope.get("code") if envelope and isinstance(envelope.get("code"), str) else f"HTTP_{status}"
    message = envelope.get("message") if envelope and isinstance(envelope.get("message"), str) else f"Request failed with HTTP {status}"
    details = envelope.get("details") if envelope and isinstance(envelope.get("details"), dict) else {}
    request_id = (envelope.get("request_id") if envelope else None) or lower.get("request-id")
    kwargs: Dict[str, Any] = {"code": code, "status": status, "request_id": request_id, "details": details, "headers": lower}
    if status == 401:
        return AuthenticationError(message, **kwargs)
    if status == 403:
        return PermissionDeniedError(message, **kwargs)
    if status == 404:
        return NotFoundError(message, **kwargs)
    if status == 409:
        return ConflictError(message, **kwargs)
    if status in (400, 422):
        return ValidationError(message, **kwargs)
    if status == 429:
        retry_after = parse_retry_after(lower.get("retry-after"))
        if retry_after is None and isinstance(details.get("retry_after"), (int, float)):
            retry_after = float(details["retry_after"])
        return RateLimitError(message, retry_after=retry_after, **kwargs)
    if status >= 500 or envelope is None:
        return ServerError(message, **kwargs)
    return APIError(message, **kwargs)
