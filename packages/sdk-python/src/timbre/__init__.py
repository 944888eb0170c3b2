"""Timbre: Chilean electronic tax documents (DTE) through the Timbre API.

    from timbre import Timbre, NotFoundError, webhooks

    client = Timbre(api_key="sk_test_…", base_url="http://localhost:3000")
    dte = client.dte.emit({"tipo": 33, "receptor": {...}, "items": [...]})
"""

from . import types, webhooks
from ._client import DEFAULT_BASE_URL, VERSION, Timbre
from ._errors import (
    APIConnectionError,
    APIError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    TimbreError,
    ValidationError,
)
from ._pagination import ListIterator, Page
from ._transport import Response
from .webhooks import WebhookVerificationError

# The names the API's error list suggests; not in __all__, so `from timbre import *` never hides Python's builtins.
PermissionError = PermissionDeniedError  # noqa: A001
ConnectionError = APIConnectionError  # noqa: A001

__version__ = VERSION

__all__ = [
    "Timbre",
    "DEFAULT_BASE_URL",
    "TimbreError",
    "AuthenticationError",
    "PermissionDeniedError",
    "NotFoundError",
    "ValidationError",
    "ConflictError",
    "RateLimitError",
    "ServerError",
    "APIError",
    "APIConnectionError",
    "WebhookVerificationError",
    "ListIterator",
    "Page",
    "Response",
    "types",
    "webhooks",
]
