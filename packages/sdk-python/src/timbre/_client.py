from __future__ import annotations

from typing import Any, Dict, Optional

from ._transport import Response, Transport
from .resources.businesses import Businesses
from .resources.dte import DteResource
from .resources.events import Events
from .resources.misc import Auth, Health, Issuers, Rut
from .resources.numerations import Numerations, Sandbox, SandboxNumerations
from .resources.received import Received
from .resources.tokens import Tokens

VERSION = "0.1.0"
DEFAULT_BASE_URL = "http://localhost:3000/v1"


class Timbre:
    """The Timbre API client. Resources mirror the URLs: ``client.dte.emit(body)`` is ``POST /v1/dte/emit``.

    ``base_url`` may be given with or without ``/v1`` and a trailing slash. Use an API key (``sk_test_…`` /
    ``sk_live_…``), or a session ``access_token`` with ``business_id`` (and ``environment``) for ``/dte`` and
    ``/events``. Requests that fail on the way (connection, 429, 5xx) are retried ``max_retries`` times; each POST
    carries one ``Idempotency-Key`` that its retries reuse. ``timeout`` is per attempt, in seconds.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: str = DEFAULT_BASE_URL,
        access_token: Optional[str] = None,
        business_id: Optional[str] = None,
        environment: Optional[str] = None,
        timeout: float = 30.0,
        max_retries: int = 2,
        initial_retry_delay: float = 0.5,
        max_retry_delay: float = 8.0,
    ) -> None:
        self._options: Dict[str, Any] = {
            "api_key": api_key,
            "base_url": base_url,
            "access_token": access_token,
            "business_id": business_id,
            "environment": environment,
            "timeout": timeout,
            "max_retries": max_retries,
            "initial_retry_delay": initial_retry_delay,
            "max_retry_delay": max_retry_delay,
        }
        self._transport = Transport(user_agent=f"timbre-python/{VERSION}", **self._options)
        self.dte = DteResource(self._transport)
        self.businesses = Businesses(self._transport)
        self.numerations = Numerations(self._transport)
        self.sandbox = Sandbox(SandboxNumerations(self._transport))
        self.tokens = Tokens(self._transport)
        self.events = Events(self._transport)
        self.received = Received(self._transport)
        self.issuers = Issuers(self._transport)
        self.auth = Auth(self._transport)
        self.rut = Rut(self._transport)
        self._health = Health(self._transport)

    @property
    def base_url(self) -> str:
        """The API root this client calls, always ending in ``/v1``."""
        return self._transport.base_url

    @property
    def last_response(self) -> Optional[Response]:
        """The last successful answer's ``status``, ``headers``, ``request_id`` and ``idempotent_replayed``."""
        return self._transport.last_response

    def health(self) -> Dict[str, Any]:
        """``GET /health`` (no credential needed)."""
        return self._health.check()

    def with_options(self, **changes: Any) -> "Timbre":
        """A new client with some options changed (e.g. another business for a session)."""
        return Timbre(**{**self._options, **changes})
